/**
 * `bun run bench`: the router micro-benchmark (bench/router.ts, when present), then the end-to-end
 * HTTP benchmark (bench/http.ts). Each runs in its own process; the first failure stops the run.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const BENCH_DIR = import.meta.dir;
const steps = ['router.ts', 'http.ts']
  .map((file) => join(BENCH_DIR, file))
  .filter((file) => existsSync(file));

let current: Bun.Subprocess | undefined;
const forward = (signal: NodeJS.Signals) => (): void => {
  current?.kill(signal);
};
process.on('SIGINT', forward('SIGINT'));
process.on('SIGTERM', forward('SIGTERM'));

for (const file of steps) {
  console.log(`\n== bun ${file.slice(BENCH_DIR.length - 'bench'.length)}\n`);
  current = Bun.spawn(['bun', file], { stdin: 'ignore', stdout: 'inherit', stderr: 'inherit' });
  const code = await current.exited;
  current = undefined;
  if (code !== 0) {
    console.error(`${file} failed with exit code ${code}`);
    process.exit(code);
  }
}
