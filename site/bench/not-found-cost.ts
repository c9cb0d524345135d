/**
 * `bun site/bench/not-found-cost.ts`: CPU time per request of the site's answers that cost the
 * most without a quota in front, the Markdown 404 of an unmatched `*.md` path above all (issue 17:
 * its edit-distance suggestions cost 8 to 20 times any other unlimited answer). Each path is
 * requested `ROUNDS` times through `app.fetch` (in process: no socket noise), after a warm-up, and
 * the process's user + system CPU time is divided by the count. Also prints what the answer was.
 *
 *   ROUNDS=5000 bun site/bench/not-found-cost.ts
 */
import { createSite } from '../app.ts';
import { buildContent } from '../content/build.ts';
import { readContentDir } from '../content/read-dir.ts';

const ROUNDS = Number(process.env.ROUNDS ?? 5_000);
const content = buildContent(await readContentDir(new URL('../../content', import.meta.url).pathname));
const site = createSite({
  origin: 'http://127.0.0.1:3000',
  content,
  tokenKey: crypto.getRandomValues(new Uint8Array(32)),
  logger: false,
  // The quota is out of the way here: this measures the work of an answer, not the limit.
  rateLimit: { max: 1_000_000_000, windowMs: 60_000 },
});

const long = `guide/${'routes-and-hooks-'.repeat(14)}`.slice(0, 240);
// No route matches the first four (the Markdown 404 of the not-found fallback, which no quota
// limits); the next two are answered by a page route, which the quota limits.
const cases: Array<[string, string]> = [
  ['no route, .md, short', '/jwtt.md'],
  ['no route, .md, typical', '/guide/rout-and-hooks.md'],
  ['no route, .md, 240 chars', `/${long}.md`],
  ['no route, .md, 2000 chars', `/${'x'.repeat(2000)}.md`],
  ['docs route, .md, typical (limited)', '/docs/rout-and-hooks.md'],
  ['/md/ route, typical (limited)', '/md/docs/rout-and-hooks'],
  ['no route, problem 404', '/nothing/here'],
  ['GET /api (308)', '/api'],
  ['GET /.well-known/api-catalog', '/.well-known/api-catalog'],
];

async function cpuPerRequest(path: string): Promise<{ micros: number; status: number }> {
  const request = () =>
    site.fetch(new Request(`http://127.0.0.1:3000${path}`, { headers: { accept: 'text/markdown' } }));
  let status = 0;
  for (let i = 0; i < 500; i++) status = (await request()).status;
  const before = process.cpuUsage();
  for (let i = 0; i < ROUNDS; i++) await (await request()).arrayBuffer();
  const used = process.cpuUsage(before);
  return { micros: (used.user + used.system) / ROUNDS, status };
}

for (const [label, path] of cases) {
  const { micros, status } = await cpuPerRequest(path);
  console.log(`${label.padEnd(36)} ${status}  ${(micros / 1000).toFixed(3)} ms CPU per request`);
}
