/**
 * One benchmark server in its own process: `bun bench/server.ts charter|plain|plain-same <port>`.
 * Listens on 127.0.0.1 (port 0 picks a free one) and prints `ready <port>` once listening.
 * Exits on SIGTERM/SIGINT, when its parent goes away, or after BENCH_SERVER_MAX_SECONDS (default 600).
 */
import { serve } from '@charter/bun';
import { charterApp, plainHandler } from './apps.ts';

const HOSTNAME = '127.0.0.1';

const kind = process.argv[2];
const port = Number(process.argv[3] ?? 0);
if (
  (kind !== 'charter' && kind !== 'plain' && kind !== 'plain-same') ||
  !Number.isInteger(port) ||
  port < 0
) {
  console.error('usage: bun bench/server.ts charter|plain|plain-same <port>');
  process.exit(2);
}

let stop: () => Promise<void>;
let listening: number;

if (kind === 'charter') {
  // signals: true drains and exits on SIGINT/SIGTERM.
  const server = await serve(charterApp(), { port, hostname: HOSTNAME, signals: true });
  stop = () => server.close(1000);
  listening = server.port;
} else {
  const server = Bun.serve({
    port,
    hostname: HOSTNAME,
    fetch: plainHandler({ sameWork: kind === 'plain-same' }),
  });
  stop = () => server.stop(true);
  listening = server.port ?? port;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      void stop().finally(() => process.exit(0));
    });
  }
}

// Never outlive the benchmark: exit when reparented (the parent died) or after a hard limit.
const parent = process.ppid;
const deadline = Date.now() + Number(process.env.BENCH_SERVER_MAX_SECONDS ?? 600) * 1000;
const watchdog = setInterval(() => {
  if (process.ppid !== parent || Date.now() > deadline) {
    clearInterval(watchdog);
    void stop().finally(() => process.exit(0));
  }
}, 1000);

console.log(`ready ${listening}`);
