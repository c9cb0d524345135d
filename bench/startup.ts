/**
 * Start-up cost of the built `charter` package on Bun, as a user meets it: each child is a fresh `bun`
 * process running a file in a scratch project outside the repository, whose `node_modules/charter` holds
 * a copy of packages/charter's package.json and dist (so `import 'charter'` resolves through the
 * package's exports map to the built files, as after `npm install charter`; a copy, so that a rebuild in
 * the checkout during the run cannot change or remove what is measured).
 *
 *   bun run build && bun bench/startup.ts      # ~2 min on a busy 2-core machine
 *   BENCH_STARTUP_RUNS=41 bun bench/startup.ts
 *   bun bench/startup.ts --arktype             # also: arktype alone and the app with arktype schemas
 *   bun bench/startup.ts --chunks              # also: the cost of importing each dist file on its own
 *   bun bench/startup.ts --esm                 # also: the ESM build, which Bun loads with --conditions=module
 *   bun bench/startup.ts --compare=<dist dir>[,<dist dir>...]  # also: the charter rows for other builds, interleaved
 *   CHARTER_DIST=<dist dir> bun bench/startup.ts   # measure another build instead of packages/charter/dist
 *   bun bench/startup.ts --instructions        # instructions counted by valgrind instead of timed (see below)
 *
 * Scenarios, each spawned BENCH_STARTUP_RUNS times (default 21), round-robin so that drift in the machine's
 * load falls on all alike, after one unmeasured round (page cache, Bun's transpiler cache):
 *   - empty:    an empty script (Bun's own start-up and exit);
 *   - import 'charter': `import 'charter'` and exit;
 *   - import 'charter', no transpiler cache: the same with BUN_RUNTIME_TRANSPILER_CACHE_PATH=0, which is
 *               what the first start in a fresh container, CI job or serverless instance pays (Bun caches
 *               its transpiled copy of large files under ~/.bun; files that start with the `// @bun`
 *               pragma are not transpiled at all, so for them both rows should agree);
 *   - import 'zod': `import 'zod'` and exit (what the validator alone costs the app);
 *   - app (zod), first 200: the benchmark app (`new App({ logger: false })` with `GET /static`,
 *               `GET /users/:id` and `POST /echo`, zod schemas on params, body and every 200 response,
 *               served by `serve()` from `charter/bun`) until its first 200 on `GET /static`. The parent
 *               polls with `fetch` every millisecond from the moment of the spawn; the child is killed
 *               right after that answer;
 *   - app (zod), first 200, no transpiler cache: the same, cold;
 *   - floor (zod, raw Bun.serve), first 200: what any zod app pays before its first answer, with no
 *               framework: zod imported, the app's four schemas built, raw \`Bun.serve\` answering
 *               \`GET /static\` with the body checked by its zod schema (its first validation runs zod's
 *               own first-use work), 404 elsewhere. Charter's row minus this one is Charter's share.
 *
 * For each: the median and minimum of the wall time from spawn to exit (to the first 200 for the apps),
 * and of the child's CPU time (user + system of all its threads, from wait4's rusage: Bun.spawn's
 * `resourceUsage()`), which does not grow when other processes take the cores. "CPU over empty" is the
 * scenario's median CPU minus the empty script's. Other processes on the machine inflate wall time:
 * compare CPU.
 *
 * With --instructions, each scenario instead runs under `valgrind --tool=cachegrind --cache-sim=no`
 * BENCH_STARTUP_INSTRUCTION_RUNS times (default 3), without the transpiler cache, and the table gives the
 * instructions it executed (Bun's threads included), which do not depend on the machine's load: the
 * figure to compare two builds with on a busy machine. It leaves out what instructions do not show
 * (page faults, cache misses: what bytes cost beyond parsing them). The apps listen, then answer their
 * own `GET /static` through `app.fetch` and exit (under valgrind a parent's polling would only measure
 * valgrind), so their rows leave out the socket and Bun's HTTP parsing. JavaScriptCore's collector and JIT
 * run on the main thread there, and Bun's collection timer is off (SERIAL_JSC below), which makes the
 * import rows repeat within about 0.2 M; read the spread of the runs all the same, not one run.
 */
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { median } from './median.ts';

const ROOT = resolve(import.meta.dir, '..');
const CHARTER = join(ROOT, 'packages', 'charter');
const RUNS = Math.max(1, Math.round(Number(process.env.BENCH_STARTUP_RUNS ?? 21)));
const WITH_CHUNKS = process.argv.includes('--chunks');
const WITH_ARKTYPE = process.argv.includes('--arktype');
/**
 * Bun loads `dist/bun/` (CommonJS with bytecode) through the `bun` export condition; `--conditions=module`
 * puts the `module` condition, listed first, in play, so the same package resolves to the ESM build.
 */
const WITH_ESM = process.argv.includes('--esm');
const ESM_CONDITIONS = ['--conditions=module'];
const INSTRUCTIONS = process.argv.includes('--instructions');
const INSTRUCTION_RUNS = Math.max(1, Math.round(Number(process.env.BENCH_STARTUP_INSTRUCTION_RUNS ?? 3)));
const COMPARE = (process.argv.find((a) => a.startsWith('--compare='))?.slice('--compare='.length) ?? '')
  .split(',')
  .filter((d) => d !== '')
  .map((d) => resolve(d));
const DIST = resolve(process.env.CHARTER_DIST || join(CHARTER, 'dist'));

for (const dist of [DIST, ...COMPARE]) {
  if (!existsSync(join(dist, 'index.js'))) {
    console.error(`${dist} has no index.js: run \`bun run build\` first`);
    process.exit(1);
  }
}

/** The package directory of a dev dependency of the monorepo (zod, arktype). */
function packageDir(name: string): string {
  return dirname(Bun.resolveSync(`${name}/package.json`, ROOT));
}

/** zod and the benchmark app's four schemas, as the app and the floor both declare them. */
const ZOD_SCHEMAS = `import { z } from 'zod';
const Static = z.object({ message: z.string() });
const UserParams = z.object({ id: z.number().int() });
const User = z.object({ id: z.number().int(), name: z.string() });
const Echo = z.object({ name: z.string().min(1), age: z.number().int().min(0), tags: z.array(z.string()) });`;

const APP = (validator: 'zod' | 'arktype'): string => `
import { App } from 'charter';
import { serve } from 'charter/bun';
${
  validator === 'zod'
    ? ZOD_SCHEMAS
    : `import { type } from 'arktype';
const Static = type({ message: 'string' });
const UserParams = type({ id: 'number.integer' });
const User = type({ id: 'number.integer', name: 'string' });
const Echo = type({ name: 'string >= 1', age: 'number.integer >= 0', tags: 'string[]' });`
}
const app = new App({ logger: false });
app.get('/static', { responses: { 200: { body: Static } } }, () => ({ status: 200, body: { message: 'Hello, World!' } }));
app.get('/users/:id', { request: { params: UserParams }, responses: { 200: { body: User } } }, (ctx) => ({
  status: 200,
  body: { id: ctx.params.id, name: 'user ' + ctx.params.id },
}));
app.post('/echo', { request: { body: Echo }, responses: { 200: { body: Echo } } }, (ctx) => ({ status: 200, body: ctx.body }));
await serve(app, { port: Number(process.argv[2]), hostname: '127.0.0.1', signals: false });
`;

/** The floor: zod and the same schemas, raw \`Bun.serve\`, the answer to \`GET /static\` checked by zod. */
const FLOOR_ZOD = `
${ZOD_SCHEMAS}
function handle(request) {
  if (new URL(request.url).pathname !== '/static') return new Response('Not Found', { status: 404 });
  const checked = Static['~standard'].validate({ message: 'Hello, World!' });
  if (checked.issues) return new Response('Internal Server Error', { status: 500 });
  return Response.json(checked.value);
}
Bun.serve({ port: Number(process.argv[2]), hostname: '127.0.0.1', fetch: handle });
`;

/**
 * Appended to a server for --instructions: once listening, it asks itself for `GET /static` through
 * `answer` (`app.fetch`, the floor's `handle`) and exits. (Over the socket, Bun 1.4.5 runs an SSE4.2
 * string instruction that valgrind 3.19 cannot execute, and the child dies of SIGILL.)
 */
const selfRequest = (answer: string): string => `
const answer = await ${answer}(new Request('http://127.0.0.1:' + process.argv[2] + '/static'));
await answer.arrayBuffer();
if (answer.status !== 200) throw new Error('GET /static answered ' + answer.status);
process.exit(0);
`;

/** A scratch project with `charter` (package.json and a copy of `dist`), zod (and arktype) and one file per scenario. */
function scratchProject(dist: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'charter-startup-'));
  const modules = join(dir, 'node_modules');
  const charter = join(modules, 'charter');
  mkdirSync(charter, { recursive: true });
  cpSync(join(CHARTER, 'package.json'), join(charter, 'package.json'));
  cpSync(dist, join(charter, 'dist'), { recursive: true });
  // Linked: their own dependencies (arktype's @ark/*) resolve from their real place in the monorepo.
  symlinkSync(packageDir('zod'), join(modules, 'zod'), 'dir');
  if (WITH_ARKTYPE) symlinkSync(packageDir('arktype'), join(modules, 'arktype'), 'dir');
  writeFileSync(join(dir, 'package.json'), '{ "type": "module", "private": true }\n');
  writeFileSync(join(dir, 'empty.mjs'), '\n');
  writeFileSync(join(dir, 'import.mjs'), "import 'charter';\n");
  writeFileSync(join(dir, 'zod.mjs'), "import 'zod';\n");
  writeFileSync(join(dir, 'app-zod.mjs'), APP('zod'));
  writeFileSync(join(dir, 'app-zod-self.mjs'), APP('zod') + selfRequest('app.fetch'));
  writeFileSync(join(dir, 'floor-zod.mjs'), FLOOR_ZOD);
  writeFileSync(join(dir, 'floor-zod-self.mjs'), FLOOR_ZOD + selfRequest('handle'));
  if (WITH_ARKTYPE) {
    writeFileSync(join(dir, 'arktype.mjs'), "import 'arktype';\n");
    writeFileSync(join(dir, 'app-arktype.mjs'), APP('arktype'));
    writeFileSync(join(dir, 'app-arktype-self.mjs'), APP('arktype') + selfRequest('app.fetch'));
  }
  if (WITH_CHUNKS) {
    for (const file of readdirSync(join(charter, 'dist')).filter((f) => f.endsWith('.js'))) {
      writeFileSync(
        join(dir, `dist-${file.replace(/\.js$/, '.mjs')}`),
        `import './node_modules/charter/dist/${file}';\n`,
      );
    }
  }
  return dir;
}

interface Sample {
  wallMs: number;
  cpuMs: number;
}

/** What Bun does on a machine that has never run the files: no transpiler cache to read or write. */
const NO_CACHE = { BUN_RUNTIME_TRANSPILER_CACHE_PATH: '0' };

/**
 * What makes the --instructions counts repeat: JavaScriptCore's garbage collector and JIT compilers run
 * on threads of their own, and Bun starts collections from a timer, so how much of their work falls
 * before the exit depends on the clock and the other threads. The same build's `import 'charter'`
 * moved by 2.2 M instructions over 5 runs (115.03-117.23 M); with the collector and JIT on the main
 * thread and Bun's collection timer off, by 0.18 M over 7 runs (114.80-114.98 M, issue 18 item 4):
 * enough to tell a cut of 1-2 KB of the root (about 0.15 M per KB at ~145 instructions per byte) from
 * noise. Every build of a comparison runs alike; `BENCH_STARTUP_CONCURRENT=1` keeps Bun's defaults.
 */
const SERIAL_JSC: Record<string, string> =
  process.env.BENCH_STARTUP_CONCURRENT === '1'
    ? {}
    : { BUN_JSC_useConcurrentGC: '0', BUN_JSC_useConcurrentJIT: '0', BUN_GC_TIMER_DISABLE: '1' };

function cpuMsOf(proc: Bun.Subprocess): number {
  const usage = proc.resourceUsage();
  if (!usage) throw new Error('no resource usage for an exited child');
  return Number(usage.cpuTime.user + usage.cpuTime.system) / 1000;
}

/** Spawns `bun <file>` and waits for it to exit. */
async function runToExit(
  dir: string,
  file: string,
  env: Record<string, string>,
  flags: string[] = [],
): Promise<Sample> {
  const started = performance.now();
  const proc = Bun.spawn([process.execPath, ...flags, file], {
    cwd: dir,
    env: { ...process.env, ...env },
    stdout: 'ignore',
    stderr: 'pipe',
  });
  const code = await proc.exited;
  const wallMs = performance.now() - started;
  if (code !== 0) throw new Error(`${file} exited with ${code}:\n${await new Response(proc.stderr).text()}`);
  return { wallMs, cpuMs: cpuMsOf(proc) };
}

function freePort(): number {
  const listener = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {} } });
  const port = listener.port;
  listener.stop(true);
  return port;
}

/** Spawns the app and polls `GET /static` until the first 200; the child is then killed. */
async function runToFirst200(
  dir: string,
  file: string,
  env: Record<string, string>,
  flags: string[] = [],
): Promise<Sample> {
  const port = freePort();
  const url = `http://127.0.0.1:${port}/static`;
  const started = performance.now();
  const proc = Bun.spawn([process.execPath, ...flags, file, String(port)], {
    cwd: dir,
    env: { ...process.env, ...env },
    stdout: 'ignore',
    stderr: 'pipe',
  });
  const stderr = new Response(proc.stderr).text();
  try {
    for (;;) {
      let status: number | undefined;
      try {
        const response = await fetch(url, { headers: { connection: 'close' } });
        await response.arrayBuffer();
        status = response.status;
      } catch {
        // Not listening yet.
      }
      if (status === 200) {
        const wallMs = performance.now() - started;
        proc.kill('SIGKILL');
        await proc.exited;
        return { wallMs, cpuMs: cpuMsOf(proc) };
      }
      if (status !== undefined) throw new Error(`${file}: GET /static answered ${status}`);
      if (proc.exitCode !== null) throw new Error(`${file} exited before its first 200:\n${await stderr}`);
      if (performance.now() - started > 20_000) throw new Error(`${file}: no 200 within 20 s of spawn`);
      await Bun.sleep(1);
    }
  } finally {
    if (proc.exitCode === null) proc.kill('SIGKILL');
  }
}

interface Scenario {
  name: string;
  dir: string;
  file: string;
  env: Record<string, string>;
  /** Flags for `bun` before the file (`--conditions=module`). */
  flags?: string[];
  run: (dir: string, file: string, env: Record<string, string>, flags?: string[]) => Promise<Sample>;
}

const dir = scratchProject(DIST);
/** Each compared build in its own project, labelled by its directory (the parent's name for a `dist`). */
const compared = COMPARE.map((dist) => ({
  dir: scratchProject(dist),
  label: ` [${basename(dist) === 'dist' ? basename(dirname(dist)) : basename(dist)}]`,
  dist,
}));

/** The rows that depend on the charter build, for the project in `at`. */
function charterScenarios(at: string, suffix: string): Scenario[] {
  const rows: Scenario[] = [
    { name: `import 'charter'${suffix}`, dir: at, file: 'import.mjs', env: {}, run: runToExit },
    {
      name: `import 'charter', no transpiler cache${suffix}`,
      dir: at,
      file: 'import.mjs',
      env: NO_CACHE,
      run: runToExit,
    },
    { name: `app (zod), first 200${suffix}`, dir: at, file: 'app-zod.mjs', env: {}, run: runToFirst200 },
    {
      name: `app (zod), first 200, no transpiler cache${suffix}`,
      dir: at,
      file: 'app-zod.mjs',
      env: NO_CACHE,
      run: runToFirst200,
    },
  ];
  if (WITH_ARKTYPE) {
    rows.push({
      name: `app (arktype), first 200${suffix}`,
      dir: at,
      file: 'app-arktype.mjs',
      env: {},
      run: runToFirst200,
    });
  }
  if (WITH_ESM) {
    rows.push(
      {
        name: `import 'charter', ESM build${suffix}`,
        dir: at,
        file: 'import.mjs',
        env: {},
        flags: ESM_CONDITIONS,
        run: runToExit,
      },
      {
        name: `app (zod), first 200, ESM build${suffix}`,
        dir: at,
        file: 'app-zod.mjs',
        env: {},
        flags: ESM_CONDITIONS,
        run: runToFirst200,
      },
    );
  }
  return rows;
}

const FLOOR_NAME = 'floor (zod, raw Bun.serve), first 200';

const scenarios: Scenario[] = [
  { name: 'empty', dir, file: 'empty.mjs', env: {}, run: runToExit },
  ...charterScenarios(dir, ''),
  ...compared.flatMap((c) => charterScenarios(c.dir, c.label)),
  { name: "import 'zod'", dir, file: 'zod.mjs', env: {}, run: runToExit },
  { name: FLOOR_NAME, dir, file: 'floor-zod.mjs', env: {}, run: runToFirst200 },
];
if (WITH_ARKTYPE)
  scenarios.push({ name: "import 'arktype'", dir, file: 'arktype.mjs', env: {}, run: runToExit });
if (WITH_CHUNKS) {
  for (const file of readdirSync(dir).filter((f) => f.startsWith('dist-'))) {
    const name = `import dist/${file.slice('dist-'.length).replace(/\.mjs$/, '.js')}`;
    scenarios.push({ name, dir, file, env: {}, run: runToExit });
  }
}

function tableHeader(): string {
  const what = [`charter from ${DIST}`, ...compared.map((c) => `${c.label.trim()}: ${c.dist}`)].join('; ');
  return `Bun ${Bun.version}, ${INSTRUCTIONS ? `${INSTRUCTION_RUNS} runs per scenario under valgrind, no transpiler cache` : `${RUNS} runs per scenario`}, interleaved, ${new Date().toISOString().slice(0, 10)}; ${what}\n`;
}

/** Prints a Markdown table, the first column left-aligned. */
function printTable(header: string[], rows: string[][]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] as string).length)));
  const line = (cells: string[]): string =>
    `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] as number) : c.padStart(widths[i] as number))).join(' | ')} |`;
  console.log(line(header));
  console.log(`| ${widths.map((w, i) => (i === 0 ? '-'.repeat(w) : `${'-'.repeat(w - 1)}:`)).join(' | ')} |`);
  for (const r of rows) console.log(line(r));
}

/** Times every scenario (spawn to exit or to the first 200), interleaved, and prints the table. */
async function printTimeTable(): Promise<void> {
  for (const s of scenarios) await s.run(s.dir, s.file, s.env, s.flags);
  const samples = new Map<string, Sample[]>(scenarios.map((s) => [s.name, []]));
  for (let i = 0; i < RUNS; i++) {
    for (const s of scenarios) samples.get(s.name)?.push(await s.run(s.dir, s.file, s.env, s.flags));
  }
  const emptyCpu = median((samples.get('empty') ?? []).map((x) => x.cpuMs));
  const fmt = (n: number): string => n.toFixed(1);
  const rows = scenarios.map((s) => {
    const list = samples.get(s.name) ?? [];
    const wall = list.map((x) => x.wallMs);
    const cpu = list.map((x) => x.cpuMs);
    const cpuMedian = median(cpu);
    return [
      s.name,
      fmt(median(wall)),
      fmt(Math.min(...wall)),
      fmt(cpuMedian),
      fmt(Math.min(...cpu)),
      s.name === 'empty' ? '' : fmt(cpuMedian - emptyCpu),
    ];
  });
  console.log(tableHeader());
  printTable(
    ['scenario', 'wall ms (median)', 'wall min', 'CPU ms (median)', 'CPU min', 'CPU over empty'],
    rows,
  );
}

const VALGRIND = INSTRUCTIONS ? Bun.which('valgrind') : null;
if (INSTRUCTIONS && VALGRIND === null) {
  console.error('--instructions needs valgrind on the PATH');
  process.exit(1);
}

/** Instructions one run of `bun <file>` executes under cachegrind, without the transpiler cache. */
async function countInstructions(at: string, file: string, flags: string[] = []): Promise<number> {
  const proc = Bun.spawn(
    [
      VALGRIND as string,
      '--tool=cachegrind',
      '--cache-sim=no',
      '--cachegrind-out-file=/dev/null',
      process.execPath,
      ...flags,
      file,
      String(freePort()),
    ],
    { cwd: at, env: { ...process.env, ...NO_CACHE, ...SERIAL_JSC }, stdout: 'ignore', stderr: 'pipe' },
  );
  const [stderr, code] = await Promise.all([new Response(proc.stderr).text(), proc.exited]);
  const refs = /I\s+refs:\s+([\d,]+)/.exec(stderr);
  if (code !== 0 || !refs) throw new Error(`${file} under valgrind exited with ${code}:\n${stderr}`);
  return Number((refs[1] as string).replaceAll(',', ''));
}

/** Counts every scenario's instructions, interleaved, and prints the table (millions). */
async function printInstructionTable(): Promise<void> {
  type Row = { name: string; at: string; file: string; flags?: string[] };
  const rowsOf = (at: string, suffix: string): Row[] => [
    { name: `import 'charter'${suffix}`, at, file: 'import.mjs' },
    { name: `app (zod), first 200${suffix}`, at, file: 'app-zod-self.mjs' },
    ...(WITH_ARKTYPE
      ? [{ name: `app (arktype), first 200${suffix}`, at, file: 'app-arktype-self.mjs' }]
      : []),
    ...(WITH_ESM
      ? [
          { name: `import 'charter', ESM build${suffix}`, at, file: 'import.mjs', flags: ESM_CONDITIONS },
          {
            name: `app (zod), first 200, ESM build${suffix}`,
            at,
            file: 'app-zod-self.mjs',
            flags: ESM_CONDITIONS,
          },
        ]
      : []),
  ];
  const list: Row[] = [
    { name: 'empty', at: dir, file: 'empty.mjs' },
    ...rowsOf(dir, ''),
    ...compared.flatMap((c) => rowsOf(c.dir, c.label)),
    { name: "import 'zod'", at: dir, file: 'zod.mjs' },
    { name: FLOOR_NAME, at: dir, file: 'floor-zod-self.mjs' },
    ...(WITH_ARKTYPE ? [{ name: "import 'arktype'", at: dir, file: 'arktype.mjs' }] : []),
  ];
  const counts = new Map<string, number[]>(list.map((s) => [s.name, []]));
  for (let i = 0; i < INSTRUCTION_RUNS; i++) {
    for (const s of list) counts.get(s.name)?.push(await countInstructions(s.at, s.file, s.flags));
  }
  const millions = (n: number): string => (n / 1e6).toFixed(1);
  const empty = median(counts.get('empty') ?? []);
  const rows = list.map((s) => {
    const runs = counts.get(s.name) ?? [];
    const m = median(runs);
    return [
      s.name,
      millions(m),
      millions(Math.min(...runs)),
      millions(Math.max(...runs)),
      s.name === 'empty' ? '' : millions(m - empty),
    ];
  });
  console.log(tableHeader());
  printTable(['scenario', 'M instructions (median)', 'min', 'max', 'over empty'], rows);
}

try {
  if (INSTRUCTIONS) await printInstructionTable();
  else await printTimeTable();
} finally {
  rmSync(dir, { recursive: true, force: true });
  for (const c of compared) rmSync(c.dir, { recursive: true, force: true });
}
