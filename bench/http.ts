/**
 * End-to-end HTTP benchmark: `bun bench/http.ts`.
 * Starts the Charter, plain and plain-same servers (bench/apps.ts) in their own processes, checks they
 * answer alike (plain-same also with the same headers as Charter), then for ROUNDS rounds x each scenario
 * x each server (order rotating): warm-up, then a measured run. Reports requests/s and server CPU µs per
 * request (medians) and the ratios of Charter to each plain server; writes bench/results/http.json.
 *
 * Env: BENCH_SECONDS (measured seconds per run, default 5), BENCH_WARMUP_SECONDS (default 2),
 * BENCH_ROUNDS (default 3), BENCH_CONNECTIONS (default 32), BENCH_LOADER=bun (skip wrk).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { type LoadResult, type LoadTarget, loadTool, runLoad } from './load.ts';
import { median } from './median.ts';
import { CLK_TCK, cpuMicros } from './support/proc.ts';
import { readyPort, stopProcess } from './support/server-process.ts';

type ServerKind = 'charter' | 'plain' | 'plain-same';
const SERVERS: readonly ServerKind[] = ['charter', 'plain', 'plain-same'];

interface Scenario {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
  expectedStatus: number;
}

const SCENARIOS: readonly Scenario[] = [
  { name: 'GET /health (static)', method: 'GET', path: '/health', expectedStatus: 200 },
  { name: 'GET /users/42?fields=name', method: 'GET', path: '/users/42?fields=name', expectedStatus: 200 },
  {
    name: 'POST /users (JSON body)',
    method: 'POST',
    path: '/users',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Ada Lovelace', email: 'ada@example.com' }),
    expectedStatus: 201,
  },
];

function envNumber(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} must be a positive number, got ${raw}`);
  return n;
}

const MEASURE_SECONDS = envNumber('BENCH_SECONDS', 5);
const WARMUP_SECONDS = envNumber('BENCH_WARMUP_SECONDS', 2);
const ROUNDS = Math.round(envNumber('BENCH_ROUNDS', 3));
const CONNECTIONS = Math.round(envNumber('BENCH_CONNECTIONS', 32));

const BENCH_DIR = import.meta.dir;
const RESULTS_FILE = join(BENCH_DIR, 'results', 'http.json');

// ---------------------------------------------------------------------------------------------
// Server processes

interface ServerProcess {
  kind: ServerKind;
  port: number;
  pid: number;
  proc: Bun.Subprocess<'ignore', 'pipe', 'inherit'>;
}

async function startServer(kind: ServerKind): Promise<ServerProcess> {
  const proc = Bun.spawn(['bun', join(BENCH_DIR, 'server.ts'), kind, '0'], {
    stdin: 'ignore',
    stdout: 'pipe',
    stderr: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  return { kind, port: await readyPort(proc, `${kind} server`, 15_000), pid: proc.pid, proc };
}

function stopServer(server: ServerProcess): Promise<void> {
  return stopProcess(server.proc);
}

// ---------------------------------------------------------------------------------------------
// Correctness check: both servers answer every scenario alike before anything is measured.

/** A request the check sends; its body may be bytes (invalid UTF-8). */
type Probe = Omit<Scenario, 'body'> & { body?: string | Uint8Array<ArrayBuffer> };

async function probe(
  server: ServerProcess,
  scenario: Probe,
): Promise<{ status: number; contentType: string | null; headers: string; body: string }> {
  const init: RequestInit = { method: scenario.method };
  if (scenario.headers !== undefined) init.headers = scenario.headers;
  if (scenario.body !== undefined) init.body = scenario.body;
  const response = await fetch(`http://127.0.0.1:${server.port}${scenario.path}`, init);
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    // Every header but the ones the runtime writes per response.
    headers: [...response.headers]
      .filter(([name]) => name !== 'date' && name !== 'content-length')
      .map(([name, value]) => `${name}: ${value}`)
      .join('\n'),
    body: await response.text(),
  };
}

async function checkServers(servers: readonly ServerProcess[]): Promise<void> {
  const extra: Scenario[] = [
    { name: 'unknown user', method: 'GET', path: '/users/7', expectedStatus: 404 },
    { name: 'bad id', method: 'GET', path: '/users/abc', expectedStatus: 422 },
    {
      name: 'invalid body',
      method: 'POST',
      path: '/users',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: '', email: 'nope' }),
      expectedStatus: 422,
    },
  ];
  // The guards and the strict body read that plain-same does by hand, as Charter does by default.
  const sameWork: Probe[] = [
    {
      name: 'invalid UTF-8',
      method: 'POST',
      path: '/users',
      headers: { 'content-type': 'application/json' },
      body: new Uint8Array([0x7b, 0x22, 0x6e, 0xff, 0x22, 0x3a, 0x31, 0x7d]),
      expectedStatus: 400,
    },
    {
      name: 'prototype key',
      method: 'POST',
      path: '/users',
      headers: { 'content-type': 'application/json' },
      body: '{"name":"Ada","email":"ada@example.com","__proto__":{"admin":true}}',
      expectedStatus: 400,
    },
    {
      name: 'cross-origin POST',
      method: 'POST',
      path: '/users',
      headers: { 'content-type': 'application/json', origin: 'https://evil.example' },
      body: JSON.stringify({ name: 'Ada', email: 'ada@example.com' }),
      expectedStatus: 403,
    },
    {
      name: 'forwarded header without a proxy posture',
      method: 'GET',
      path: '/health',
      headers: { 'x-forwarded-for': '203.0.113.9' },
      expectedStatus: 400,
    },
  ];
  const sameWorkServers = servers.filter((s) => s.kind !== 'plain');
  for (const scenario of sameWork) {
    for (const server of sameWorkServers) {
      const answer = await probe(server, scenario);
      if (answer.status !== scenario.expectedStatus) {
        throw new Error(
          `${server.kind} answered ${answer.status} to ${scenario.name}, expected ${scenario.expectedStatus}`,
        );
      }
    }
  }
  for (const scenario of [...SCENARIOS, ...extra]) {
    const answers = await Promise.all(servers.map((s) => probe(s, scenario)));
    for (const [i, answer] of answers.entries()) {
      if (answer.status !== scenario.expectedStatus) {
        throw new Error(
          `${servers[i]?.kind} answered ${answer.status} to ${scenario.method} ${scenario.path}, ` +
            `expected ${scenario.expectedStatus}: ${answer.body}`,
        );
      }
    }
    // Error bodies differ in wording (Charter lists issues); success bodies must be identical.
    if (scenario.expectedStatus < 400 || scenario.expectedStatus === 404) {
      const [first, ...rest] = answers;
      for (const other of rest) {
        if (other.body !== first?.body || other.contentType !== first?.contentType) {
          throw new Error(
            `The servers disagree on ${scenario.method} ${scenario.path}:\n` +
              answers.map((a, i) => `  ${servers[i]?.kind}: ${a.contentType} ${a.body}`).join('\n'),
          );
        }
      }
      const charter = answers[servers.findIndex((s) => s.kind === 'charter')];
      const same = answers[servers.findIndex((s) => s.kind === 'plain-same')];
      if (charter !== undefined && same !== undefined && charter.headers !== same.headers) {
        throw new Error(
          `charter and plain-same send different headers on ${scenario.method} ${scenario.path}:\n` +
            `  charter:\n${charter.headers}\n  plain-same:\n${same.headers}`,
        );
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Measurement

interface RunResult {
  round: number;
  scenario: string;
  server: ServerKind;
  requests: number;
  errors: number;
  seconds: number;
  requestsPerSecond: number;
  serverCpuMicros: number;
  serverCpuMicrosPerRequest: number;
  /** Server CPU time over wall time: 1.0 is one core busy the whole run. */
  serverCores: number;
  loaderCpuMicros: number;
  p50Micros?: number;
  p99Micros?: number;
}

function targetFor(server: ServerProcess, scenario: Scenario): LoadTarget {
  const target: LoadTarget = {
    method: scenario.method,
    url: `http://127.0.0.1:${server.port}${scenario.path}`,
    expectedStatus: scenario.expectedStatus,
  };
  if (scenario.headers !== undefined) target.headers = scenario.headers;
  if (scenario.body !== undefined) target.body = scenario.body;
  return target;
}

async function measure(server: ServerProcess, scenario: Scenario, round: number): Promise<RunResult> {
  const target = targetFor(server, scenario);
  await runLoad(target, { seconds: WARMUP_SECONDS, connections: CONNECTIONS });
  const cpuBefore = cpuMicros(server.pid);
  const load: LoadResult = await runLoad(target, { seconds: MEASURE_SECONDS, connections: CONNECTIONS });
  const serverCpuMicros = cpuMicros(server.pid) - cpuBefore;
  if (load.requests === 0) throw new Error(`No successful request to ${server.kind} ${scenario.name}`);
  const result: RunResult = {
    round,
    scenario: scenario.name,
    server: server.kind,
    requests: load.requests,
    errors: load.errors,
    seconds: load.seconds,
    requestsPerSecond: load.requestsPerSecond,
    serverCpuMicros,
    serverCpuMicrosPerRequest: serverCpuMicros / load.requests,
    serverCores: serverCpuMicros / 1e6 / load.seconds,
    loaderCpuMicros: load.loaderCpuMicros,
  };
  if (load.p50Micros !== undefined) result.p50Micros = load.p50Micros;
  if (load.p99Micros !== undefined) result.p99Micros = load.p99Micros;
  return result;
}

interface Summary {
  scenario: string;
  server: ServerKind;
  requestsPerSecond: number;
  serverCpuMicrosPerRequest: number;
  serverCores: number;
  errors: number;
  p50Micros?: number;
}

function summarise(runs: readonly RunResult[]): Summary[] {
  const out: Summary[] = [];
  for (const scenario of SCENARIOS) {
    for (const server of SERVERS) {
      const mine = runs.filter((r) => r.scenario === scenario.name && r.server === server);
      const summary: Summary = {
        scenario: scenario.name,
        server,
        requestsPerSecond: median(mine.map((r) => r.requestsPerSecond)),
        serverCpuMicrosPerRequest: median(mine.map((r) => r.serverCpuMicrosPerRequest)),
        serverCores: median(mine.map((r) => r.serverCores)),
        errors: mine.reduce((n, r) => n + r.errors, 0),
      };
      const p50s = mine.flatMap((r) => (r.p50Micros === undefined ? [] : [r.p50Micros]));
      if (p50s.length > 0) summary.p50Micros = median(p50s);
      out.push(summary);
    }
  }
  return out;
}

interface Ratio {
  scenario: string;
  /** The plain server Charter is compared with. */
  baseline: Exclude<ServerKind, 'charter'>;
  /** Charter requests/s over the baseline's: below 1 means Charter serves fewer. */
  throughput: number;
  /** Charter CPU µs per request over the baseline's: above 1 means Charter costs more per request. */
  cpuPerRequest: number;
}

function ratios(summaries: readonly Summary[]): Ratio[] {
  return SCENARIOS.flatMap((scenario) => {
    const charter = summaries.find((s) => s.scenario === scenario.name && s.server === 'charter');
    if (charter === undefined) throw new Error('missing summary');
    return (['plain', 'plain-same'] as const).map((baseline) => {
      const plain = summaries.find((s) => s.scenario === scenario.name && s.server === baseline);
      if (plain === undefined) throw new Error('missing summary');
      return {
        scenario: scenario.name,
        baseline,
        throughput: charter.requestsPerSecond / plain.requestsPerSecond,
        cpuPerRequest: charter.serverCpuMicrosPerRequest / plain.serverCpuMicrosPerRequest,
      };
    });
  });
}

function table(summaries: readonly Summary[], ratioList: readonly Ratio[]): string {
  const header = [
    'scenario',
    'server',
    'req/s (median)',
    'server CPU µs/req',
    'server cores',
    'errors',
    'Charter/this server',
  ];
  const rows: string[][] = [];
  for (const s of summaries) {
    const ratio = ratioList.find((r) => r.scenario === s.scenario && r.baseline === s.server);
    const ratioText =
      ratio !== undefined
        ? `req/s ×${ratio.throughput.toFixed(2)}, CPU/req ×${ratio.cpuPerRequest.toFixed(2)}`
        : '';
    rows.push([
      s.server === 'charter' ? s.scenario : '',
      s.server,
      Math.round(s.requestsPerSecond).toLocaleString('en-US'),
      s.serverCpuMicrosPerRequest.toFixed(1),
      s.serverCores.toFixed(2),
      String(s.errors),
      ratioText,
    ]);
  }
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const numeric = [false, false, true, true, true, true, false];
  const line = (cells: readonly string[]): string =>
    `| ${cells.map((c, i) => (numeric[i] ? c.padStart(widths[i] ?? 0) : c.padEnd(widths[i] ?? 0))).join(' | ')} |`;
  const rule = `|${widths.map((w, i) => (numeric[i] ? `${'-'.repeat(w + 1)}:` : '-'.repeat(w + 2))).join('|')}|`;
  return [line(header), rule, ...rows.map(line)].join('\n');
}

// ---------------------------------------------------------------------------------------------

export async function runHttpBench(): Promise<void> {
  const tool = loadTool();
  const started = performance.now();
  console.log(
    `HTTP benchmark: Bun ${Bun.version}, ${availableParallelism()} cores, load generator ${tool === 'wrk' ? 'wrk (1 thread)' : 'Bun fetch client'}, ` +
      `${CONNECTIONS} connections, ${WARMUP_SECONDS} s warm-up + ${MEASURE_SECONDS} s measured, ${ROUNDS} rounds`,
  );
  const servers: ServerProcess[] = [];
  const onSignal = (): void => {
    for (const server of servers) server.proc.kill('SIGKILL');
    process.exit(130);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    for (const kind of SERVERS) servers.push(await startServer(kind));
    await checkServers(servers);
    const runs: RunResult[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      for (const scenario of SCENARIOS) {
        // Rotate which server goes first, so drift in machine load hits all alike.
        const shift = (round + SCENARIOS.indexOf(scenario)) % servers.length;
        const order = [...servers.slice(shift), ...servers.slice(0, shift)];
        for (const server of order) {
          const run = await measure(server, scenario, round);
          runs.push(run);
          console.log(
            `  round ${round} ${scenario.name.padEnd(26)} ${server.kind.padEnd(10)} ` +
              `${Math.round(run.requestsPerSecond).toLocaleString('en-US').padStart(8)} req/s ` +
              `${run.serverCpuMicrosPerRequest.toFixed(1).padStart(6)} µs/req ` +
              `(server ${run.serverCores.toFixed(2)} cores, ${run.errors} errors)`,
          );
        }
      }
    }
    const summaries = summarise(runs);
    const ratioList = ratios(summaries);
    console.log(`\n${table(summaries, ratioList)}\n`);
    console.log(
      'req/s and CPU µs/req are medians of the rounds; CPU is the server process (utime + stime from ' +
        '/proc), divided by the requests it completed. Ratios are Charter over the server of that row.',
    );
    mkdirSync(join(BENCH_DIR, 'results'), { recursive: true });
    writeFileSync(
      RESULTS_FILE,
      `${JSON.stringify(
        {
          date: new Date().toISOString(),
          bun: Bun.version,
          cores: availableParallelism(),
          loadGenerator: tool,
          connections: CONNECTIONS,
          warmupSeconds: WARMUP_SECONDS,
          measureSeconds: MEASURE_SECONDS,
          rounds: ROUNDS,
          clockTicksPerSecond: CLK_TCK,
          summary: summaries,
          ratios: ratioList,
          runs,
        },
        null,
        2,
      )}\n`,
    );
    console.log(`wrote ${RESULTS_FILE} (${((performance.now() - started) / 1000).toFixed(0)} s)`);
  } finally {
    await Promise.all(servers.map(stopServer));
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

if (import.meta.main) {
  try {
    await runHttpBench();
  } catch (error) {
    console.error(error);
    process.exitCode = 1;
  }
}
