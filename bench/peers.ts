/**
 * Charter against its peers, in one run: `bun bench/peers.ts`.
 *
 * Servers (bench/peers/, each in its own process, NODE_ENV=production): raw `Bun.serve` (fetch handler
 * and routes table), Elysia, Hono and Charter (through `app.fetch` and `charter/bun`, zod and arktype) on
 * Bun; raw `node:http`, Fastify, Hono (`@hono/node-server`) and Charter (`charter/node`, zod and arktype)
 * on Node 24. Every server answers the same four routes: `GET /static`, `GET /users/:id`, `POST /echo`
 * and a 404. The run:
 *   1. builds the `charter` package when its dist is missing or older than the sources, and snapshots it;
 *   2. cold starts: spawn to first 200 on `GET /static`, BENCH_COLD_STARTS times per server, interleaved;
 *   3. starts every server once and checks its answers (statuses, JSON bodies, 400/422 for bad input);
 *   4. warms every server up on every route once, then BENCH_ROUNDS rounds; in each, per route and runtime,
 *      a chain of measured wrk runs raw, X1, raw, X2, ..., Xn, raw (wrk pinned to core 0, the server to
 *      core 1, with taskset), so each peer run has a raw run of its route just before and after it;
 *   5. prints per server and route the server CPU time per request, its ratio to the same runtime's raw
 *      server (the median over rounds of the pair ratios, raw around it / this: higher is better, 1.00 =
 *      as cheap as raw) with the lowest and highest pair ratio, req/s, p99 latency, peak RSS and cold
 *      start, with a geomean over the routes; writes bench/results/peers.json (every run included).
 *
 * Env: BENCH_SCHEDULE (paired | shuffled: the earlier unpaired schedule), BENCH_AA (1: a second raw
 * server per runtime measured as a peer, the method's error), BENCH_SECONDS (measured seconds per run,
 * default 1; shuffled 3), BENCH_WARMUP_SECONDS (default 1), BENCH_ROUNDS (default 5; shuffled 3),
 * BENCH_CONNECTIONS (default 32), BENCH_COLD_STARTS (default 7),
 * BENCH_SERVERS (ids to run, comma-separated; each runtime's raw server is always added),
 * BENCH_RUNTIMES (bun,node), BENCH_PIN (0: no taskset), BENCH_SEED (shuffle seed), BENCH_CONTENDED
 * (share of the server's core used by others above which a run is measured again, default 0.1),
 * BENCH_RETRIES (default 1), BENCH_QUIET_WAIT_SECONDS (wait for quiet cores before each run, at most,
 * default 5; 0: never),
 * BENCH_BUILD (auto | 1: always | 0: never build the charter package), BENCH_CHARTER_DIST (another
 * build's dist directory to load Charter from), BENCH_CHARTER_DIST_B (a second build whose Charter servers
 * run beside the first's, ids suffixed `@b`: an A/B in one run), BENCH_LOADER=bun (no wrk), BENCH_ROUTES
 * (route ids to measure: static, param, post, notFound; all by default).
 */
import { spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { type LoadResult, type LoadTarget, loadTool, runLoad } from './load.ts';
import { median } from './median.ts';
import {
  AA,
  ALL_ROUTES,
  BAD_REQUESTS,
  ROUTES,
  type Route,
  type Runtime,
  type ServerDef,
  selectedServers,
} from './peers-catalog.ts';
import { machine, versions } from './peers-environment.ts';
import { geomean, geomeanSpread, type ServerSummary, summarise, tables } from './peers-report.ts';
import { node24 } from './peers/node24.ts';
import { CLK_TCK, coreMicros, cpuMicros, preciseCpuMicros, statusKb } from './support/proc.ts';
import { random, shuffle } from './support/seeded-order.ts';
import { drain, readyPort, stopProcess } from './support/server-process.ts';

// ---------------------------------------------------------------------------------------------
// Settings

function envNumber(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} must be a positive number, got ${raw}`);
  return n;
}

/**
 * BENCH_SCHEDULE: `paired` (default) measures every server on a route between two runs of its runtime's
 * raw server on the same route (raw, X1, raw, X2, ..., raw), and each ratio is the median over the rounds
 * of raw-around-it / X: the host's drift (this VM's speed moves by tens of percent over minutes) falls on
 * both sides of each pair alike and cancels. `shuffled` is the earlier schedule, kept to compare methods:
 * every (server, route) in a shuffled order per round, each with its own warm-up, ratio = median / median.
 */
const SCHEDULE = process.env.BENCH_SCHEDULE === 'shuffled' ? 'shuffled' : 'paired';
// wrk takes whole seconds.
const MEASURE_SECONDS = Math.max(1, Math.round(envNumber('BENCH_SECONDS', SCHEDULE === 'paired' ? 1 : 3)));
const WARMUP_SECONDS = Math.max(1, Math.round(envNumber('BENCH_WARMUP_SECONDS', 1)));
const ROUNDS = Math.round(envNumber('BENCH_ROUNDS', SCHEDULE === 'paired' ? 5 : 3));
const CONNECTIONS = Math.round(envNumber('BENCH_CONNECTIONS', 32));
const COLD_STARTS = Math.round(envNumber('BENCH_COLD_STARTS', 7));
const SEED = Math.round(envNumber('BENCH_SEED', Date.now() % 1_000_000_007));
const BUILD = process.env.BENCH_BUILD ?? 'auto';
/**
 * A measured run during which other processes used more than this share of the server's core is
 * contended: it is measured again (after waiting for quiet cores), up to BENCH_RETRIES more times, and the least
 * contended attempt is kept. A starved server handles fewer requests per wake-up, so contention raises
 * even its CPU per request.
 */
const CONTENDED = envNumber('BENCH_CONTENDED', 0.1);
const RETRIES = Math.round(envNumber('BENCH_RETRIES', 1));
/** Before each run, wait up to this many seconds for both cores to be quiet (below BENCH_CONTENDED). */
const QUIET_WAIT_SECONDS = Number(process.env.BENCH_QUIET_WAIT_SECONDS || 5);

const BENCH_DIR = import.meta.dir;
const ROOT = join(BENCH_DIR, '..');
const PEERS_DIR = join(BENCH_DIR, 'peers');
const RESULTS_FILE = join(BENCH_DIR, 'results', 'peers.json');
/** BENCH_CHARTER_DIST: another build of the package (say, of a clean checkout of a commit); never rebuilt. */
const CHARTER_DIST_OVERRIDE = process.env.BENCH_CHARTER_DIST || undefined;
const CHARTER_DIST = CHARTER_DIST_OVERRIDE ?? join(ROOT, 'packages', 'charter', 'dist');

/** wrk on core 0, the server on core 1, when taskset exists and the machine has two cores. */
const PIN =
  process.env.BENCH_PIN !== '0' && Bun.which('taskset') !== null && availableParallelism() >= 2
    ? { loader: 0, server: 1 }
    : undefined;
const pinned = (core: number | undefined): string[] =>
  core === undefined ? [] : ['taskset', '-c', String(core)];

// ---------------------------------------------------------------------------------------------
// The charter package: built when stale, then snapshotted so a rebuild mid-run changes nothing.

function newestSourceMtime(): number {
  let newest = 0;
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) {
        newest = Math.max(newest, statSync(path).mtimeMs);
      }
    }
  };
  for (const pkg of readdirSync(join(ROOT, 'packages'))) {
    const src = join(ROOT, 'packages', pkg, 'src');
    if (existsSync(src)) walk(src);
  }
  return newest;
}

function snapshotCharter(): string {
  const index = join(CHARTER_DIST, 'index.js');
  const stale =
    CHARTER_DIST_OVERRIDE === undefined &&
    (!existsSync(index) || statSync(index).mtimeMs < newestSourceMtime());
  if (CHARTER_DIST_OVERRIDE === undefined && (BUILD === '1' || (BUILD !== '0' && stale))) {
    console.log(
      `building the charter package (${existsSync(index) ? 'dist older than the sources' : 'no dist'}): bun run build`,
    );
    const build = spawnSync(process.execPath, ['run', 'build'], { cwd: ROOT, encoding: 'utf8' });
    if (build.status !== 0) throw new Error(`bun run build failed:\n${build.stdout}\n${build.stderr}`);
  } else if (stale) {
    console.log('warning: packages/charter/dist is older than the sources (BENCH_BUILD=0: not rebuilt)');
  }
  const dir = mkdtempSync(join(tmpdir(), 'charter-peers-'));
  const dist = join(dir, 'dist');
  cpSync(CHARTER_DIST, dist, {
    recursive: true,
    filter: (src) =>
      !src.includes(`${CHARTER_DIST}/types`) && !src.endsWith('.d.ts') && !src.endsWith('.map'),
  });
  writeFileSync(join(dist, 'package.json'), '{ "type": "module" }\n');
  for (const file of ['index.js', 'bun.js', 'node.js']) {
    if (!existsSync(join(dist, file)))
      throw new Error(`the charter dist has no ${file} (a build in progress?)`);
  }
  return dist;
}

// ---------------------------------------------------------------------------------------------
// Server processes

interface Running {
  def: ServerDef;
  port: number;
  pid: number;
  proc: Bun.Subprocess<'ignore', 'pipe', 'pipe'>;
}

interface Context {
  nodePath: string;
  charterDist: string;
}

function commandFor(def: ServerDef, port: number, ctx: Context): string[] {
  const runtime = def.runtime === 'bun' ? process.execPath : ctx.nodePath;
  return [...pinned(PIN?.server), runtime, join(PEERS_DIR, def.file), String(port), ...(def.args ?? [])];
}

function spawnServer(def: ServerDef, port: number, ctx: Context): Bun.Subprocess<'ignore', 'pipe', 'pipe'> {
  return Bun.spawn(commandFor(def, port, ctx), {
    cwd: ROOT,
    stdin: 'ignore',
    stdout: 'pipe',
    stderr: 'pipe',
    env: { ...process.env, NODE_ENV: 'production', CHARTER_DIST: def.dist ?? ctx.charterDist },
  });
}

async function startServer(def: ServerDef, ctx: Context): Promise<Running> {
  const proc = spawnServer(def, 0, ctx);
  return { def, port: await readyPort(proc, def.id, 20_000), pid: proc.pid, proc };
}

function stopServer(server: Running): Promise<void> {
  return stopProcess(server.proc);
}

function freePort(): number {
  const listener = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {} } });
  const port = listener.port;
  listener.stop(true);
  return port;
}

// ---------------------------------------------------------------------------------------------
// Cold start: spawn to the first 200 on GET /static.

async function coldStart(def: ServerDef, ctx: Context): Promise<number> {
  const port = freePort();
  const url = `http://127.0.0.1:${port}/static`;
  const started = performance.now();
  const proc = spawnServer(def, port, ctx);
  drain(proc.stdout);
  const stderr = new Response(proc.stderr).text();
  try {
    for (;;) {
      try {
        const response = await fetch(url, { headers: { connection: 'close' } });
        await response.arrayBuffer();
        if (response.status === 200) return performance.now() - started;
      } catch {
        // Not listening yet.
      }
      if (proc.exitCode !== null) throw new Error(`${def.id} exited during its cold start:\n${await stderr}`);
      if (performance.now() - started > 20_000) throw new Error(`${def.id}: no 200 within 20 s of spawn`);
      await Bun.sleep(1);
    }
  } finally {
    proc.kill('SIGKILL');
    await proc.exited;
  }
}

// ---------------------------------------------------------------------------------------------
// Correctness check before anything is measured.

interface Answer {
  status: number;
  contentType: string | null;
  text: string;
  headerNames: string[];
  headerBytes: number;
}

async function ask(server: Running, route: Omit<Route, 'id' | 'status'>): Promise<Answer> {
  const init: RequestInit = { method: route.method };
  if (route.headers !== undefined) init.headers = route.headers;
  if (route.body !== undefined) init.body = route.body;
  const response = await fetch(`http://127.0.0.1:${server.port}${route.path}`, init);
  const headers = [...response.headers];
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    text: await response.text(),
    headerNames: headers.map(([name]) => name).sort(),
    // As on the wire: "Name: value\r\n" per field (the status line not counted).
    headerBytes: headers.reduce((n, [name, value]) => n + name.length + value.length + 4, 0),
  };
}

function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => sameJson((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

export interface CheckRecord {
  /** Response header fields on GET /static (names), and their size on the wire. */
  staticHeaders: string[];
  staticHeaderBytes: number;
  /** Statuses of the bad requests, by label. */
  badRequests: Record<string, number>;
  notFound: { contentType: string | null; body: string };
}

async function checkServer(server: Running): Promise<CheckRecord> {
  const id = server.def.id;
  const record: CheckRecord = {
    staticHeaders: [],
    staticHeaderBytes: 0,
    badRequests: {},
    notFound: { contentType: null, body: '' },
  };
  for (const route of ALL_ROUTES) {
    const answer = await ask(server, route);
    if (answer.status !== route.status) {
      throw new Error(
        `${id} answered ${answer.status} to ${route.label}, expected ${route.status}: ${answer.text}`,
      );
    }
    if (route.json !== undefined) {
      if (!answer.contentType?.startsWith('application/json')) {
        throw new Error(`${id} answered ${route.label} with content-type ${answer.contentType}`);
      }
      let parsed: unknown;
      try {
        parsed = JSON.parse(answer.text);
      } catch {
        throw new Error(`${id} answered ${route.label} with a body that is not JSON: ${answer.text}`);
      }
      if (!sameJson(parsed, route.json)) {
        throw new Error(
          `${id} answered ${route.label} with ${answer.text}, expected ${JSON.stringify(route.json)}`,
        );
      }
    }
    if (route.id === 'static') {
      record.staticHeaders = answer.headerNames;
      record.staticHeaderBytes = answer.headerBytes;
    }
    if (route.id === 'notFound') record.notFound = { contentType: answer.contentType, body: answer.text };
  }
  for (const bad of BAD_REQUESTS) {
    const answer = await ask(server, bad);
    if (answer.status !== 400 && answer.status !== 422) {
      throw new Error(`${id} answered ${answer.status} to ${bad.label}, expected 400 or 422: ${answer.text}`);
    }
    record.badRequests[bad.label] = answer.status;
  }
  return record;
}

// ---------------------------------------------------------------------------------------------
// Measurement

export interface RunResult {
  round: number;
  /** Position in the run's sequence of measured runs (1, 2, ...): which runs were adjacent in time. */
  seq: number;
  server: string;
  route: Route['id'];
  requests: number;
  errors: number;
  seconds: number;
  requestsPerSecond: number;
  serverCpuMicros: number;
  serverCpuMicrosPerRequest: number;
  /** Server CPU time over wall time: 1.0 is one core busy for the whole run. */
  serverCores: number;
  /** Share of the server's core used by other processes during the run (pinned runs only). */
  otherLoadOnServerCore?: number;
  /** How long the run waited for quiet cores before its warm-up (BENCH_QUIET_WAIT_SECONDS). */
  quietWaitMs: number;
  /** Measured runs made for this sample (more than 1 when contended ones were measured again). */
  attempts?: number;
  p50Micros?: number;
  p99Micros?: number;
  /** `schedstat`: per-thread ns counters; `stat`: clock ticks (when schedstat is missing or disagrees). */
  cpuSource: 'schedstat' | 'stat';
  /**
   * Paired schedule, peers only: the mean CPU/req of the raw server's runs on the same route right
   * before and right after this one, and that over this run's CPU/req (the pair's ratio).
   */
  rawCpuMicrosPerRequest?: number;
  pairRatio?: number;
}

function targetFor(server: Running, route: Route): LoadTarget {
  const target: LoadTarget = {
    method: route.method,
    url: `http://127.0.0.1:${server.port}${route.path}`,
    expectedStatus: route.status,
  };
  if (route.headers !== undefined) target.headers = route.headers;
  if (route.body !== undefined) target.body = route.body;
  return target;
}

/** Waits, up to QUIET_WAIT_SECONDS, until other processes leave both pinned cores mostly idle; ms waited. */
async function waitForQuiet(): Promise<number> {
  if (PIN === undefined || !(QUIET_WAIT_SECONDS > 0)) return 0;
  const started = performance.now();
  const cores = [PIN.loader, PIN.server];
  while (performance.now() - started < QUIET_WAIT_SECONDS * 1000) {
    const before = cores.map(coreMicros);
    await Bun.sleep(250);
    const after = cores.map(coreMicros);
    let busy = 0;
    let total = 0;
    for (const [i, a] of after.entries()) {
      busy += a.busy - (before[i]?.busy ?? 0);
      total += a.total - (before[i]?.total ?? 0);
    }
    if (total > 0 && busy / total < CONTENDED) break;
  }
  return performance.now() - started;
}

async function warmUp(server: Running, route: Route): Promise<void> {
  await runLoad(targetFor(server, route), {
    seconds: WARMUP_SECONDS,
    connections: CONNECTIONS,
    prefix: pinned(PIN?.loader),
  });
}

let sequence = 0;

async function measure(server: Running, route: Route, round: number, quiet = true): Promise<RunResult> {
  const target = targetFor(server, route);
  const prefix = pinned(PIN?.loader);
  const quietWaitMs = quiet ? await waitForQuiet() : 0;
  // The paired schedule warms every (server, route) once before the rounds instead (see runPeersBench).
  if (SCHEDULE === 'shuffled') await warmUp(server, route);
  const coreBefore = PIN === undefined ? undefined : coreMicros(PIN.server);
  const ticksBefore = cpuMicros(server.pid);
  const preciseBefore = preciseCpuMicros(server.pid);
  const load: LoadResult = await runLoad(target, {
    seconds: MEASURE_SECONDS,
    connections: CONNECTIONS,
    prefix,
  });
  const ticks = cpuMicros(server.pid) - ticksBefore;
  const preciseAfter = preciseCpuMicros(server.pid);
  const precise =
    preciseBefore === undefined || preciseAfter === undefined ? undefined : preciseAfter - preciseBefore;
  // The tick count is within two ticks of the truth; a thread that ended mid-run drops out of the
  // per-thread sum, so a sum further from the ticks than that is not trusted.
  const trusted = precise !== undefined && Math.abs(precise - ticks) <= (2 * 1e6) / CLK_TCK;
  const serverCpuMicros = trusted ? precise : ticks;
  if (load.requests === 0) throw new Error(`No completed request to ${server.def.id} ${route.label}`);
  const result: RunResult = {
    round,
    seq: ++sequence,
    cpuSource: trusted ? 'schedstat' : 'stat',
    server: server.def.id,
    route: route.id,
    requests: load.requests,
    errors: load.errors,
    seconds: load.seconds,
    requestsPerSecond: load.requestsPerSecond,
    serverCpuMicros,
    serverCpuMicrosPerRequest: serverCpuMicros / load.requests,
    serverCores: serverCpuMicros / 1e6 / load.seconds,
    quietWaitMs: Math.round(quietWaitMs),
  };
  if (coreBefore !== undefined && PIN !== undefined) {
    const after = coreMicros(PIN.server);
    const total = after.total - coreBefore.total;
    if (total > 0)
      result.otherLoadOnServerCore = Math.max(0, (after.busy - coreBefore.busy - serverCpuMicros) / total);
  }
  if (load.p50Micros !== undefined) result.p50Micros = load.p50Micros;
  if (load.p99Micros !== undefined) result.p99Micros = load.p99Micros;
  return result;
}

/**
 * A measured run, measured again while contended (up to RETRIES times, each after waiting for quiet
 * cores), the least contended kept. `quiet`: wait for quiet cores before the first attempt too.
 */
async function measureKept(server: Running, route: Route, round: number, quiet = true): Promise<RunResult> {
  let run = await measure(server, route, round, quiet);
  let attempts = 1;
  while ((run.otherLoadOnServerCore ?? 0) > CONTENDED && attempts <= RETRIES) {
    const again = await measure(server, route, round);
    attempts++;
    if ((again.otherLoadOnServerCore ?? 0) < (run.otherLoadOnServerCore ?? 0)) run = again;
  }
  run.attempts = attempts;
  return run;
}

function logRun(server: Running, route: Route, run: RunResult): void {
  const attempts = run.attempts ?? 1;
  const other =
    run.otherLoadOnServerCore === undefined
      ? ''
      : `, others ${(run.otherLoadOnServerCore * 100).toFixed(0)}% of its core`;
  console.log(
    `  round ${run.round} ${server.def.id.padEnd(21)} ${route.label.padEnd(16)} ` +
      `${Math.round(run.requestsPerSecond).toLocaleString('en-US').padStart(8)} req/s ` +
      `${run.serverCpuMicrosPerRequest.toFixed(1).padStart(6)} µs/req ` +
      `p99 ${run.p99Micros === undefined ? '-' : `${(run.p99Micros / 1000).toFixed(2)} ms`} ` +
      `(server ${run.serverCores.toFixed(2)} cores${other}, ${run.errors} errors` +
      `${attempts > 1 ? `, best of ${attempts} attempts` : ''})` +
      (run.pairRatio === undefined ? '' : ` pair ratio ${run.pairRatio.toFixed(2)}`),
  );
}

/**
 * The paired schedule. Every (server, route) is warmed up once; then, in each round, for each route (in a
 * shuffled order) and each runtime, the raw server and that runtime's peers alternate, raw first and
 * last: raw, X1, raw, X2, ..., Xn, raw (peers in a shuffled order). Each peer run is thus between two
 * raw runs of the same route a few seconds apart; its pair ratio is their mean CPU/req over its own. A
 * drift of the host's speed that is linear over those seconds cancels exactly, a slower one nearly so.
 */
async function pairedRounds(running: readonly Running[], next: () => number): Promise<RunResult[]> {
  const warmUpStarted = performance.now();
  for (const server of running) for (const route of ROUTES) await warmUp(server, route);
  console.log(
    `warm-up: every server on every route for ${WARMUP_SECONDS} s (${((performance.now() - warmUpStarted) / 1000).toFixed(0)} s)`,
  );
  const runs: RunResult[] = [];
  const raws = running.filter((s) => s.def.raw === true);
  for (let round = 1; round <= ROUNDS; round++) {
    for (const route of shuffle(ROUTES, next)) {
      for (const raw of raws) {
        const peers = running.filter((s) => s.def.runtime === raw.def.runtime && s.def.raw !== true);
        let before = await measureKept(raw, route, round);
        logRun(raw, route, before);
        runs.push(before);
        // Only the chain's first run waits for quiet cores (a wait costs at least 250 ms): the runs of a
        // chain follow each other without gaps, and a contended one is measured again after a wait.
        for (const peer of shuffle(peers, next)) {
          const run = await measureKept(peer, route, round, false);
          const after = await measureKept(raw, route, round, false);
          run.rawCpuMicrosPerRequest =
            (before.serverCpuMicrosPerRequest + after.serverCpuMicrosPerRequest) / 2;
          run.pairRatio = run.rawCpuMicrosPerRequest / run.serverCpuMicrosPerRequest;
          // Logged once its pair ratio is known, after the raw run that follows it.
          logRun(peer, route, run);
          logRun(raw, route, after);
          runs.push(run, after);
          before = after;
        }
      }
    }
  }
  return runs;
}

// ---------------------------------------------------------------------------------------------

export async function runPeersBench(): Promise<void> {
  const started = performance.now();
  const defs = selectedServers();
  const tool = loadTool();
  const node = defs.some((d) => d.runtime === 'node') ? node24() : undefined;
  const charterDist = defs.some((d) => d.file.startsWith('charter')) ? snapshotCharter() : CHARTER_DIST;
  const ctx: Context = { nodePath: node?.path ?? 'node', charterDist };
  const info = { machine: machine(), versions: versions(node?.version, CHARTER_DIST_OVERRIDE) };
  console.log(
    `Peers benchmark: ${defs.length} servers x ${ROUTES.length} routes, ${ROUNDS} rounds, ` +
      (SCHEDULE === 'paired'
        ? `paired (raw, X1, raw, X2, ..., raw per route), ${WARMUP_SECONDS} s warm-up per server and route once, ${MEASURE_SECONDS} s measured runs, `
        : `shuffled, ${WARMUP_SECONDS} s warm-up + ${MEASURE_SECONDS} s measured per run, `) +
      `${CONNECTIONS} connections, ` +
      `${tool === 'wrk' ? 'wrk (1 thread)' : 'Bun fetch client'}, ` +
      `${PIN === undefined ? 'no pinning' : `wrk on core ${PIN.loader}, server on core ${PIN.server} (taskset)`}, seed ${SEED}`,
  );
  console.log(`machine: ${JSON.stringify(info.machine)}`);
  console.log(`versions: ${JSON.stringify(info.versions)}`);

  const running: Running[] = [];
  const onSignal = (): void => {
    for (const server of running) server.proc.kill('SIGKILL');
    process.exit(130);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    // Cold starts first, each spawn alone on the machine (no server of this run is listening yet).
    const cold = new Map<string, number[]>(defs.map((d) => [d.id, []]));
    for (let i = 0; i < COLD_STARTS; i++) {
      const shift = i % defs.length;
      for (const def of [...defs.slice(shift), ...defs.slice(0, shift)]) {
        await waitForQuiet();
        cold.get(def.id)?.push(await coldStart(def, ctx));
      }
    }
    console.log(
      `cold start (spawn to first 200, median of ${COLD_STARTS}): ` +
        defs.map((d) => `${d.id} ${Math.round(median(cold.get(d.id) ?? []))} ms`).join(', '),
    );

    for (const def of defs) running.push(await startServer(def, ctx));
    const checks = new Map<string, CheckRecord>();
    for (const server of running) checks.set(server.def.id, await checkServer(server));
    console.log('every server answers every route as expected; response header fields on GET /static:');
    for (const [id, check] of checks) {
      console.log(
        `  ${id.padEnd(21)} ${String(check.staticHeaders.length).padStart(2)} fields, ${String(check.staticHeaderBytes).padStart(4)} bytes`,
      );
    }

    const next = random(SEED);
    const runs: RunResult[] = SCHEDULE === 'paired' ? await pairedRounds(running, next) : [];
    if (SCHEDULE === 'shuffled') {
      const pairs = running.flatMap((server) => ROUTES.map((route) => ({ server, route })));
      for (let round = 1; round <= ROUNDS; round++) {
        for (const { server, route } of shuffle(pairs, next)) {
          const run = await measureKept(server, route, round);
          logRun(server, route, run);
          runs.push(run);
        }
      }
    }

    const peakRss = new Map(running.map((s) => [s.def.id, statusKb(s.pid, 'VmHWM') / 1024]));
    const cells = summarise(defs, runs, ROUTES);
    const servers: ServerSummary[] = defs.map((def) => {
      const samples = cold.get(def.id) ?? [];
      const spread = geomeanSpread(runs, def.id, ROUTES);
      return {
        id: def.id,
        label: def.label,
        runtime: def.runtime,
        geomean: geomean(cells.filter((c) => c.server === def.id).map((c) => c.ratioToRaw)),
        ...(spread === undefined ? {} : { geomeanSpread: spread }),
        peakRssMB: peakRss.get(def.id) ?? Number.NaN,
        coldStartMs: { median: median(samples), samples },
        check: checks.get(def.id) as CheckRecord,
      };
    });
    console.log(`\n${tables(defs, cells, servers, ROUTES)}\n`);
    const contended = runs.filter((r) => (r.otherLoadOnServerCore ?? 0) > CONTENDED).length;
    console.log(
      'CPU/req, req/s and p99 are medians of the rounds; CPU is the server process (all its threads: ' +
        'schedstat ns, else utime + stime ticks, from /proc), over the requests it completed. ' +
        (SCHEDULE === 'paired'
          ? 'Ratio: median over the rounds of the pair ratios (the raw runs just before and after / this run); ' +
            'in parentheses the lowest and highest pair ratio (geomean: of the per-round geomeans). '
          : 'Ratio: median raw CPU/req over median CPU/req. ') +
        'Peak RSS: VmHWM after all rounds. Cold start: ' +
        `spawn to first 200, median of ${COLD_STARTS}. ${contended} of ${runs.length} samples had other ` +
        `processes on the server's core more than ${Math.round(CONTENDED * 100)}% of the time, after up to ` +
        `${RETRIES} retries each.`,
    );
    mkdirSync(join(BENCH_DIR, 'results'), { recursive: true });
    writeFileSync(
      RESULTS_FILE,
      `${JSON.stringify(
        {
          date: new Date().toISOString(),
          ...info,
          loadAverageAtEnd: loadavg()[0]?.toFixed(2),
          settings: {
            schedule: SCHEDULE,
            aa: AA,
            loadGenerator: tool,
            connections: CONNECTIONS,
            warmupSeconds: WARMUP_SECONDS,
            measureSeconds: MEASURE_SECONDS,
            rounds: ROUNDS,
            coldStarts: COLD_STARTS,
            seed: SEED,
            contendedAbove: CONTENDED,
            retries: RETRIES,
            quietWaitSeconds: QUIET_WAIT_SECONDS,
            pinning: PIN ?? null,
            clockTicksPerSecond: CLK_TCK,
          },
          routes: ROUTES.map(({ id, label, method, path, status }) => ({ id, label, method, path, status })),
          servers,
          cells,
          runs,
        },
        null,
        2,
      )}\n`,
    );
    console.log(`wrote ${RESULTS_FILE} (${((performance.now() - started) / 1000).toFixed(0)} s)`);
  } finally {
    await Promise.all(running.map(stopServer));
    if (charterDist !== CHARTER_DIST) rmSync(join(charterDist, '..'), { recursive: true, force: true });
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

if (import.meta.main) {
  try {
    await runPeersBench();
  } catch (error) {
    console.error(error);
    process.exitCode = 1;
  }
}
