/**
 * One server of the site benchmark in its own process: `bun bench/site-server.ts site|plain`.
 * `site` is the documentation site (`createSite`, the Bun adapter) with its quota raised out of the
 * way; `plain` is a bare `Bun.serve` answering the same pre-rendered bytes, with the same header
 * fields (captured once, so the rate-limit counters are frozen), from a Map: the floor for serving
 * a cached page with the site's headers. Prints `ready <port>` once listening; exits on SIGTERM.
 */
import { serve } from '@charter/bun';
import { createSite } from '../site/app.ts';
import { buildContent } from '../site/content/build.ts';
import { readContentDir } from '../site/content/read-dir.ts';

const kind = process.argv[2];
if (kind !== 'site' && kind !== 'plain') {
  console.error('usage: bun bench/site-server.ts site|plain');
  process.exit(2);
}
const content = buildContent(await readContentDir(new URL('../content', import.meta.url).pathname));
const site = createSite({
  origin: 'http://127.0.0.1',
  content,
  tokenKey: crypto.getRandomValues(new Uint8Array(32)),
  logger: false,
  rateLimit: { max: 1_000_000_000, windowMs: 60_000 },
});

if (kind === 'site') {
  const server = await serve(site, { port: 0, hostname: '127.0.0.1', signals: true });
  console.log(`ready ${server.port}`);
} else {
  // The same bytes the site sends, captured once: the plain server only looks them up.
  const bodies = new Map<string, { body: ArrayBuffer; headers: [string, string][] }>();
  for (const path of (process.env.BENCH_SITE_PATHS ?? '').split(',')) {
    const res = await site.request(path);
    const headers = [...res.headers].filter(([name]) => name !== 'content-length');
    bodies.set(path, { body: await res.arrayBuffer(), headers });
  }
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    fetch(request) {
      const hit = bodies.get(new URL(request.url).pathname);
      return hit === undefined
        ? new Response('not found', { status: 404 })
        : new Response(hit.body, { headers: hit.headers });
    },
  });
  process.on('SIGTERM', () => {
    server.stop(true);
    process.exit(0);
  });
  console.log(`ready ${server.port}`);
}
