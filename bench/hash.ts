/**
 * Password hashing cost: `bun bench/hash.ts`.
 * Times one `passwordHash` and one `passwordVerify` with the default scrypt parameters (ln=17, r=8,
 * p=1: 128 MiB) and prints the median of `BENCH_HASH_RUNS` runs (default 9) in milliseconds, after one
 * warm-up of each. Runs are sequential: the figure is the latency one login adds, on one core.
 */
import { needsRehash, passwordHash, passwordVerify, SCRYPT_DEFAULTS } from '../packages/hashing/src/index.ts';
import { median } from './median.ts';

const RUNS = Number(process.env.BENCH_HASH_RUNS ?? 9);
if (!Number.isInteger(RUNS) || RUNS < 1) throw new RangeError('BENCH_HASH_RUNS must be a positive integer');

const PASSWORD = 'correct horse battery staple';

async function measure(run: () => Promise<unknown>): Promise<{ median: number; min: number; max: number }> {
  await run(); // warm-up: loads node:crypto, first allocation of the 128 MiB working area
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    await run();
    times.push(performance.now() - started);
  }
  return { median: median(times), min: Math.min(...times), max: Math.max(...times) };
}

const hash = await passwordHash(PASSWORD);
if (needsRehash(hash) || !(await passwordVerify(PASSWORD, hash))) throw new Error('self-check failed');

const { ln, r, p } = SCRYPT_DEFAULTS;
console.log(
  `scrypt ln=${ln} r=${r} p=${p} (${(128 * 2 ** ln * r) / 2 ** 20} MiB), ${RUNS} runs, bun ${Bun.version}`,
);
for (const [name, run] of [
  ['passwordHash', () => passwordHash(PASSWORD)],
  ['passwordVerify', () => passwordVerify(PASSWORD, hash)],
] as const) {
  const result = await measure(run);
  const f = (ms: number) => ms.toFixed(1).padStart(7);
  console.log(
    `${name.padEnd(15)} median ${f(result.median)} ms   min ${f(result.min)} ms   max ${f(result.max)} ms`,
  );
}
