/**
 * `bun bench/site.ts`: requests per second of the documentation site against a bare `Bun.serve`
 * serving the same bytes from a Map, for an HTML page, a Markdown page and the API index; each
 * server in its own process, the load from `wrk` (or the Bun client), medians of `BENCH_ROUNDS`.
 */
import { join } from 'node:path';
import { runLoad } from './load.ts';
import { median } from './median.ts';

const PATHS = ['/docs/routes-and-hooks', '/md/docs/routes-and-hooks', '/api/v1'];
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);

async function start(kind: 'site' | 'plain'): Promise<{ port: number; stop(): Promise<void> }> {
  const proc = Bun.spawn([process.execPath, join(import.meta.dir, 'site-server.ts'), kind], {
    env: { ...process.env, BENCH_SITE_PATHS: PATHS.join(',') },
    stdout: 'pipe',
    stderr: 'inherit',
  });
  const reader = (proc.stdout as ReadableStream<Uint8Array>).getReader();
  let text = '';
  while (!text.includes('\n')) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`the ${kind} server exited before listening`);
    text += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  const port = Number(text.trim().split(' ')[1]);
  return {
    port,
    async stop() {
      proc.kill('SIGTERM');
      await proc.exited;
    },
  };
}

const servers = { site: await start('site'), plain: await start('plain') };
const results: Record<string, Record<string, number[]>> = {};
try {
  for (let round = 0; round < ROUNDS; round++) {
    for (const path of PATHS) {
      for (const kind of ['plain', 'site'] as const) {
        const url = `http://127.0.0.1:${servers[kind].port}${path}`;
        await runLoad({ method: 'GET', url, expectedStatus: 200 }, { seconds: 1, connections: CONNECTIONS });
        const run = await runLoad(
          { method: 'GET', url, expectedStatus: 200 },
          { seconds: SECONDS, connections: CONNECTIONS },
        );
        if (run.errors > 0) throw new Error(`${kind} ${path}: ${run.errors} errors`);
        ((results[path] ??= {})[kind] ??= []).push(run.requestsPerSecond);
      }
    }
  }
} finally {
  await servers.site.stop();
  await servers.plain.stop();
}

console.log('| path | plain Bun.serve (req/s) | site (req/s) | site / plain |');
console.log('| --- | ---: | ---: | ---: |');
for (const path of PATHS) {
  const plain = median(results[path]?.plain ?? []);
  const site = median(results[path]?.site ?? []);
  console.log(`| \`${path}\` | ${Math.round(plain)} | ${Math.round(site)} | ${(site / plain).toFixed(2)} |`);
}
