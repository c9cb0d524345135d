/**
 * charter/vercel on real Node 24, the runtime Vercel Functions run on (built package):
 * - the Node.js form: `toVercelNodeHandler(app)` on a node:http server (fixtures/vercel/node-server.ts),
 *   the function mounted at `/api`, with the behaviour suite over HTTP;
 * - the Web form: the entry module called as Vercel calls it, through `fetch` and through the export
 *   named after each method, with Node's own Request and Response (fixtures/vercel/web-run.ts).
 * Vercel's runtime calls the same signatures; the platform itself is not run here.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import { describeBehaviour } from './behaviour/bun.ts';
import { type BehaviourResult, type BehaviourTarget, behaviourChecks } from './behaviour/checks.ts';
import { NODE_TS_FLAGS, node24, ROOT } from './fixtures/node24.ts';

let child: ReturnType<typeof Bun.spawn<'pipe', 'pipe', 'pipe'>> | undefined;
let target: BehaviourTarget | undefined;
let nodeVersion = '';

beforeAll(async () => {
  child = Bun.spawn(
    [node24().path, ...NODE_TS_FLAGS, join(import.meta.dir, 'fixtures/vercel/node-server.ts')],
    {
      cwd: ROOT,
      stdin: 'pipe',
      stdout: 'pipe',
      stderr: 'pipe',
    },
  );
  const reader = child.stdout.getReader();
  let text = '';
  while (!text.includes('\n')) {
    const { done, value } = await reader.read();
    if (done) throw new Error(`the Node server exited: ${await new Response(child.stderr).text()}`);
    text += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  const { port, node } = JSON.parse(text.slice(0, text.indexOf('\n'))) as { port: number; node: string };
  nodeVersion = node;
  target = { baseUrl: `http://127.0.0.1:${port}/api`, fetch: (request) => fetch(request) };
}, 60_000);

afterAll(async () => {
  if (child === undefined) return;
  child.stdin.end();
  const exited = await Promise.race([child.exited, Bun.sleep(5000).then(() => undefined)]);
  if (exited === undefined) child.kill('SIGKILL');
});

describe('the Node 24 server', () => {
  test('runs on Node 24', () => {
    expect(nodeVersion).toStartWith('v24.');
  });

  test('a path outside basePath is routed as sent', async () => {
    const origin = new URL((target as BehaviourTarget).baseUrl).origin;
    const routed = await fetch(`${origin}/items/1?x=1`);
    expect(routed.status).toBe(200);
    expect(await routed.json()).toEqual({ id: 1, name: 'item 1' });
    const missing = await fetch(`${origin}/apiitems/1`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toBe('application/problem+json');
  });
});

describeBehaviour('charter/vercel (Node.js (req, res) on Node 24)', () => {
  if (target === undefined) throw new Error('the Node server did not start');
  return target;
});

describe('the Web form on Node 24', () => {
  let lines: Array<{ shape: string; node: string; results: BehaviourResult[] }> = [];
  let stderr = '';
  beforeAll(async () => {
    const run = Bun.spawn(
      [node24().path, ...NODE_TS_FLAGS, join(import.meta.dir, 'fixtures/vercel/web-run.ts')],
      {
        cwd: ROOT,
        stdout: 'pipe',
        stderr: 'pipe',
      },
    );
    const [out, err] = await Promise.all([
      new Response(run.stdout).text(),
      new Response(run.stderr).text(),
      run.exited,
    ]);
    stderr = err;
    lines = out
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line));
  }, 120_000);

  for (const shape of ['fetch', 'per-method']) {
    test(`behaviour suite through ${shape === 'fetch' ? 'export default { fetch }' : 'the per-method exports'}: every check passes`, () => {
      const line = lines.find((l) => l.shape === shape);
      if (line === undefined) throw new Error(`no ${shape} run was reported; stderr: ${stderr}`);
      expect(line.node).toStartWith('v24.');
      expect(line.results.map((r) => r.name)).toEqual(behaviourChecks.map((c) => c.name));
      expect(line.results.filter((r) => !r.ok)).toEqual([]);
    });
  }
});
