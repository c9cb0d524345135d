/**
 * charter/node against raw `node:http`, under real Node 24, in one run: `bun bench/node-adapter.ts`.
 *
 * Servers (`bench/node-adapter-server.ts`, each its own Node 24 process): a hand-written `node:http`
 * listener, and `serve(app)` from charter/node with zod on params, body and every 200 response (secure
 * defaults and response validation on). Four routes: `GET /static`, `GET /users/:id`, `POST /echo` (JSON
 * body) and a 404. For BENCH_ROUNDS rounds, every route on every server, in an order that rotates from
 * one route to the next: a warm-up, then a measured wrk run (wrk on core 0, the server on core 1,
 * with taskset when there are two cores).
 *
 * The figure that matters is the server's CPU time per request: utime + stime from /proc/<pid>/stat
 * before and after the measured run, over the requests wrk completed. On a machine others are using,
 * wall time and req/s move with their load; CPU per request far less. The ratio is raw CPU / charter
 * CPU (1.00: as cheap as raw; higher is better), the median over rounds. Peak RSS is VmHWM of
 * /proc/<pid>/status at the end.
 *
 * Env: BENCH_SECONDS (measured seconds per run, default 4), BENCH_WARMUP_SECONDS (default 1),
 * BENCH_ROUNDS (default 3), BENCH_CONNECTIONS (default 32), BENCH_CHARTER (the Charter servers, comma-
 * separated, each its own process measured in the same rounds: charter, the workspace sources, the
 * default; charter-dist, the built packages/charter/dist; charter-handler, toNodeHandler on a default
 * server; adapter=<path to a charter/node index.ts>, another copy of the adapter on this core, for a
 * before/after in one run), BENCH_PEERS (plain JavaScript servers measured in the same rounds, comma-
 * separated `name=<file.mjs> [args]`, e.g. `fastify=bench/peers/fastify.mjs`; the file is run as
 * `node <file> 0 [args]` and prints `ready <port>`; or `name=<dir>/bench/node-adapter-server.ts <kind>`,
 * this server from another checkout, e.g. an earlier commit), BENCH_ROUTES (route names, comma-separated),
 * BENCH_PIN (0: no taskset), NODE24_PATH, BENCH_NODE_FLAGS (extra flags for the Charter server, e.g.
 * `--cpu-prof --cpu-prof-dir=/tmp/prof`), BENCH_RAW_FLAGS (the same for the raw server).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { node24, NODE_TS_FLAGS } from '../tests/adapters/fixtures/node24.ts';
import { cpuMicros, statusKb } from './support/proc.ts';

const num = (name: string, fallback: number): number => {
  const value = Number(process.env[name] ?? fallback);
  return Number.isFinite(value) && value > 0 ? value : fallback;
};
const SECONDS = Math.round(num('BENCH_SECONDS', 4));
const WARMUP = Math.round(num('BENCH_WARMUP_SECONDS', 1));
const ROUNDS = Math.round(num('BENCH_ROUNDS', 3));
const CONNECTIONS = Math.round(num('BENCH_CONNECTIONS', 32));
const CHARTER = process.env.BENCH_CHARTER ?? 'charter';
const PIN = process.env.BENCH_PIN !== '0' && Bun.which('taskset') !== null && availableParallelism() >= 2;
const SERVER_SCRIPT = join(import.meta.dir, 'node-adapter-server.ts');

interface Route {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  body?: string;
  status: number;
}
const ALL_ROUTES: Route[] = [
  { name: 'static', method: 'GET', path: '/static', status: 200 },
  { name: 'param', method: 'GET', path: '/users/42', status: 200 },
  {
    name: 'POST',
    method: 'POST',
    path: '/echo',
    body: JSON.stringify({ name: 'Ada', age: 36, tags: ['math', 'engines'] }),
    status: 200,
  },
  { name: '404', method: 'GET', path: '/nope', status: 404 },
];
const only = process.env.BENCH_ROUTES?.split(',');
const ROUTES = only === undefined ? ALL_ROUTES : ALL_ROUTES.filter((r) => only.includes(r.name));

interface Server {
  id: string;
  proc: ReturnType<typeof Bun.spawn>;
  port: number;
  pid: number;
}

/**
 * Starts a server: `id` is a kind of bench/node-adapter-server.ts, `name=<file.mjs> [args]` for a
 * plain JavaScript server run as `node <file.mjs> 0 [args]` that prints `ready <port>` (the peers of
 * bench/peers/, when present: Fastify's peak RSS is the reference for charter/node's), or
 * `name=<path>/node-adapter-server.ts <kind>` for this server from another checkout.
 */
async function start(id: string, extraFlags: string[]): Promise<Server> {
  const node = node24();
  const peer = id.startsWith('adapter=') ? null : /^[\w-]+=(\S+\.m?[jt]s)((?: \S+)*)$/.exec(id);
  const file = peer?.[1] as string;
  const args = (peer?.[2] ?? '').split(' ').filter((a) => a !== '');
  const command =
    peer === null
      ? [node.path, ...NODE_TS_FLAGS, ...extraFlags, SERVER_SCRIPT, id, '0']
      : file.endsWith('.ts')
        ? // Another copy of node-adapter-server.ts (a checkout of another commit): `<kind> <port>`.
          [node.path, ...NODE_TS_FLAGS, ...extraFlags, file, ...args, '0']
        : [node.path, ...extraFlags, file, '0', ...args];
  // taskset execs the command: the child's pid is the server's.
  const proc = Bun.spawn([...(PIN ? ['taskset', '-c', '1'] : []), ...command], {
    cwd: join(import.meta.dir, '..'),
    stdin: 'pipe',
    stdout: 'pipe',
    stderr: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  const reader = (proc.stdout as ReadableStream<Uint8Array>).getReader();
  let text = '';
  const decoder = new TextDecoder();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`${id} exited before it was ready`);
    text += decoder.decode(value);
    const match = /ready (\d+)(?: (\d+))?\n/.exec(text);
    if (match !== null) {
      reader.releaseLock();
      return { id, proc, port: Number(match[1]), pid: match[2] === undefined ? proc.pid : Number(match[2]) };
    }
  }
}

function luaString(value: string): string {
  let level = '';
  while (value.includes(`]${level}]`)) level += '=';
  return `[${level}[${value}]${level}]`;
}

interface Wrk {
  requests: number;
  non2xx: number;
  errors: number;
  seconds: number;
  p99: number;
}

async function wrk(route: Route, port: number, seconds: number): Promise<Wrk> {
  const dir = mkdtempSync(join(tmpdir(), 'node-adapter-bench-'));
  const script = join(dir, 'load.lua');
  const lines = [`wrk.method = ${luaString(route.method)}`];
  if (route.body !== undefined) {
    lines.push(`wrk.body = ${luaString(route.body)}`);
    lines.push(`wrk.headers["content-type"] = "application/json"`);
  }
  lines.push(
    'done = function(summary, latency, requests)',
    '  local e = summary.errors',
    '  io.write(string.format(\'WRK {"requests":%d,"duration":%d,"errors":%d,"status":%d,"p99":%d}\\n\',',
    '    summary.requests, summary.duration, e.connect + e.read + e.write + e.timeout, e.status,',
    '    latency:percentile(99)))',
    'end',
  );
  writeFileSync(script, `${lines.join('\n')}\n`);
  try {
    const proc = Bun.spawn(
      [
        ...(PIN ? ['taskset', '-c', '0'] : []),
        'wrk',
        '-t1',
        `-c${CONNECTIONS}`,
        `-d${seconds}s`,
        '--timeout',
        '2s',
        '-s',
        script,
        `http://127.0.0.1:${port}${route.path}`,
      ],
      { stdout: 'pipe', stderr: 'pipe' },
    );
    const [out, err] = await Promise.all([
      new Response(proc.stdout).text(),
      new Response(proc.stderr).text(),
    ]);
    await proc.exited;
    const line = out.split('\n').find((l) => l.startsWith('WRK '));
    if (line === undefined) throw new Error(`wrk failed: ${out}\n${err}`);
    const s = JSON.parse(line.slice(4)) as {
      requests: number;
      duration: number;
      errors: number;
      status: number;
      p99: number;
    };
    return {
      requests: s.requests,
      non2xx: s.status,
      errors: s.errors,
      seconds: s.duration / 1e6,
      p99: s.p99,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

interface Sample {
  cpuMicrosPerRequest: number;
  rps: number;
  p99: number;
}

async function measure(server: Server, route: Route): Promise<Sample> {
  await wrk(route, server.port, WARMUP);
  const before = cpuMicros(server.pid);
  const run = await wrk(route, server.port, SECONDS);
  const after = cpuMicros(server.pid);
  const wrongStatus = route.status >= 400 ? run.requests - run.non2xx : run.non2xx;
  if (run.errors > 0 || wrongStatus > 0) {
    console.warn(`  ${server.id} ${route.name}: ${run.errors} socket errors, ${wrongStatus} wrong statuses`);
  }
  return {
    cpuMicrosPerRequest: (after - before) / run.requests,
    rps: run.requests / run.seconds,
    p99: run.p99,
  };
}

async function check(server: Server): Promise<void> {
  for (const route of ROUTES) {
    const response = await fetch(`http://127.0.0.1:${server.port}${route.path}`, {
      method: route.method,
      headers: route.body === undefined ? {} : { 'content-type': 'application/json' },
      body: route.body,
    });
    const text = await response.text();
    if (response.status !== route.status) {
      throw new Error(`${server.id} ${route.method} ${route.path}: ${response.status} ${text}`);
    }
  }
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};

const node = node24();
const kinds = [...CHARTER.split(','), ...(process.env.BENCH_PEERS?.split(',') ?? [])].filter((k) => k !== '');
console.log(
  `node-adapter bench: ${node.version}, ${kinds.join(' / ')}, ${ROUNDS} rounds x ${SECONDS} s (warm-up ${WARMUP} s), ` +
    `${CONNECTIONS} connections, pinned: ${PIN}, load ${readFileSync('/proc/loadavg', 'utf8').trim()}`,
);
const flags = (name: string): string[] => process.env[name]?.split(' ').filter((f) => f !== '') ?? [];
const raw = await start('raw', flags('BENCH_RAW_FLAGS'));
const charters: Server[] = [];
for (const kind of kinds) charters.push(await start(kind, flags('BENCH_NODE_FLAGS')));
const label = (server: Server): string =>
  server.id.startsWith('adapter=')
    ? `adapter ${server.id.slice('adapter='.length)}`
    : (/^([\w-]+)=/.exec(server.id)?.[1] ?? server.id);
try {
  await check(raw);
  for (const server of charters) await check(server);
  const all = [raw, ...charters];
  // samples[route][server index]
  const samples = new Map<string, Sample[][]>();
  for (const route of ROUTES)
    samples.set(
      route.name,
      all.map(() => []),
    );
  let turn = 0;
  for (let round = 0; round < ROUNDS; round++) {
    for (const route of ROUTES) {
      const lists = samples.get(route.name) as Sample[][];
      // Interleaved, the order rotating from one run to the next, so drift in the machine's load falls
      // on every server alike.
      const order = all.map((_, i) => (i + turn) % all.length);
      turn++;
      for (const i of order) (lists[i] as Sample[]).push(await measure(all[i] as Server, route));
      const r = (lists[0] as Sample[]).at(-1) as Sample;
      const parts = charters.map((server, i) => {
        const c = (lists[i + 1] as Sample[]).at(-1) as Sample;
        return `${label(server)} ${c.cpuMicrosPerRequest.toFixed(1)} µs (${(r.cpuMicrosPerRequest / c.cpuMicrosPerRequest).toFixed(2)})`;
      });
      console.log(
        `  round ${round + 1} ${route.name.padEnd(6)} raw ${r.cpuMicrosPerRequest.toFixed(1)} µs; ${parts.join('; ')}`,
      );
    }
  }
  const m = (list: Sample[], key: keyof Sample): number => median(list.map((s) => s[key]));
  console.log(`\nraw node:http: peak RSS ${(statusKb(raw.pid, 'VmHWM') / 1024).toFixed(0)} MB`);
  for (const [i, server] of charters.entries()) {
    const rows: string[] = [
      '| route | raw µs CPU/req | charter µs CPU/req | ratio (raw/charter) | raw req/s | charter req/s | raw p99 ms | charter p99 ms |',
      '| --- | --: | --: | --: | --: | --: | --: | --: |',
    ];
    const ratios: number[] = [];
    for (const route of ROUTES) {
      const lists = samples.get(route.name) as Sample[][];
      const r = lists[0] as Sample[];
      const c = lists[i + 1] as Sample[];
      // The ratio of each run pair (same round, adjacent in time), then the median over rounds.
      const ratio = median(r.map((s, k) => s.cpuMicrosPerRequest / (c[k] as Sample).cpuMicrosPerRequest));
      ratios.push(ratio);
      rows.push(
        `| ${route.name} | ${m(r, 'cpuMicrosPerRequest').toFixed(1)} | ${m(c, 'cpuMicrosPerRequest').toFixed(1)} | ` +
          `${ratio.toFixed(2)} | ${Math.round(m(r, 'rps'))} | ${Math.round(m(c, 'rps'))} | ` +
          `${(m(r, 'p99') / 1000).toFixed(2)} | ${(m(c, 'p99') / 1000).toFixed(2)} |`,
      );
    }
    const geomean = Math.exp(ratios.reduce((sum, r) => sum + Math.log(r), 0) / ratios.length);
    console.log(
      `\n${label(server)}: geomean ratio ${geomean.toFixed(2)}, peak RSS ${(statusKb(server.pid, 'VmHWM') / 1024).toFixed(0)} MB`,
    );
    console.log(rows.join('\n'));
  }
} finally {
  for (const server of [raw, ...charters]) {
    server.proc.kill('SIGTERM');
    await server.proc.exited;
  }
}
