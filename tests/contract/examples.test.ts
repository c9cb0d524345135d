/**
 * The contract fuzzer over every example app (issue 19, item 4), built as the examples' own tests
 * build them (their factories, the published `charter` package): zero findings against each app's
 * OpenAPI document (the one it serves, else the one charter/openapi generates for it), and
 * openapi-backend agrees on every exchange.
 */
import { describe, expect, test } from 'bun:test';
import { runContractTests } from 'charter/client';
import { appInfo, generateOpenAPI } from 'charter/openapi';
import type { App } from 'charter';
import { crossChecker } from './cross-check.ts';

const EXAMPLES: readonly [string, () => Promise<App>][] = [
  ['todo-app', async () => (await import('../../examples/todo-app.ts')).createExampleApp()],
  ['contract-app', async () => (await import('../../examples/contract-app.ts')).createContractApp()],
  ['crud-sqlite', async () => (await import('../../examples/crud-sqlite.ts')).createBooksApp()],
  ['file-upload', async () => (await import('../../examples/file-upload.ts')).createUploadApp()],
  ['sse', async () => (await import('../../examples/sse.ts')).createSseApp(50)],
  [
    'session-login',
    async () =>
      (await import('../../examples/session-login.ts')).createLoginApp(
        crypto.randomUUID() + crypto.randomUUID(),
      ),
  ],
  ['websocket-chat', async () => (await import('../../examples/websocket-chat.ts')).createChatApp()],
  ['typed-client', async () => (await import('../../examples/typed-client.ts')).createTypedClientApp()],
  ['mcp-server', async () => (await import('../../examples/mcp-server.ts')).createMcpExampleApp()],
  [
    'mcp-conformance-server',
    async () => (await import('../../examples/mcp-conformance-server.ts')).createConformanceApp(),
  ],
];

async function documentOf(app: App): Promise<Record<string, unknown>> {
  const served = await app.fetch(new Request('http://localhost/openapi.json'));
  if (served.status === 200) return (await served.json()) as Record<string, unknown>;
  await served.body?.cancel();
  return JSON.parse(JSON.stringify(generateOpenAPI(app, { info: appInfo(app) }))) as Record<string, unknown>;
}

describe('every example honours its OpenAPI document under the contract fuzzer', () => {
  for (const [name, create] of EXAMPLES) {
    test(`examples/${name}.ts: zero findings, and openapi-backend agrees`, async () => {
      const app = await create();
      await app.ready();
      const document = await documentOf(app);
      const cross = await crossChecker(document);
      const report = await runContractTests(app, {
        requireOperationId: false,
        fuzz: {
          seed: 19,
          requestsPerRoute: 40,
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
      expect(fuzz?.routes).toBeGreaterThan(0);
      expect(fuzz?.requests).toBeGreaterThanOrEqual(fuzz?.routes as number);
      expect(cross.disagreements).toEqual([]);
      expect(cross.exchanges).toBe(fuzz?.requests as number);
      expect(cross.unrouted).toBe(0);
      console.info(
        `${name}: ${fuzz?.routes} operations, ${fuzz?.requests} requests, ${fuzz?.findings.length} findings, ` +
          `${fuzz?.warnings.length} warnings; openapi-backend judged ${cross.judgedBodies} bodies`,
      );
      await (app as { shutdown?: () => Promise<unknown> }).shutdown?.();
    }, 120_000);
  }
});
