/**
 * `bun bench/site-binary.ts`: how long the compiled site binary takes from spawn to its first 200
 * (issue 18, item 6: within 60 ms, median of 10). Compiles the site once with `bun run site:compile`
 * into a scratch directory, and a hello-world `Bun.serve` binary beside it as the floor (what any
 * compiled Bun server costs, compiled the same way: bytecode, minified); then spawns each binary
 * `RUNS` times, round-robin so that drift in the machine's load falls on all alike, from an empty
 * working directory with a free `PORT`, and polls the probed path (`GET /` unless `PROBE` says
 * otherwise) every millisecond from the moment of the spawn until it answers 200; the child is then
 * killed. Prints, per binary, the median (and minimum) of the wall time from spawn to that 200, and
 * of the child's CPU time (user + system, from wait4's rusage, with the split), which does not grow
 * when other processes take the cores: on a busy machine, read CPU.
 *
 *   bun bench/site-binary.ts                        # compile, then 10 spawns of each
 *   RUNS=21 bun bench/site-binary.ts
 *   PROBE=/docs/routes-and-hooks bun bench/site-binary.ts
 *   bun bench/site-binary.ts old-binary new-binary  # measure given binaries (no compile) beside the floor
 */
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { median } from './median.ts';

const ROOT = resolve(import.meta.dir, '..');
const RUNS = Math.max(1, Math.round(Number(process.env.RUNS ?? 10)));
const PROBE = process.env.PROBE ?? '/';

interface Sample {
  readonly wallMs: number;
  readonly userMs: number;
  readonly systemMs: number;
}

interface Target {
  readonly name: string;
  readonly binary: string;
  readonly samples: Sample[];
}

function freePort(): number {
  const listener = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {} } });
  const port = listener.port;
  listener.stop(true);
  return port;
}

/** Spawns `binary` with a free PORT and polls `PROBE` until the first 200; the child is then killed. */
async function firstOk(binary: string, cwd: string): Promise<Sample> {
  const port = freePort();
  const origin = `http://127.0.0.1:${port}`;
  const started = performance.now();
  const proc = Bun.spawn([binary], {
    cwd,
    env: { PATH: process.env.PATH ?? '', PORT: String(port), HOST: '127.0.0.1', SITE_ORIGIN: origin },
    stdout: 'ignore',
    stderr: 'pipe',
  });
  const stderr = new Response(proc.stderr).text();
  try {
    for (;;) {
      let status: number | undefined;
      try {
        const response = await fetch(origin + PROBE, { headers: { connection: 'close' } });
        await response.arrayBuffer();
        status = response.status;
      } catch {
        // Not listening yet.
      }
      if (status === 200) {
        const wallMs = performance.now() - started;
        proc.kill('SIGKILL');
        await proc.exited;
        const usage = proc.resourceUsage();
        if (!usage) throw new Error('no resource usage for an exited child');
        return {
          wallMs,
          userMs: Number(usage.cpuTime.user) / 1000,
          systemMs: Number(usage.cpuTime.system) / 1000,
        };
      }
      if (status !== undefined) throw new Error(`${binary}: GET ${PROBE} answered ${status}`);
      if (proc.exitCode !== null) throw new Error(`${binary} exited before its first 200:\n${await stderr}`);
      if (performance.now() - started > 30_000) throw new Error(`${binary}: no 200 within 30 s of spawn`);
      await Bun.sleep(1);
    }
  } finally {
    if (proc.exitCode === null) proc.kill('SIGKILL');
  }
}

function report(targets: readonly Target[]): void {
  console.log(`spawn to first 200 on GET ${PROBE}, ${RUNS} runs each (ms):`);
  const width = Math.max(...targets.map((target) => target.name.length));
  const fmt = (n: number) => n.toFixed(1).padStart(6);
  for (const target of targets) {
    const wall = target.samples.map((sample) => sample.wallMs);
    const cpu = target.samples.map((sample) => sample.userMs + sample.systemMs);
    const user = target.samples.map((sample) => sample.userMs);
    const system = target.samples.map((sample) => sample.systemMs);
    const mib = (statSync(target.binary).size / 2 ** 20).toFixed(0);
    console.log(
      `  ${target.name.padEnd(width)}  wall median ${fmt(median(wall))} min ${fmt(Math.min(...wall))}` +
        `   CPU median ${fmt(median(cpu))} min ${fmt(Math.min(...cpu))}` +
        ` (user ${fmt(median(user))}, system ${fmt(median(system))})   ${mib} MiB`,
    );
  }
}

const scratch = mkdtempSync(join(tmpdir(), 'charter-site-binary-'));
const runDir = mkdtempSync(join(tmpdir(), 'charter-site-binary-run-'));
try {
  const floorSource = join(scratch, 'hello.ts');
  writeFileSync(
    floorSource,
    "Bun.serve({ port: Number(process.env.PORT), hostname: '127.0.0.1', fetch: () => new Response('Hello') });\n",
  );
  const floor = await Bun.build({
    entrypoints: [floorSource],
    compile: { outfile: join(scratch, 'hello') },
    format: 'esm',
    bytecode: true,
    minify: true,
  });
  if (!floor.success) throw new AggregateError(floor.logs, 'the hello-world binary did not compile');

  const given = process.argv.slice(2).map((path) => resolve(path));
  const targets: Target[] = given.map((binary) => ({ name: basename(binary), binary, samples: [] }));
  if (targets.length === 0) {
    const binary = join(scratch, 'charter-site');
    const started = performance.now();
    const build = Bun.spawnSync([process.execPath, 'run', 'scripts/site-compile.ts', binary], { cwd: ROOT });
    if (build.exitCode !== 0) throw new Error(`site:compile failed:\n${build.stderr.toString()}`);
    console.log(`bun run site:compile: ${Math.round(performance.now() - started)} ms`);
    targets.push({ name: 'charter-site', binary, samples: [] });
  }
  targets.push({ name: 'hello-world Bun.serve (floor)', binary: join(scratch, 'hello'), samples: [] });

  // One unmeasured spawn each: the first run of a new file also pays for the page cache.
  for (const target of targets) await firstOk(target.binary, runDir);
  for (let run = 0; run < RUNS; run++) {
    for (const target of targets) target.samples.push(await firstOk(target.binary, runDir));
  }
  report(targets);
} finally {
  rmSync(scratch, { recursive: true, force: true });
  rmSync(runDir, { recursive: true, force: true });
}
