/**
 * The load generator of the HTTP benchmark. Uses `wrk` when it is on PATH (a Lua script sets the
 * method, headers and body, and prints a JSON summary), else a Bun client: N concurrent keep-alive
 * fetch loops. Either way: loopback only, a fixed duration, and it stops by itself.
 * `BENCH_LOADER=bun` forces the Bun client.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface LoadTarget {
  method: 'GET' | 'POST';
  /** Must be a loopback URL (http://127.0.0.1:<port>/...). */
  url: string;
  headers?: Record<string, string>;
  body?: string;
  /** The status every response must have; others count as errors. */
  expectedStatus: number;
}

export interface LoadOptions {
  seconds: number;
  connections: number;
  /** Bun client only: stop after this many completed requests, even before the deadline. */
  maxRequests?: number;
  /** wrk only: a command to run wrk under, e.g. `['taskset', '-c', '0']` to pin it to a core. */
  prefix?: readonly string[];
}

export interface LoadResult {
  tool: 'wrk' | 'bun';
  /**
   * Responses with the expected status (wrk: any 2xx/3xx, or any status of 400 or more when a 4xx/5xx
   * is expected, see README).
   */
  requests: number;
  /** Wrong status, socket errors and timeouts. */
  errors: number;
  /** Wall time of the run, in seconds. */
  seconds: number;
  requestsPerSecond: number;
  /** CPU time the load generator itself used, in µs (user + system). */
  loaderCpuMicros: number;
  /** Median latency in µs, when the tool measures it (wrk). */
  p50Micros?: number;
  p99Micros?: number;
}

export type LoadTool = 'wrk' | 'bun';

/** `wrk` when installed (and not overridden with BENCH_LOADER=bun), else the Bun client. */
export function loadTool(): LoadTool {
  if (process.env.BENCH_LOADER === 'bun') return 'bun';
  return Bun.which('wrk') === null ? 'bun' : 'wrk';
}

function assertLoopback(url: string): void {
  const { hostname, protocol } = new URL(url);
  if (
    protocol !== 'http:' ||
    (hostname !== '127.0.0.1' && hostname !== '[::1]' && hostname !== 'localhost')
  ) {
    throw new Error(`The load generator only targets loopback http URLs, got ${url}`);
  }
}

export async function runLoad(
  target: LoadTarget,
  options: LoadOptions,
  tool = loadTool(),
): Promise<LoadResult> {
  assertLoopback(target.url);
  return tool === 'wrk' ? runWrk(target, options) : runBunClient(target, options);
}

// ---------------------------------------------------------------------------------------------
// wrk

function luaString(value: string): string {
  // A long bracket whose level does not occur in the value: no escaping needed.
  let level = '';
  while (value.includes(`]${level}]`)) level += '=';
  return `[${level}[${value}]${level}]`;
}

function wrkScript(target: LoadTarget): string {
  const lines = [`wrk.method = ${luaString(target.method)}`];
  if (target.body !== undefined) lines.push(`wrk.body = ${luaString(target.body)}`);
  for (const [name, value] of Object.entries(target.headers ?? {})) {
    lines.push(`wrk.headers[ ${luaString(name)} ] = ${luaString(value)}`);
  }
  // One JSON line at the end; reading per-response statuses in Lua would slow wrk down.
  lines.push(
    'done = function(summary, latency, requests)',
    '  local e = summary.errors',
    '  io.write(string.format(\'WRK_SUMMARY {"requests":%d,"durationMicros":%d,"connect":%d,"read":%d,' +
      '"write":%d,"status":%d,"timeout":%d,"p50":%d,"p99":%d}\\n\',',
    '    summary.requests, summary.duration, e.connect, e.read, e.write, e.status, e.timeout,',
    '    latency:percentile(50), latency:percentile(99)))',
    'end',
  );
  return `${lines.join('\n')}\n`;
}

interface WrkSummary {
  requests: number;
  durationMicros: number;
  connect: number;
  read: number;
  write: number;
  status: number;
  timeout: number;
  p50: number;
  p99: number;
}

async function runWrk(target: LoadTarget, options: LoadOptions): Promise<LoadResult> {
  const dir = mkdtempSync(join(tmpdir(), 'charter-bench-'));
  const script = join(dir, 'load.lua');
  writeFileSync(script, wrkScript(target));
  const proc = Bun.spawn(
    [
      ...(options.prefix ?? []),
      'wrk',
      '-t1',
      `-c${options.connections}`,
      `-d${options.seconds}s`,
      '--timeout',
      '2s',
      '-s',
      script,
      target.url,
    ],
    { stdout: 'pipe', stderr: 'pipe' },
  );
  // wrk stops by itself after -d; this is the belt to its braces.
  const killer = setTimeout(() => proc.kill('SIGKILL'), (options.seconds + 10) * 1000);
  try {
    const [stdout, stderr, code] = await Promise.all([
      new Response(proc.stdout).text(),
      new Response(proc.stderr).text(),
      proc.exited,
    ]);
    const line = stdout.split('\n').find((l) => l.startsWith('WRK_SUMMARY '));
    if (code !== 0 || line === undefined) {
      throw new Error(`wrk failed (exit ${code}):\n${stdout}\n${stderr}`);
    }
    const s = JSON.parse(line.slice('WRK_SUMMARY '.length)) as WrkSummary;
    const usage = proc.resourceUsage();
    const loaderCpuMicros =
      usage === undefined ? 0 : Number(usage.cpuTime.user) + Number(usage.cpuTime.system);
    const errors = s.connect + s.read + s.write + s.status + s.timeout;
    const seconds = s.durationMicros / 1e6;
    // wrk's `requests` counts every completed response, non-2xx included; `status` counts the responses
    // of 400 or more (wrk reports no other status), which are the expected ones when a 404 is measured.
    const errorExpected = target.expectedStatus >= 400;
    const ok = errorExpected ? s.requests : s.requests - s.status;
    return {
      tool: 'wrk',
      requests: ok,
      errors: errorExpected ? errors - s.status : errors,
      seconds,
      requestsPerSecond: ok / seconds,
      loaderCpuMicros,
      p50Micros: s.p50,
      p99Micros: s.p99,
    };
  } finally {
    clearTimeout(killer);
    if (proc.exitCode === null) proc.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------
// Bun client

async function runBunClient(target: LoadTarget, options: LoadOptions): Promise<LoadResult> {
  const maxRequests = options.maxRequests ?? 10_000_000;
  const init: RequestInit = { method: target.method, keepalive: true };
  if (target.headers !== undefined) init.headers = target.headers;
  if (target.body !== undefined) init.body = target.body;
  let requests = 0;
  let errors = 0;
  let started = 0;
  const cpuBefore = process.cpuUsage();
  const t0 = performance.now();
  const deadline = t0 + options.seconds * 1000;

  async function loop(): Promise<void> {
    while (performance.now() < deadline && started < maxRequests) {
      started++;
      try {
        const response = await fetch(target.url, { ...init, signal: AbortSignal.timeout(2000) });
        await response.arrayBuffer();
        if (response.status === target.expectedStatus) requests++;
        else errors++;
      } catch {
        errors++;
      }
    }
  }

  await Promise.all(Array.from({ length: options.connections }, loop));
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  return {
    tool: 'bun',
    requests,
    errors,
    seconds,
    requestsPerSecond: requests / seconds,
    loaderCpuMicros: cpu.user + cpu.system,
  };
}
