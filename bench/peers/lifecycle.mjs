/**
 * What every server of the peers benchmark (`bench/peers.ts`) shares: the port from argv, and a life that
 * ends by itself. A server is `<runtime> bench/peers/<file> <port> [args...]`; it listens on 127.0.0.1
 * (port 0 picks a free one), prints `ready <port>` once listening, and exits on SIGTERM/SIGINT, when its
 * parent goes away, or after BENCH_SERVER_MAX_SECONDS (default 1800). Plain JavaScript, so Node runs the
 * Node servers without type stripping (which would add to their cold start).
 */

export const HOSTNAME = '127.0.0.1';

/** The port argument (argv[2]); 0 when absent. */
export function portArg() {
  const port = Number(process.argv[2] ?? 0);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`usage: ${process.argv[1]} <port> [args...]`);
    process.exit(2);
  }
  return port;
}

/** The extra arguments after the port. */
export function extraArgs() {
  return process.argv.slice(3);
}

/** Prints `ready <port>` and arranges the exit: on a signal, when orphaned, or at the deadline. */
export function announce(port, stop) {
  let stopping = false;
  const exit = () => {
    if (stopping) return;
    stopping = true;
    Promise.resolve()
      .then(stop)
      .catch(() => {})
      .finally(() => process.exit(0));
    // Never hang on a server that will not close.
    setTimeout(() => process.exit(0), 2000).unref();
  };
  process.on('SIGTERM', exit);
  process.on('SIGINT', exit);
  const parent = process.ppid;
  const deadline = Date.now() + Number(process.env.BENCH_SERVER_MAX_SECONDS ?? 1800) * 1000;
  const watchdog = setInterval(() => {
    if (process.ppid !== parent || Date.now() > deadline) {
      clearInterval(watchdog);
      exit();
    }
  }, 1000);
  watchdog.unref();
  process.stdout.write(`ready ${port}\n`);
}
