/**
 * charter/vercel, Node.js form: `toVercelNodeHandler(app)` on a real node:http server under Node 24
 * (fixtures/vercel/node-server.ts, built package), the function mounted at `/api`, with the behaviour
 * suite over HTTP. Vercel's Node runtime calls the same `(req, res)` signature; the platform itself is
 * not run here.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import { describeBehaviour } from './behaviour/bun.ts';
import type { BehaviourTarget } from './behaviour/checks.ts';
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
