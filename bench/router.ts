/**
 * Router lookup benchmark: `bun bench/router.ts`.
 * Builds routers of 10, 1,000 and 10,000 routes (a REST mix of static, param,
 * nested-param and wildcard routes) and reports the median ns per `find()`.
 */
import { Router } from '../packages/core/src/router/index.ts';
import { median } from './median.ts';

const SIZES = [10, 1_000, 10_000] as const;
const WARMUP = 200_000;
const ROUNDS = 9;
const ITERATIONS = 300_000;

/** Ten routes per resource, so N routes = N / 10 resources. */
function resourceRoutes(r: number): Array<[string, string]> {
  const base = `/api/res${r}`;
  return [
    ['GET', base],
    ['POST', base],
    ['GET', `${base}/search`],
    ['GET', `${base}/:id`],
    ['PUT', `${base}/:id`],
    ['DELETE', `${base}/:id`],
    ['GET', `${base}/:id/comments`],
    ['GET', `${base}/:id/comments/:commentId`],
    ['GET', `${base}/:id/comments/:commentId/replies/:replyId`],
    ['GET', `/assets/res${r}/*path`],
  ];
}

function build(size: number): { router: Router<number>; last: number } {
  const router = new Router<number>();
  const resources = size / 10;
  let n = 0;
  for (let r = 0; r < resources; r++) {
    for (const [method, path] of resourceRoutes(r)) router.add(method, path, n++);
  }
  return { router, last: resources - 1 };
}

interface Case {
  name: string;
  method: string;
  /** Pathname for resource `r`, variant `i` (ids, file names). */
  path: (r: number, i: number) => string;
  kind: string;
}

const CASES: Case[] = [
  { name: 'static hit', method: 'GET', path: (r) => `/api/res${r}/search`, kind: 'found' },
  { name: '1-param hit', method: 'GET', path: (r, i) => `/api/res${r}/${10_000 + i}`, kind: 'found' },
  {
    name: '3-param hit',
    method: 'GET',
    path: (r, i) => `/api/res${r}/${i}/comments/${i * 7}/replies/${i * 3}`,
    kind: 'found',
  },
  {
    name: 'wildcard hit',
    method: 'GET',
    path: (r, i) => `/assets/res${r}/css/v${i}/main.css`,
    kind: 'found',
  },
  { name: '404 miss', method: 'GET', path: (r, i) => `/api/res${r}/${i}/likes`, kind: 'not-found' },
  { name: '405', method: 'PATCH', path: (r, i) => `/api/res${r}/${i}`, kind: 'method-not-allowed' },
];

/**
 * Each case cycles through 64 distinct pathname strings spread over the newest
 * resources, so the JIT cannot hoist a lookup out of the loop and large tables
 * are not flattered by insertion order. (Real pathnames are fresh strings whose
 * hash is not cached yet; that costs roughly one more pass over the string.)
 */
const POOL = 64;
let sink = 0;

function run(router: Router<number>, method: string, paths: readonly string[], iterations: number): number {
  const t0 = Bun.nanoseconds();
  for (let i = 0; i < iterations; i++) {
    sink += router.find(method, paths[i & (POOL - 1)] as string).kind.length;
  }
  return (Bun.nanoseconds() - t0) / iterations;
}

const results = new Map<string, number[]>();
const started = Bun.nanoseconds();
for (const size of SIZES) {
  const t0 = Bun.nanoseconds();
  const { router, last } = build(size);
  const buildMs = (Bun.nanoseconds() - t0) / 1e6;
  console.log(`built ${router.routes().length} routes in ${buildMs.toFixed(1)} ms`);
  for (const c of CASES) {
    const paths = Array.from({ length: POOL }, (_, i) => c.path(last - (i % (last + 1)), i));
    for (const path of paths) {
      const kind = router.find(c.method, path).kind;
      if (kind !== c.kind) throw new Error(`${c.name} ${c.method} ${path}: expected ${c.kind}, got ${kind}`);
    }
    run(router, c.method, paths, WARMUP);
    const samples: number[] = [];
    for (let i = 0; i < ROUNDS; i++) samples.push(run(router, c.method, paths, ITERATIONS));
    const row = results.get(c.name) ?? [];
    row.push(median(samples));
    results.set(c.name, row);
  }
}

const header = ['lookup (ns/op, median)', ...SIZES.map((s) => `${s.toLocaleString('en-US')} routes`)];
const widths = header.map((h) => h.length);
console.log(
  `\nBun ${Bun.version}, median of ${ROUNDS} rounds x ${ITERATIONS.toLocaleString('en-US')} lookups\n`,
);
console.log(`| ${header.join(' | ')} |`);
console.log(
  `|${widths.map((w, i) => (i === 0 ? `${'-'.repeat(w + 2)}` : `${'-'.repeat(w + 1)}:`)).join('|')}|`,
);
for (const [name, row] of results) {
  const cells = row.map((ns, i) => ns.toFixed(1).padStart(widths[i + 1] ?? 0));
  console.log(`| ${name.padEnd(widths[0] ?? 0)} | ${cells.join(' | ')} |`);
}
console.log(`\ntotal ${((Bun.nanoseconds() - started) / 1e9).toFixed(1)} s (sink ${sink})`);
