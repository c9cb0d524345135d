/**
 * The JavaScript work of charter/node against raw `node:http`, without the kernel: `bun
 * bench/node-adapter-micro.ts`.
 *
 * Each server is a real `node:http` Server under real Node 24 (its own process), fed by an in-memory
 * socket: the request bytes are pushed into it, the response is taken from its writes, and the next
 * request is pushed once the response was written (one keep-alive connection). There is no socket
 * write, no loopback TCP and no client process, which on a real socket are most of a small route's CPU
 * (bench/README.md, "Node: where the time goes") and move with the machine's load; what is left is the
 * parser, the listener, the framework and the response writing, measured as the process's CPU time
 * (`process.cpuUsage`) over BENCH_REQUESTS requests after as many to warm up. So the figures hold on a
 * busy machine, and a change to the adapter or the pipeline shows in them by itself.
 *
 * Servers: `raw` (the peers benchmark's raw listener, bench/peers/node-raw-listener.mjs), `raw-secure`
 * (the same with the eleven security fields of Charter's secure defaults, the floor:
 * bench/peers/node-raw-secure-listener.mjs), `zod` and
 * `arktype` (the peers benchmark's Charter app, bench/peers/charter-app.mjs, through `toNodeHandler`
 * from the built charter/node: secure defaults and response validation on; `zod-serve`, the same zod
 * app through `serve()` itself, its server options and listeners included). Routes: the peers
 * benchmark's four. BENCH_ROUNDS rounds (default 3), each running every server on every route in its
 * own process; the least CPU per request of the rounds is printed for each pair (another process on
 * the core only adds to it), with its ratio to raw (1.00: as cheap as raw).
 *
 * Env: BENCH_REQUESTS (default 100000), BENCH_ROUNDS, BENCH_SERVERS (raw,raw-secure,zod,arktype;
 * zod-serve when named), BENCH_ROUTES (static,param,post,notFound), CHARTER_DIST (another build's
 * dist directory, as the peers benchmark passes it), BENCH_NODE_FLAGS (e.g. `--cpu-prof
 * --cpu-prof-dir=/tmp/prof`), NODE24_PATH.
 *
 * Under Node (the child): `node bench/node-adapter-micro.ts <server> <route> <requests>` prints one
 * JSON line with the CPU microseconds per request and the minor collections per million requests.
 */

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Validator } from './peers/charter-app.mjs';

interface Measurement {
  server: string;
  route: string;
  cpuMicrosPerRequest: number;
  scavengesPerMillion: number;
}

const ROUTES = ['static', 'param', 'post', 'notFound'] as const;
const ECHO = JSON.stringify({ name: 'Ada', age: 36, tags: ['math', 'engines'] });
const REQUEST_TEXT: Record<string, string> = {
  static: 'GET /static HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n\r\n',
  param: 'GET /users/42 HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n\r\n',
  notFound: 'GET /nope HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n\r\n',
  post:
    'POST /echo HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nContent-Type: application/json\r\n' +
    `Content-Length: ${Buffer.byteLength(ECHO)}\r\n\r\n${ECHO}`,
};
const EXPECTED_STATUS: Record<string, string> = {
  static: '200',
  param: '200',
  post: '200',
  notFound: '404',
};

if (process.versions.bun === undefined) await child();
else await orchestrate();

/** Under Node: one server, one route, the CPU per request on the in-memory socket. */
async function child(): Promise<void> {
  const { createServer } = await import('node:http');
  const { Duplex } = await import('node:stream');
  const { PerformanceObserver, constants } = await import('node:perf_hooks');
  const [server, route, count] = process.argv.slice(2) as [string, string, string];
  const requests = Number(count);
  const text = REQUEST_TEXT[route];
  if (text === undefined) throw new Error(`unknown route ${route}`);
  const bytes = Buffer.from(text);

  let listener: (req: IncomingMessage, res: ServerResponse) => void = () => {};
  // `zod-serve`: the zod app through serve() itself (its server options and listeners), the in-memory
  // connection handed to the server it made; it listens on a port nobody connects to.
  let served: import('node:http').Server | undefined;
  if (server === 'zod-serve') {
    const { charterApp, charterModule } = await import('./peers/charter-app.mjs');
    const { App } = await charterModule<typeof import('@charter/app')>('index.js');
    const { serve } = await charterModule<typeof import('../packages/node/src/index.ts')>('node.js');
    const running = await serve(await charterApp(App, 'zod'), {
      port: 0,
      hostname: '127.0.0.1',
      signals: false,
    });
    served = running.server;
  } else if (server === 'raw') {
    ({ rawListener: listener } = await import('./peers/node-raw-listener.mjs'));
  } else if (server === 'raw-secure') {
    ({ rawSecureListener: listener } = await import('./peers/node-raw-secure-listener.mjs'));
  } else {
    const { charterApp, charterModule } = await import('./peers/charter-app.mjs');
    const { App } = await charterModule<typeof import('@charter/app')>('index.js');
    const { toNodeHandler } = await charterModule<typeof import('../packages/node/src/index.ts')>('node.js');
    listener = toNodeHandler(await charterApp(App, server as Validator));
  }
  let http = served;
  if (http === undefined) {
    http = createServer({ requireHostHeader: false }, listener);
    http.on('checkContinue', listener);
  }

  let answered = 0;
  let wanted = 0;
  let finished: () => void = () => {};
  let status = '';
  class MemorySocket extends Duplex {
    remoteAddress = '127.0.0.1';
    remotePort = 40000;
    localAddress = '127.0.0.1';
    localPort = 8080;
    override _read(): void {}
    override _write(chunk: Buffer | string, _encoding: string, done: () => void): void {
      this.#written(chunk);
      done();
    }
    override _writev(chunks: { chunk: Buffer | string }[], done: () => void): void {
      this.#written((chunks[0] as { chunk: Buffer | string }).chunk);
      done();
    }
    /** Every answer here is written as one chunk starting with its status line: then the next request. */
    #written(chunk: Buffer | string): void {
      const head = typeof chunk === 'string' ? chunk.slice(0, 12) : chunk.toString('latin1', 0, 12);
      if (!head.startsWith('HTTP/1.1 ')) return;
      status = head.slice(9, 12);
      answered++;
      if (answered < wanted) setImmediate(pushRequest);
      else setImmediate(finished);
    }
    setTimeout(): this {
      return this;
    }
    setNoDelay(): this {
      return this;
    }
    setKeepAlive(): this {
      return this;
    }
  }
  const socket = new MemorySocket();
  const pushRequest = (): void => {
    socket.push(bytes);
  };
  http.emit('connection', socket);
  const run = (n: number): Promise<void> =>
    new Promise((resolve) => {
      answered = 0;
      wanted = n;
      finished = resolve;
      pushRequest();
    });

  await run(requests);
  if (status !== EXPECTED_STATUS[route]) throw new Error(`${server} answered ${route} with ${status}`);
  let scavenges = 0;
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if ((entry as { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MINOR)
        scavenges++;
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  const before = process.cpuUsage();
  await run(requests);
  const used = process.cpuUsage(before);
  await new Promise((resolve) => setTimeout(resolve, 20));
  observer.disconnect();
  const measurement: Measurement = {
    server,
    route,
    cpuMicrosPerRequest: (used.user + used.system) / requests,
    scavengesPerMillion: (scavenges * 1e6) / requests,
  };
  process.stdout.write(`${JSON.stringify(measurement)}\n`);
  process.exit(0);
}

/** Under Bun: every server on every route, BENCH_ROUNDS times, each in its own Node 24 process. */
async function orchestrate(): Promise<void> {
  const { node24, NODE_TS_FLAGS } = await import('../tests/adapters/fixtures/node24.ts');
  const list = (name: string, fallback: readonly string[]): string[] =>
    (process.env[name] ?? fallback.join(','))
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== '');
  const requests = Math.max(1000, Math.round(Number(process.env.BENCH_REQUESTS ?? 100_000)));
  const rounds = Math.max(1, Math.round(Number(process.env.BENCH_ROUNDS ?? 3)));
  const servers = list('BENCH_SERVERS', ['raw', 'raw-secure', 'zod', 'arktype']);
  const routes = list('BENCH_ROUTES', ROUTES);
  const extraFlags = list('BENCH_NODE_FLAGS', []).flatMap((flags) => flags.split(' '));
  const node = node24();
  console.log(
    `charter/node JavaScript work on an in-memory socket: Node ${node.version}, ${requests} requests ` +
      `after as many to warm up, ${rounds} rounds` +
      (process.env.CHARTER_DIST ? `, CHARTER_DIST=${process.env.CHARTER_DIST}` : ''),
  );
  const samples = new Map<string, Measurement[]>();
  for (let round = 1; round <= rounds; round++) {
    for (const route of routes) {
      for (const server of servers) {
        const proc = Bun.spawn(
          [node.path, ...NODE_TS_FLAGS, ...extraFlags, import.meta.path, server, route, String(requests)],
          {
            cwd: import.meta.dir,
            stdout: 'pipe',
            stderr: 'inherit',
            env: { ...process.env, NODE_ENV: 'production' },
          },
        );
        const out = await new Response(proc.stdout).text();
        if ((await proc.exited) !== 0) throw new Error(`${server} ${route} failed: ${out}`);
        const measurement = JSON.parse(out.trim().split('\n').at(-1) as string) as Measurement;
        const key = `${server} ${route}`;
        samples.set(key, [...(samples.get(key) ?? []), measurement]);
        console.log(
          `  round ${round} ${server.padEnd(8)} ${route.padEnd(9)} ` +
            `${measurement.cpuMicrosPerRequest.toFixed(2)} µs/req, ` +
            `${measurement.scavengesPerMillion.toFixed(0)} scavenges per M`,
        );
      }
    }
  }
  // The least of the rounds: another process on the core only ever adds to a CPU time (cache and
  // branch-predictor state it evicts), so the smallest is the least disturbed.
  const cpu = (server: string, route: string): number =>
    Math.min(...(samples.get(`${server} ${route}`) ?? []).map((m) => m.cpuMicrosPerRequest));
  console.log(`\n| server | ${routes.join(' | ')} | geomean |`);
  console.log(`| --- | ${routes.map(() => '--:').join(' | ')} | --: |`);
  for (const server of servers) {
    const cells: string[] = [];
    let logSum = 0;
    for (const route of routes) {
      const own = cpu(server, route);
      const ratio = servers.includes('raw') ? cpu('raw', route) / own : Number.NaN;
      logSum += Math.log(ratio);
      cells.push(`${own.toFixed(2)} µs (${ratio.toFixed(2)})`);
    }
    console.log(`| ${server} | ${cells.join(' | ')} | ${Math.exp(logSum / routes.length).toFixed(2)} |`);
  }
}
