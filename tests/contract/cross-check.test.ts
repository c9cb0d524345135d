/**
 * The second opinion is not idle: on answers that break the document, openapi-backend flags what the
 * fuzzer flags (a body off its schema, an undeclared status, a header off its schema), exchange by
 * exchange, so their agreement over the site and the examples means something.
 */
import { describe, expect, test } from 'bun:test';
import { App } from '@charter/app';
import { runContractTests } from '@charter/client';
import { type } from 'arktype';
import { crossChecker } from './cross-check.ts';

function brokenApp(): App {
  const app = new App({ logger: false, openapi: true, validateResponses: false });
  const Item = type({ name: 'string', 'count?': 'number.integer' });
  app.get('/off-schema', { operationId: 'offSchema', responses: { 200: { body: Item } } }, () => ({
    status: 200,
    body: { name: 7 } as never,
  }));
  app.get(
    '/undeclared',
    {
      operationId: 'undeclared',
      responses: { 200: { body: Item } },
      hooks: { beforeHandle: () => new Response(null, { status: 418 }) },
    },
    () => ({ status: 200, body: { name: 'x' } }),
  );
  app.get(
    '/header',
    {
      operationId: 'header',
      responses: { 204: { headers: { 'x-count': { schema: type('number.integer') } } } },
    },
    () => ({ status: 204, headers: { 'x-count': 'many' } }),
  );
  app.get('/fine', { operationId: 'fine', responses: { 200: { body: Item } } }, () => ({
    status: 200,
    body: { name: 'ok', count: 2 },
  }));
  return app;
}

describe('openapi-backend and the fuzzer judge broken answers alike', () => {
  test('both flag each planted break, and agree on every exchange', async () => {
    const app = brokenApp();
    const document = (await (await app.request('/openapi.json')).json()) as Record<string, unknown>;
    const cross = await crossChecker(document);
    const report = await runContractTests(app, {
      fuzz: {
        requestsPerRoute: 6,
        document,
        observe: (r, a, found) =>
          cross.check(
            r,
            a,
            found.map((f) => f.code),
          ),
      },
    });
    const codes = new Set(report.issues.map((i) => `${i.route} ${i.code}`));
    expect(codes).toEqual(
      new Set(['/off-schema body-off-schema', '/undeclared undeclared-status', '/header header-off-schema']),
    );
    expect(cross.disagreements).toEqual([]);
    expect(cross.exchanges).toBe(report.fuzz?.requests as number);
  });

  test('a disagreement is recorded when the two differ (the harness can fail)', async () => {
    const app = brokenApp();
    const document = (await (await app.request('/openapi.json')).json()) as Record<string, unknown>;
    const cross = await crossChecker(document);
    // Tell the harness the fuzzer found nothing: openapi-backend still refuses the body, so they differ.
    await runContractTests(app, {
      fuzz: { requestsPerRoute: 2, document, observe: (r, a) => cross.check(r, a, []) },
    });
    expect(cross.disagreements.length).toBeGreaterThan(0);
    expect(
      cross.disagreements.some((d) => d.openapiBackend.bodyValid === false && d.charter.bodyValid === true),
    ).toBe(true);
    expect(
      cross.disagreements.some((d) => !d.openapiBackend.statusDeclared && d.charter.statusDeclared),
    ).toBe(true);
  });
});
