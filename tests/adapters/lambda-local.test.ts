/**
 * charter/lambda on real Node 24 through lambda-local (the registry's offline Lambda runner: a
 * Lambda-shaped context and an `awslambda.streamifyResponse` polyfill), fed the documentation's example
 * events and the behaviour suite. The run happens in a Node 24 child (fixtures/lambda/lambda-local-run.ts,
 * the built package); this file checks what it reports.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BehaviourResult } from './behaviour/checks.ts';
import { behaviourChecks } from './behaviour/checks.ts';
import { NODE_TS_FLAGS, node24, ROOT } from './fixtures/node24.ts';

interface Line {
  fixture?: string;
  statusCode?: number;
  source?: string;
  clientIp?: string | null;
  awsRequestId?: string | null;
  label?: string;
  node?: string;
  results?: BehaviourResult[];
  done?: boolean;
}

const SSE = 'streaming: an SSE route sends its first event before the stream ends';
let lines: Line[] = [];
let child: ReturnType<typeof Bun.spawn> | undefined;
let stderr = '';

beforeAll(async () => {
  child = Bun.spawn(
    [node24().path, ...NODE_TS_FLAGS, join(import.meta.dir, 'fixtures/lambda/lambda-local-run.ts')],
    {
      cwd: ROOT,
      stdout: 'pipe',
      stderr: 'pipe',
    },
  );
  const [out, err] = await Promise.all([
    new Response(child.stdout as ReadableStream).text(),
    new Response(child.stderr as ReadableStream).text(),
    child.exited,
  ]);
  stderr = err;
  lines = out
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Line);
}, 180_000);
afterAll(() => {
  if (child?.exitCode === null) child.kill('SIGKILL');
});

const run = (label: string): Line => {
  const line = lines.find((l) => l.label === label);
  if (line === undefined) throw new Error(`no ${label} run was reported; stderr: ${stderr}`);
  return line;
};

describe('lambda-local on Node 24', () => {
  test('the runner finished', () => {
    expect(lines.at(-1)).toEqual({ done: true });
  });

  test('each documented example event is answered 200, with its source and client address', () => {
    const fixtures = lines.filter((line) => line.fixture !== undefined);
    expect(
      fixtures.map(({ fixture, statusCode, source, clientIp }) => ({
        fixture,
        statusCode,
        source,
        clientIp,
      })),
    ).toEqual([
      { fixture: 'api-gateway-v1', statusCode: 200, source: 'api-gateway-v1', clientIp: '198.51.100.7' },
      { fixture: 'http-api-v1', statusCode: 200, source: 'api-gateway-v1', clientIp: '192.0.2.33' },
      { fixture: 'api-gateway-v2', statusCode: 200, source: 'api-gateway-v2', clientIp: '192.0.2.44' },
      { fixture: 'function-url', statusCode: 200, source: 'function-url', clientIp: '203.0.113.5' },
      { fixture: 'alb', statusCode: 200, source: 'alb', clientIp: null },
      { fixture: 'alb-multi-value', statusCode: 200, source: 'alb', clientIp: null },
    ]);
    // lambda-local's context reached the app through lambdaInvocation(ctx.request).context.
    for (const line of fixtures) expect(line.awsRequestId).toMatch(/^[0-9a-f-]{36}$/);
  });

  for (const label of ['api-gateway-v2', 'api-gateway-v1', 'alb-multi-value']) {
    test(`behaviour suite, ${label} (buffered): every check but SSE passes, SSE cannot`, () => {
      const line = run(label);
      expect(line.node).toStartWith('v24.');
      expect(line.results?.map((r) => r.name)).toEqual(behaviourChecks.map((c) => c.name));
      const failed = line.results?.filter((r) => !r.ok).map((r) => r.name);
      expect(failed).toEqual([SSE]);
    });
  }

  test('behaviour suite, Function URL through the streaming handler: every check passes, SSE included', () => {
    const line = run('function-url (streaming)');
    expect(line.results?.filter((r) => !r.ok)).toEqual([]);
    expect(line.results).toHaveLength(behaviourChecks.length);
  });

  test('the bundle of the documented build step runs through the lambda-local CLI', async () => {
    // What the deploy guide says to ship: the entry bundled into one ES module (bun build --target node
    // --format esm), with `charter` resolved from node_modules as a user's install holds it.
    const dir = mkdtempSync(join(tmpdir(), 'charter-lambda-'));
    try {
      mkdirSync(join(dir, 'node_modules'));
      symlinkSync(join(ROOT, 'packages', 'charter'), join(dir, 'node_modules', 'charter'), 'dir');
      writeFileSync(
        join(dir, 'entry.ts'),
        [
          "import { App } from 'charter';",
          "import { lambdaInvocation, toLambdaHandler } from 'charter/lambda';",
          "const app = new App({ production: true, behindProxy: 'none' });",
          "app.post('/my/path', { responses: { 200: {} } }, async (ctx) => ({",
          '  status: 200,',
          '  body: { text: await ctx.request.text(), source: lambdaInvocation(ctx.request)?.source ?? null },',
          '}));',
          'export const handler = toLambdaHandler(app);',
        ].join('\n'),
      );
      const built = await Bun.build({
        entrypoints: [join(dir, 'entry.ts')],
        target: 'node',
        format: 'esm',
        outdir: join(dir, 'dist'),
        naming: 'index.mjs',
      });
      expect(built.success).toBe(true);
      const cli = Bun.spawn(
        [
          node24().path,
          join(ROOT, 'node_modules', 'lambda-local', 'build', 'cli.js'),
          ...['-l', 'index.mjs', '-h', 'handler', '--esm', '-t', '20', '-v', '1'],
          ...['-e', join(import.meta.dir, 'fixtures', 'lambda', 'api-gateway-v2.json')],
        ],
        { cwd: join(dir, 'dist'), stdout: 'pipe', stderr: 'pipe', env: { ...process.env, NO_COLOR: '1' } },
      );
      const [out, err, code] = await Promise.all([
        new Response(cli.stdout).text(),
        new Response(cli.stderr).text(),
        cli.exited,
      ]);
      expect({ code, err }).toEqual({ code: 0, err: '' });
      // The CLI logs the result as `info: {` (colored), the object's lines, then `}`.
      const lines = out.split('\n');
      const start = lines.findIndex((line) => line.endsWith(': {'));
      const end = lines.findIndex((line, index) => index > start && line === '}');
      const result = JSON.parse(['{', ...lines.slice(start + 1, end + 1)].join('\n')) as {
        statusCode: number;
        headers: Record<string, string>;
        cookies: string[];
        body: string;
      };
      expect(result.statusCode).toBe(200);
      expect(result.headers['content-type']).toBe('application/json');
      expect(result.headers['strict-transport-security']).toStartWith('max-age=');
      expect(result.cookies).toEqual([]);
      expect(JSON.parse(result.body)).toEqual({ text: 'Hello from Lambda', source: 'api-gateway-v2' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
