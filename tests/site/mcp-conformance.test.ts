/**
 * The official MCP conformance suite (`@modelcontextprotocol/conformance` 0.2.0-alpha.12) against
 * the documentation site's own /mcp (issue 19), not only against the fixture server: the real site
 * on a loopback port, its quota raised for the run (the suite sends a few hundred requests), both
 * requirement sets at once, each with its own expected-failures file. Those files list only checks
 * that need the suite's fixture records (the site serves three docs tools); the protocol checks,
 * wire-schema-valid everywhere, and in particular server-stateless (a tools-only server answers
 * -32601 for prompts and resources under 2026-07-28) must pass.
 */
import { afterAll, describe, expect, test } from 'bun:test';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  judge,
  readBaseline,
  type Revision,
  requiredScenarios,
  runSuite,
  type SuiteRun,
  suiteVerdict,
  unexplainedEntries,
  verdicts,
} from '../mcp/conformance-runner.ts';
import { type RunningSite, startSite } from './support.ts';

const REVISIONS = ['2025-11-25', '2026-07-28'] as const satisfies readonly Revision[];
const baselineOf = (revision: Revision) => join(import.meta.dir, `mcp-conformance-baseline-${revision}.yml`);
/** A run still going after this is killed (a hung scenario must not outlive the test). */
const RUN_TIMEOUT_MS = 90_000;
const TEST_TIMEOUT_MS = RUN_TIMEOUT_MS + 20_000;

let site: RunningSite | undefined;
let workDir: string | undefined;
let runsPromise: Promise<readonly SuiteRun[]> | undefined;

function suiteRuns(): Promise<readonly SuiteRun[]> {
  runsPromise ??= (async () => {
    // The suite's requests all come from one address: the site's default quota would answer 429
    // part-way through, so the run gets a quota no scenario reaches.
    site = await startSite({ rateLimit: { max: 1_000_000, windowMs: 60_000 } });
    workDir = await mkdtemp(join(tmpdir(), 'charter-site-mcp-conformance-'));
    const url = `${site.origin}/mcp`;
    return Promise.all(
      REVISIONS.map((revision) =>
        runSuite({
          url,
          revision,
          baseline: baselineOf(revision),
          outputDir: join(workDir as string, revision),
          timeoutMs: RUN_TIMEOUT_MS,
        }),
      ),
    );
  })();
  return runsPromise;
}

afterAll(async () => {
  await site?.stop();
  if (workDir !== undefined) await rm(workDir, { recursive: true, force: true });
});

function runOf(runs: readonly SuiteRun[], revision: Revision): SuiteRun {
  return runs.find((run) => run.revision === revision) as SuiteRun;
}

describe("MCP conformance suite against the site's /mcp", () => {
  for (const revision of REVISIONS) {
    test(
      `the ${revision} requirement set passes against its baseline (suite exit code 0)`,
      async () => {
        const run = runOf(await suiteRuns(), revision);
        const verdict = run.exitCode === 0 ? '' : suiteVerdict(run.output);
        expect({ revision, exitCode: run.exitCode, verdict }).toEqual({ revision, exitCode: 0, verdict: '' });
      },
      TEST_TIMEOUT_MS,
    );

    test(
      `${revision}: every scenario ran, every check outside the baseline passed, no baseline entry is stale`,
      async () => {
        const run = runOf(await suiteRuns(), revision);
        expect(run.results.map((result) => result.scenario).sort()).toEqual(
          await requiredScenarios(revision),
        );
        const baseline = await readBaseline(baselineOf(revision));
        const { unexpected, observed, passingEntries } = judge(run.results, baseline);
        const neverObserved = baseline.entries.filter((entry) => !observed.has(entry));
        expect({ unexpected, passingEntries, neverObserved }).toEqual({
          unexpected: [],
          passingEntries: [],
          neverObserved: [],
        });
      },
      TEST_TIMEOUT_MS,
    );
  }

  test(
    'server-stateless: the site declares tools only, and prompts and resources answer -32601 (2026-07-28)',
    async () => {
      const run = runOf(await suiteRuns(), '2026-07-28');
      const stateless = run.results.find((result) => result.scenario === 'server-stateless');
      const checks = verdicts(stateless?.checks ?? []);
      for (const id of [
        'sep-2575-server-declares-prompts-in-discover',
        'sep-2575-discover-capabilities-match-handlers',
        'sep-2575-http-server-method-not-found-404',
        'sep-2575-server-implements-discover',
      ]) {
        expect({ id, status: checks.get(id)?.status }).toEqual({ id, status: 'SUCCESS' });
      }
    },
    TEST_TIMEOUT_MS,
  );

  test('each baseline entry has its reason on the comment lines right above it', async () => {
    for (const revision of REVISIONS) {
      const { entries, unexplained } = await unexplainedEntries(baselineOf(revision));
      expect(entries).toEqual([...(await readBaseline(baselineOf(revision))).entries]);
      expect(entries.length).toBeGreaterThan(0);
      expect(new Set(entries).size).toBe(entries.length);
      expect(unexplained).toEqual([]);
    }
  });
});
