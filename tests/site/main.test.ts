/**
 * `bun run site` as an operator runs it: the entry point reads its settings from the environment,
 * refuses to start in production without a token secret, logs one line per request, and stops
 * gracefully on SIGTERM.
 */
import { describe, expect, test } from 'bun:test';
import { join } from 'node:path';

const ROOT = join(import.meta.dir, '..', '..');
const MAIN = join(ROOT, 'site', 'main.ts');

function freePort(): number {
  const probe = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response(null) });
  const port = probe.port as number;
  probe.stop(true);
  return port;
}

async function readUntil(stream: ReadableStream<Uint8Array>, needle: string, ms: number): Promise<string> {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let seen = '';
  const deadline = Date.now() + ms;
  try {
    while (Date.now() < deadline && !seen.includes(needle)) {
      const chunk = await Promise.race([
        reader.read(),
        new Promise<undefined>((resolve) =>
          setTimeout(() => resolve(undefined), Math.max(0, deadline - Date.now())),
        ),
      ]);
      if (chunk === undefined || chunk.done) break;
      seen += decoder.decode(chunk.value, { stream: true });
    }
  } finally {
    reader.releaseLock();
  }
  return seen;
}

describe('bun run site', () => {
  test('refuses to start in production without SITE_TOKEN_SECRET, saying which variable to set', async () => {
    const child = Bun.spawn([process.execPath, MAIN], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH ?? '',
        NODE_ENV: 'production',
        PORT: String(freePort()),
        SITE_ORIGIN: 'https://docs.example',
      },
      stdout: 'pipe',
      stderr: 'pipe',
    });
    expect(await child.exited).not.toBe(0);
    expect(await new Response(child.stderr).text()).toContain('SITE_TOKEN_SECRET');
  }, 20_000);

  test('starts in production with a secret, logs one line per request, and stops on SIGTERM', async () => {
    const port = freePort();
    const secret = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64url');
    const child = Bun.spawn([process.execPath, MAIN], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH ?? '',
        NODE_ENV: 'production',
        PORT: String(port),
        SITE_ORIGIN: `http://127.0.0.1:${port}`,
        SITE_TOKEN_SECRET: secret,
      },
      stdout: 'pipe',
      stderr: 'pipe',
    });
    try {
      const stdout = child.stdout as ReadableStream<Uint8Array>;
      const boot = await readUntil(stdout, 'listening', 15_000);
      expect(boot).toContain('Charter documentation site listening');
      expect(boot).not.toContain('"level":"warn"');
      const res = await fetch(`http://127.0.0.1:${port}/api/v1`);
      expect(res.status).toBe(200);
      const log = await readUntil(stdout, '"msg":"request"', 5_000);
      const line = JSON.parse(log.split('\n').find((l) => l.includes('"msg":"request"')) ?? '{}');
      expect(line).toMatchObject({ level: 'info', method: 'GET', path: '/api/v1', status: 200 });
      expect(typeof line.ms).toBe('number');
      child.kill('SIGTERM');
      expect(await child.exited).toBe(0);
    } finally {
      child.kill('SIGKILL');
    }
  }, 30_000);
});
