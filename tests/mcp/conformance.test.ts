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
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ConformanceServer, startConformanceServer } from '../../examples/mcp-conformance-server.ts';

const ROOT = join(import.meta.dir, '..', '..');
const PACKAGE = join(ROOT, 'node_modules', '@modelcontextprotocol', 'conformance');
const SUITE = join(PACKAGE, 'dist', 'index.js');
const BASELINE = join(import.meta.dir, 'conformance-baseline.yml');
const REVISIONS = ['2025-11-25', '2026-07-28'] as const;
/** Both runs together take about a second on loopback; the limit leaves ample room for a slow CI host. */
const ELAPSED_LIMIT_MS = 30_000;
/** A run still going after this is killed (a hung scenario must not outlive the test). */
const RUN_TIMEOUT_MS = 60_000;
const TEST_TIMEOUT_MS = RUN_TIMEOUT_MS + 10_000;

type Revision = (typeof REVISIONS)[number];
type Status = 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | 'SKIPPED';

interface Check {
  readonly id: string;
  readonly status: Status;
  readonly errorMessage?: string;
}

/** One scenario's checks, as the suite wrote them to `<dir>/server-<scenario>-<timestamp>/checks.json`. */
interface ScenarioResult {
  readonly revision: Revision;
  readonly scenario: string;
  readonly checks: readonly Check[];
}

interface SuiteRun {
  readonly revision: Revision;
  readonly exitCode: number;
  readonly output: string;
  readonly results: readonly ScenarioResult[];
}

interface Baseline {
  /** Scenarios expected to fail as a whole. */
  readonly scenarios: ReadonlySet<string>;
  /** Checks expected to fail, by scenario. */
  readonly checks: ReadonlyMap<string, ReadonlySet<string>>;
  /** Every entry as written. */
  readonly entries: readonly string[];
}

// The suite stamps each scenario directory with an ISO time made filename-safe (`:` and `.` as `-`).
const RESULT_DIR = /^server-(.+)-\d{4}-\d{2}-\d{2}T[\d-]+Z$/;

async function readResults(revision: Revision, dir: string): Promise<ScenarioResult[]> {
  const results: ScenarioResult[] = [];
  // A run that failed before its first scenario wrote nothing: its exit code tells why.
  const names = await readdir(dir).catch(() => [] as string[]);
  for (const name of names) {
    const scenario = RESULT_DIR.exec(name)?.[1];
    if (scenario === undefined) continue;
    const checks = JSON.parse(await readFile(join(dir, name, 'checks.json'), 'utf8')) as Check[];
    results.push({ revision, scenario, checks });
  }
  return results;
}

let server: ConformanceServer | undefined;
let workDir: string | undefined;
let runsPromise: Promise<{ runs: readonly SuiteRun[]; elapsedMs: number }> | undefined;

async function runSuite(url: string, revision: Revision, outputDir: string): Promise<SuiteRun> {
  const child = Bun.spawn(
    [
      process.execPath,
      SUITE,
      'server',
      '--url',
      url,
      '--requirements',
      revision,
      '--expected-failures',
      BASELINE,
      '-o',
      outputDir,
    ],
    {
      cwd: ROOT,
      stdout: 'pipe',
      stderr: 'pipe',
      timeout: RUN_TIMEOUT_MS,
    },
  );
  const [stdout, stderr, exitCode] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ]);
  return { revision, exitCode, output: stdout + stderr, results: await readResults(revision, outputDir) };
}

/** The suite's baseline verdict (stale entries, unexpected failures), or the end of its output after a crash. */
function suiteVerdict(output: string): string {
  // The suite colours its output whatever NO_COLOR says; strip SGR sequences (ESC [ digits ; m).
  const plain = output.replace(/\x1b\[[0-9;]*m/g, '');
  const starts = ['Stale baseline entries', 'Unexpected failures (not in baseline)']
    .map((header) => plain.indexOf(header))
    .filter((at) => at !== -1);
  return starts.length > 0 ? plain.slice(Math.min(...starts)) : plain.slice(-4000);
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

async function readBaseline(): Promise<Baseline> {
  const parsed = Bun.YAML.parse(await readFile(BASELINE, 'utf8')) as { server?: unknown };
  const entries = Array.isArray(parsed?.server) ? parsed.server.map(String) : [];
  const scenarios = new Set<string>();
  const checks = new Map<string, Set<string>>();
  for (const entry of entries) {
    const colon = entry.indexOf(':');
    if (colon === -1) {
      scenarios.add(entry);
      continue;
    }
    const scenario = entry.slice(0, colon);
    const ids = checks.get(scenario) ?? new Set<string>();
    ids.add(entry.slice(colon + 1));
    checks.set(scenario, ids);
  }
  return { scenarios, checks, entries };
}

const SEVERITY: Readonly<Record<Status, number>> = {
  INFO: 0,
  SKIPPED: 1,
  SUCCESS: 1,
  WARNING: 2,
  FAILURE: 3,
};

/** One verdict per check id, the most severe of its occurrences (INFO ignored), as the suite collapses them. */
function verdicts(checks: readonly Check[]): Map<string, Check> {
  const byId = new Map<string, Check>();
  for (const check of checks) {
    if (check.status === 'INFO') continue;
    const seen = byId.get(check.id);
    if (seen === undefined || SEVERITY[check.status] >= SEVERITY[seen.status]) byId.set(check.id, check);
  }
  return byId;
}

/** Under a baseline the suite counts WARNING as a failure, not only FAILURE. */
function failing(check: Check): boolean {
  return check.status === 'FAILURE' || check.status === 'WARNING';
}

/** Failures the baseline does not excuse, and the baseline entries whose failure was observed. */
function judge(
  results: readonly ScenarioResult[],
  baseline: Baseline,
): { unexpected: string[]; observed: Set<string>; passingEntries: string[] } {
  const unexpected: string[] = [];
  const observed = new Set<string>();
  const passingEntries: string[] = [];
  for (const { revision, scenario, checks } of results) {
    const byId = verdicts(checks);
    const failures = [...byId.values()].filter(failing);
    if (baseline.scenarios.has(scenario)) {
      if (failures.length > 0) observed.add(scenario);
      else passingEntries.push(`${scenario} passed on the ${revision} wire`);
      continue;
    }
    const excused = baseline.checks.get(scenario) ?? new Set<string>();
    for (const check of failures) {
      if (excused.has(check.id)) observed.add(`${scenario}:${check.id}`);
      else {
        const message = (check.errorMessage ?? '').slice(0, 300);
        unexpected.push(`[${revision}] ${scenario}:${check.id} ${check.status}: ${message}`);
      }
    }
    for (const id of excused) {
      if (byId.get(id)?.status === 'SUCCESS')
        passingEntries.push(`${scenario}:${id} passed on the ${revision} wire`);
    }
  }
  return { unexpected, observed, passingEntries };
}

/** The server scenarios a requirement set runs: the scored ones and the not-scored ones. */
async function requiredScenarios(revision: Revision): Promise<string[]> {
  const set = Bun.YAML.parse(await readFile(join(PACKAGE, 'requirements', `${revision}.yaml`), 'utf8')) as {
    server?: string[];
    not_scored?: { scenario: string; leg: string }[];
  };
  const notScored = (set.not_scored ?? [])
    .filter((entry) => entry.leg === 'server')
    .map((entry) => entry.scenario);
  return [...(set.server ?? []), ...notScored].sort();
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
    const lines = (await readFile(BASELINE, 'utf8')).split('\n');
    const entries: string[] = [];
    const unexplained: string[] = [];
    lines.forEach((line, index) => {
      const entry = /^\s+-\s+(\S+)\s*$/.exec(line)?.[1];
      if (entry === undefined) return;
      entries.push(entry);
      // The reason: the comment lines directly above the entry, with no blank line in between.
      const reason: string[] = [];
      for (let at = index - 1; at >= 0 && (lines[at] as string).trim().startsWith('#'); at--) {
        reason.unshift((lines[at] as string).trim().replace(/^#+\s*/, ''));
      }
      // A reason is a sentence, not a bare marker.
      if (reason.join(' ').length < 30) unexplained.push(entry);
    });
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
