/**
 * The contract fuzzer over the documentation site (issue 19, item 4): every operation of the site's
 * OpenAPI document gets valid and invalid requests in process, and every answer must be what the
 * document says, with openapi-backend judging the same traffic and agreeing. The site's quota is raised
 * for the run, so the limiter lets the fuzzer through (its 429 is documented all the same).
 */
import { describe, expect, test } from 'bun:test';
import { runContractTests } from '@charter/client';
import { siteApp } from '../site/support.ts';
import { crossChecker } from './cross-check.ts';

const ORIGIN = 'http://localhost:3000';

describe('the site honours its OpenAPI document under the contract fuzzer', () => {
  test('zero findings, and openapi-backend agrees on every exchange', async () => {
    const app = await siteApp({ rateLimit: { max: 1_000_000, windowMs: 60_000 } });
    const served = await app.fetch(new Request(`${ORIGIN}/openapi.json`));
    expect(served.status).toBe(200);
    const document = (await served.json()) as Record<string, unknown>;
    const cross = await crossChecker(document);
    const report = await runContractTests(app, {
      // Pages and assets are left out of the document; the API surface has operationIds of its own.
      requireOperationId: false,
      fuzz: {
        seed: 19,
        requestsPerRoute: 40,
        origin: ORIGIN,
        document,
        observe: (request, answer, found) =>
          cross.check(
            request,
            answer,
            found.map((f) => f.code),
          ),
      },
    });
    const fuzz = report.fuzz;
    expect(fuzz?.findings).toEqual([]);
    expect(fuzz?.routes).toBe(
      Object.values(document.paths as object).flatMap((item) => Object.keys(item)).length,
    );
    expect(fuzz?.routes).toBeGreaterThanOrEqual(15);
    expect(fuzz?.requests).toBeGreaterThan(300);
    expect(cross.disagreements).toEqual([]);
    expect(cross.exchanges).toBe(fuzz?.requests as number);
    expect(cross.unrouted).toBe(0);
    // The second opinion is not idle: it validated bodies against their schemas.
    expect(cross.judgedBodies).toBeGreaterThan(100);
    console.info(
      `site: ${fuzz?.routes} operations, ${fuzz?.requests} requests, ${fuzz?.findings.length} findings, ` +
        `${fuzz?.warnings.length} warnings; openapi-backend judged ${cross.judgedBodies} bodies, ${cross.disagreements.length} disagreements`,
    );
  }, 120_000);
});
