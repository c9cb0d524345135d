/**
 * The benchmark app's steps after its imports, each done twice in one process: the first time pays
 * for JavaScriptCore compiling every function the step runs for the first time, the second time
 * (a second App with the same routes, served on another port, after the first one closed) is the step's own work. What the
 * second column shows is what an App does eagerly that could be deferred; what the first adds is
 * the cost of the code the step reaches, which only running less code can cut.
 *
 *   bun run build && bun bench/startup-steps.ts        # 21 fresh processes
 *   BENCH_STARTUP_RUNS=41 bun bench/startup-steps.ts
 *
 * Each child is a fresh `bun` importing the built package (`charter`, `charter/bun`: the repository's
 * workspace link to packages/charter, so run `bun run build` first) and zod, then times with
 * `process.cpuUsage()` (user + system CPU of the process: Bun's other threads included, so a
 * garbage collection on another thread can fall into any step): `new App`, the three routes,
 * `serve()`, the first `GET /static` through `app.fetch`, and a second request. Medians in ms.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { median } from './median.ts';

const ROOT = resolve(import.meta.dir, '..');
const RUNS = Math.max(1, Math.round(Number(process.env.BENCH_STARTUP_RUNS ?? 21)));
const STEPS = ['new App', 'three routes', 'serve()', 'first GET /static', 'second GET /static'] as const;

const CHILD = `
import { App } from 'charter';
import { serve } from 'charter/bun';
import { z } from 'zod';
const Static = z.object({ message: z.string() });
const UserParams = z.object({ id: z.number().int() });
const User = z.object({ id: z.number().int(), name: z.string() });
const Echo = z.object({ name: z.string().min(1), age: z.number().int().min(0), tags: z.array(z.string()) });
const cpu = () => { const usage = process.cpuUsage(); return (usage.user + usage.system) / 1000; };
const rounds = [];
for (let round = 0; round < 2; round++) {
  const times = [];
  let last = cpu();
  const mark = () => { const now = cpu(); times.push(now - last); last = now; };
  const app = new App({ logger: false });
  mark();
  app.get('/static', { responses: { 200: { body: Static } } }, () => ({ status: 200, body: { message: 'Hello, World!' } }));
  app.get('/users/:id', { request: { params: UserParams }, responses: { 200: { body: User } } }, (ctx) => ({
    status: 200,
    body: { id: ctx.params.id, name: 'user ' + ctx.params.id },
  }));
  app.post('/echo', { request: { body: Echo }, responses: { 200: { body: Echo } } }, (ctx) => ({ status: 200, body: ctx.body }));
  mark();
  const handle = serve(app, { port: 0, hostname: '127.0.0.1', signals: false });
  await handle;
  mark();
  for (let request = 0; request < 2; request++) {
    const answer = await app.fetch(new Request('http://127.0.0.1/static'));
    await answer.arrayBuffer();
    if (answer.status !== 200) throw new Error('GET /static answered ' + answer.status);
    mark();
  }
  await handle.close();
  rounds.push(times);
}
console.log(JSON.stringify(rounds));
process.exit(0);
`;

const dir = mkdtempSync(join(ROOT, 'bench', '.startup-steps-'));
const script = join(dir, 'app.mjs');
writeFileSync(script, CHILD);
const samples: number[][][] = [];
try {
  for (let run = 0; run <= RUNS; run++) {
    const child = Bun.spawnSync(['bun', script], { cwd: ROOT, stdout: 'pipe', stderr: 'inherit' });
    if (child.exitCode !== 0) throw new Error(`the app exited with ${child.exitCode}`);
    // The first run only warms the page cache and Bun's transpiler cache for zod.
    if (run > 0) samples.push(JSON.parse(child.stdout.toString()) as number[][]);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

const cell = (round: number, step: number) =>
  median(samples.map((rounds) => rounds[round]?.[step] ?? Number.NaN)).toFixed(2);
console.log(`${RUNS} runs, CPU ms (median):      first App | second App`);
for (const [index, step] of STEPS.entries()) {
  console.log(`  ${step.padEnd(20)} ${cell(0, index).padStart(7)} | ${cell(1, index).padStart(7)}`);
}
