/**
 * The official MCP conformance suite (`@modelcontextprotocol/conformance` 0.2.0-alpha.12, run under
 * Bun) against the fixture server examples/mcp-conformance-server.ts, for both requirement sets:
 * 2025-11-25 (legacy wire) and 2026-07-28 (modern wire). The suite scores one revision per run, so
 * it runs twice, concurrently, each with tests/mcp/conformance-baseline.yml as its expected-failures
 * file. Each run must exit 0; then the results directories are read back and judged here too, over
 * every scenario that ran (the suite itself leaves the not-scored ones, such as the tasks extension
 * and the pending header scenarios, out of its baseline check): a failure outside the baseline, or
 * a baseline entry whose failure was observed on neither wire, fails the test with the list.
 */
import { afterAll, describe, expect, test } from 'bun:test';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ConformanceServer, startConformanceServer } from '../../examples/mcp-conformance-server.ts';
import {
  judge,
  readBaseline as readBaselineAt,
  requiredScenarios,
  runSuite as runSuiteAt,
  type SuiteRun,
  suiteVerdict,
  unexplainedEntries,
} from './conformance-runner.ts';

const BASELINE = join(import.meta.dir, 'conformance-baseline.yml');
const REVISIONS = ['2025-11-25', '2026-07-28'] as const;
/** Both runs together take about a second on loopback; the limit leaves ample room for a slow CI host. */
const ELAPSED_LIMIT_MS = 30_000;
/** A run still going after this is killed (a hung scenario must not outlive the test). */
const RUN_TIMEOUT_MS = 60_000;
const TEST_TIMEOUT_MS = RUN_TIMEOUT_MS + 10_000;

let server: ConformanceServer | undefined;
let workDir: string | undefined;
let runsPromise: Promise<{ runs: readonly SuiteRun[]; elapsedMs: number }> | undefined;

function runSuite(url: string, revision: (typeof REVISIONS)[number], outputDir: string): Promise<SuiteRun> {
  return runSuiteAt({ url, revision, baseline: BASELINE, outputDir, timeoutMs: RUN_TIMEOUT_MS });
}

/** Starts the fixture and runs both requirement sets at once, once for the whole file. */
function suiteRuns(): Promise<{ runs: readonly SuiteRun[]; elapsedMs: number }> {
  runsPromise ??= (async () => {
    server = await startConformanceServer({ port: 0 });
    workDir = await mkdtemp(join(tmpdir(), 'charter-mcp-conformance-'));
    const started = performance.now();
    const runs = await Promise.all(
      REVISIONS.map((revision) =>
        runSuite((server as ConformanceServer).url, revision, join(workDir as string, revision)),
      ),
    );
    return { runs, elapsedMs: performance.now() - started };
  })();
  return runsPromise;
}

afterAll(async () => {
  await server?.stop();
  if (workDir !== undefined) await rm(workDir, { recursive: true, force: true });
});

function readBaseline() {
  return readBaselineAt(BASELINE);
}

describe('MCP conformance suite against examples/mcp-conformance-server.ts', () => {
  for (const revision of REVISIONS) {
    test(
      `the ${revision} requirement set passes against the baseline (suite exit code 0)`,
      async () => {
        const run = (await suiteRuns()).runs.find((r) => r.revision === revision) as SuiteRun;
        const verdict = run.exitCode === 0 ? '' : suiteVerdict(run.output);
        // On failure the diff shows the suite's own verdict: its unexpected failures and stale entries.
        expect({ revision, exitCode: run.exitCode, verdict }).toEqual({ revision, exitCode: 0, verdict: '' });
      },
      TEST_TIMEOUT_MS,
    );
  }

  test(
    'each run wrote results for every scenario of its requirement set, scored or not',
    async () => {
      const { runs } = await suiteRuns();
      for (const run of runs) {
        const seen = run.results.map((result) => result.scenario).sort();
        expect({ revision: run.revision, scenarios: seen }).toEqual({
          revision: run.revision,
          scenarios: await requiredScenarios(run.revision),
        });
      }
    },
    TEST_TIMEOUT_MS,
  );

  test(
    'every check outside the baseline passes on both wires, not-scored scenarios included',
    async () => {
      const { runs } = await suiteRuns();
      const { unexpected } = judge(
        runs.flatMap((run) => run.results),
        await readBaseline(),
      );
      expect(unexpected).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );

  test(
    'the baseline has no stale entry: each one failed on at least one wire and passed on none',
    async () => {
      const { runs } = await suiteRuns();
      const baseline = await readBaseline();
      const { observed, passingEntries } = judge(
        runs.flatMap((run) => run.results),
        baseline,
      );
      const neverObserved = baseline.entries.filter((entry) => !observed.has(entry));
      expect({ passingEntries, neverObserved }).toEqual({ passingEntries: [], neverObserved: [] });
    },
    TEST_TIMEOUT_MS,
  );

  test(
    'both runs together finish well within two minutes',
    async () => {
      const { elapsedMs } = await suiteRuns();
      expect(elapsedMs).toBeLessThan(ELAPSED_LIMIT_MS);
    },
    TEST_TIMEOUT_MS,
  );
});

describe('conformance-baseline.yml', () => {
  test('every entry has a reason in the comment lines right above it', async () => {
    // The reason: the comment lines directly above the entry, with no blank line in between; a
    // sentence, not a bare marker.
    const { entries, unexplained } = await unexplainedEntries(BASELINE);
    expect(entries).toEqual([...(await readBaseline()).entries]);
    expect(entries.length).toBeGreaterThan(0);
    expect(unexplained).toEqual([]);
  });

  test('entries are unique and name a scenario or one of its checks', async () => {
    const { entries } = await readBaseline();
    expect(new Set(entries).size).toBe(entries.length);
    const malformed = entries.filter((entry) => !/^[a-z0-9-]+(:[A-Za-z0-9_$.-]+)?$/.test(entry));
    expect(malformed).toEqual([]);
  });
});
