/**
 * Instructions per request on Bun, counted by valgrind (issue 18 item 2): counts that do not move with
 * the machine's load, so a change of a few hundred instructions per request shows by itself.
 *
 *   bun bench/instructions-bun.ts                         # every server on every route (~30 min)
 *   bun bench/instructions-bun.ts floor serve-zod          # some servers
 *   BENCH_ROUTES=static,404 bun bench/instructions-bun.ts  # some routes
 *   CHARTER_DIST=/tmp/other/dist bun bench/instructions-bun.ts   # another build, e.g. before a change
 *
 * Each sample is `bun bench/instructions-bun.ts --worker <server> <route> <n>` under
 * `valgrind --tool=cachegrind --cache-sim=no`, run twice (n = BENCH_WARM and BENCH_WARM + BENCH_COUNT);
 * the difference of the two totals over BENCH_COUNT is the cost of one request once warm (start-up, the
 * module loading and the JIT's first compilations fall in both runs and cancel). Warm means past the
 * first 20,000 requests (the defaults: BENCH_WARM=20000, BENCH_COUNT=20000): until then the JIT's later
 * tiers and the first full collections of a bigger heap still land in the window. Charter's 404 with zod
 * counted 36,900, 72,300 and 18,900 per request in the windows of 6,000 after the 1,500th, 7,500th and
 * 13,500th request (the floor 20,700, 19,200 and 16,800), and 19,000 between the 20,000th and 50,000th:
 * a window of 3,000 after 1,500 counted one-off work, not the framework's (bench/README.md).
 * Over a socket Bun 1.4.5 runs an SSE4.2 string instruction valgrind 3.19 cannot execute, so the worker
 * runs no socket: it loads the peers benchmark's own server file (`bench/peers/*.ts`) with `Bun.serve`
 * replaced by a stand-in that keeps the options, then answers each request the way Bun would: a path in
 * the `routes` table goes to that route's handler (Bun matches it in native code), anything else to
 * `fetch`. So the servers are the very code `bench/peers.ts` measures under wrk, minus Bun's HTTP parsing
 * and socket write (the same for all); each request is a fresh `Request` carrying a Host field (and a
 * body's Content-Length), as from the socket, and its answer's body is read to the end, as the socket
 * write would. The servers run under NODE_ENV=production, as `bench/peers.ts` runs them.
 */
import { join } from 'node:path';

const SERVERS: Record<string, { file: string; args: string[] }> = {
  raw: { file: 'bun-raw.ts', args: [] },
  floor: { file: 'bun-raw-secure.ts', args: [] },
  'fetch-zod': { file: 'charter-bun.ts', args: ['fetch', 'zod'] },
  'serve-zod': { file: 'charter-bun.ts', args: ['serve', 'zod'] },
  'fetch-arktype': { file: 'charter-bun.ts', args: ['fetch', 'arktype'] },
  'serve-arktype': { file: 'charter-bun.ts', args: ['serve', 'arktype'] },
};

const ROUTES: Record<string, { method: string; path: string; body?: string; status: number }> = {
  static: { method: 'GET', path: '/static', status: 200 },
  param: { method: 'GET', path: '/users/42', status: 200 },
  POST: {
    method: 'POST',
    path: '/echo',
    body: JSON.stringify({ name: 'Ada', age: 36, tags: ['math', 'engines'] }),
    status: 200,
  },
  '404': { method: 'GET', path: '/nothing/here', status: 404 },
};

const ORIGIN = 'http://127.0.0.1:3000';

type Handler = (request: Request, server: unknown) => Response | Promise<Response>;
interface CapturedOptions {
  fetch: Handler;
  routes?: Record<string, Record<string, Handler> | Handler>;
}

/** Loads one server with a stand-in `Bun.serve`, answers `n` requests of one route, exits. */
async function worker(serverName: string, routeName: string, n: number): Promise<void> {
  const server = SERVERS[serverName];
  const route = ROUTES[routeName];
  if (server === undefined || route === undefined || !Number.isInteger(n))
    throw new Error('bad worker arguments');
  let captured: CapturedOptions | undefined;
  const standIn = {
    port: 3000,
    stop: () => Promise.resolve(),
    requestIP: () => ({ address: '127.0.0.1', family: 'IPv4', port: 40000 }),
  };
  (Bun as unknown as { serve: unknown }).serve = (options: CapturedOptions) => {
    captured = options;
    return standIn;
  };
  process.argv = [process.argv[0]!, server.file, '0', ...server.args];
  // The server's `ready` line would only add to the count; it is not needed here.
  process.stdout.write = () => true;
  await import(join(import.meta.dir, 'peers', server.file));
  if (captured === undefined) throw new Error(`${server.file} did not call Bun.serve`);
  const handler = pick(captured, route.method, route.path);
  // BENCH_DEBUG=1: which of the handlers Bun would run answers this route.
  if (process.env.BENCH_DEBUG)
    console.error(serverName, routeName, handler === captured.fetch ? 'fetch' : 'routes');
  const headers: Record<string, string> = { host: '127.0.0.1:3000', 'user-agent': 'bench', accept: '*/*' };
  if (route.body !== undefined) {
    headers['content-type'] = 'application/json';
    // As from the socket: Bun's server hands over a body with its Content-Length (or chunked framing).
    // Without the field an in-process Request's body is known only as a stream, and Charter then reads
    // it chunk by chunk under the body limit (about 18,000 instructions more per POST than `bytes()`),
    // a path no request off the network takes.
    headers['content-length'] = String(Buffer.byteLength(route.body));
  }
  for (let i = 0; i < n; i++) {
    const request = new Request(`${ORIGIN}${route.path}`, {
      method: route.method,
      headers,
      body: route.body,
    });
    const response = await handler(request, standIn);
    await response.arrayBuffer();
    if (response.status !== route.status) {
      throw new Error(`${serverName} ${routeName}: status ${response.status}, expected ${route.status}`);
    }
  }
  process.exit(0);
}

/** The handler Bun would run: the `routes` entry whose pattern matches the path, else `fetch`. */
function pick(options: CapturedOptions, method: string, path: string): Handler {
  const segments = path.split('/');
  for (const [pattern, entry] of Object.entries(options.routes ?? {})) {
    const parts = pattern.split('/');
    if (parts.length !== segments.length) continue;
    if (!parts.every((part, i) => part === segments[i] || (part.startsWith(':') && segments[i] !== '')))
      continue;
    const handler = typeof entry === 'function' ? entry : entry[method];
    if (handler !== undefined) return handler;
  }
  return options.fetch;
}

/**
 * JavaScriptCore compiles and collects on helper threads by default; under valgrind (which runs one
 * thread at a time) where their work lands moves from run to run, and the difference of two runs
 * moved by 10,000 instructions per request between two runs of the same build. Compiling and
 * collecting on the main thread makes a run repeat itself.
 */
const DETERMINISTIC = {
  // As `bench/peers.ts` runs every server: Charter's production defaults (HSTS, forwarded headers refused).
  NODE_ENV: 'production',
  BUN_RUNTIME_TRANSPILER_CACHE_PATH: '0',
  BUN_JSC_useConcurrentJIT: '0',
  BUN_JSC_useConcurrentGC: '0',
};

async function instructions(serverName: string, routeName: string, n: number): Promise<number> {
  const child = Bun.spawn(
    [
      'valgrind',
      '--tool=cachegrind',
      '--cache-sim=no',
      '--cachegrind-out-file=/dev/null',
      process.execPath,
      import.meta.path,
      '--worker',
      serverName,
      routeName,
      String(n),
    ],
    { stdout: 'ignore', stderr: 'pipe', env: { ...process.env, ...DETERMINISTIC } },
  );
  const stderr = await new Response(child.stderr).text();
  const code = await child.exited;
  const refs = /I\s+refs:\s+([\d,]+)/.exec(stderr)?.[1];
  if (code !== 0 || refs === undefined)
    throw new Error(`${serverName} ${routeName} ${n}: exit ${code}\n${stderr}`);
  return Number(refs.replaceAll(',', ''));
}

async function main(): Promise<void> {
  const warm = Number(process.env.BENCH_WARM ?? 20000);
  const count = Number(process.env.BENCH_COUNT ?? 20000);
  const asked = process.argv.slice(2);
  const servers = asked.length > 0 ? asked : Object.keys(SERVERS);
  // Listed by hand: Object.keys would put '404' (an integer-like key) first.
  const routes = (process.env.BENCH_ROUTES ?? 'static,param,POST,404').split(',');
  for (const name of [...servers, ...routes]) {
    if (!(name in SERVERS) && !(name in ROUTES)) throw new Error(`unknown server or route ${name}`);
  }
  console.log(
    `Bun ${Bun.version}, cachegrind, instructions per request = (I(${warm + count}) - I(${warm})) / ${count}`,
  );
  console.log(`| server | ${routes.join(' | ')} |`);
  console.log(`|---|${routes.map(() => '---:').join('|')}|`);
  for (const server of servers) {
    const cells: string[] = [];
    for (const route of routes) {
      const [low, high] = await Promise.all([
        instructions(server, route, warm),
        instructions(server, route, warm + count),
      ]);
      cells.push(Math.round((high - low) / count).toLocaleString('en-US'));
    }
    console.log(`| ${server} | ${cells.join(' | ')} |`);
  }
}

// Last, so every constant above is initialised before either side runs.
if (process.argv[2] === '--worker') await worker(process.argv[3]!, process.argv[4]!, Number(process.argv[5]));
else await main();
