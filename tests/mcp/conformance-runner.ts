/**
 * Running the official MCP conformance suite (`@modelcontextprotocol/conformance` 0.2.0-alpha.12,
 * under Bun) against a server URL, and reading its verdict back: the suite's own exit code under an
 * expected-failures file, the per-scenario `checks.json` it writes, and a judgement of those checks
 * against the same baseline (failures outside it, baseline entries never observed or passing).
 * Shared by tests/mcp/conformance.test.ts (the fixture server) and tests/site/mcp-conformance.test.ts
 * (the site's /mcp).
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

export const ROOT = join(import.meta.dir, '..', '..');
export const PACKAGE = join(ROOT, 'node_modules', '@modelcontextprotocol', 'conformance');
const SUITE = join(PACKAGE, 'dist', 'index.js');

export type Revision = '2025-11-25' | '2026-07-28';
type Status = 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | 'SKIPPED';

export interface Check {
  readonly id: string;
  readonly status: Status;
  readonly errorMessage?: string;
}

/** One scenario's checks, as the suite wrote them to `<dir>/server-<scenario>-<timestamp>/checks.json`. */
export interface ScenarioResult {
  readonly revision: Revision;
  readonly scenario: string;
  readonly checks: readonly Check[];
}

export interface SuiteRun {
  readonly revision: Revision;
  readonly exitCode: number;
  readonly output: string;
  readonly results: readonly ScenarioResult[];
}

export interface Baseline {
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

/** One run of the suite's `server` command for one requirement set, killed after `timeoutMs`. */
export async function runSuite(options: {
  readonly url: string;
  readonly revision: Revision;
  readonly baseline: string;
  readonly outputDir: string;
  readonly timeoutMs: number;
}): Promise<SuiteRun> {
  const { url, revision, baseline, outputDir, timeoutMs } = options;
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
      baseline,
      '-o',
      outputDir,
    ],
    { cwd: ROOT, stdout: 'pipe', stderr: 'pipe', timeout: timeoutMs },
  );
  const [stdout, stderr, exitCode] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ]);
  return { revision, exitCode, output: stdout + stderr, results: await readResults(revision, outputDir) };
}

/** The suite's baseline verdict (stale entries, unexpected failures), or the end of its output after a crash. */
export function suiteVerdict(output: string): string {
  // The suite colours its output whatever NO_COLOR says; strip SGR sequences (ESC [ digits ; m).
  const plain = output.replace(/\x1b\[[0-9;]*m/g, '');
  const starts = ['Stale baseline entries', 'Unexpected failures (not in baseline)']
    .map((header) => plain.indexOf(header))
    .filter((at) => at !== -1);
  return starts.length > 0 ? plain.slice(Math.min(...starts)) : plain.slice(-4000);
}

export async function readBaseline(path: string): Promise<Baseline> {
  const parsed = Bun.YAML.parse(await readFile(path, 'utf8')) as { server?: unknown };
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

/** The baseline entries whose reason (the comment lines right above, no blank line) is shorter than a sentence. */
export async function unexplainedEntries(
  path: string,
): Promise<{ entries: string[]; unexplained: string[] }> {
  const lines = (await readFile(path, 'utf8')).split('\n');
  const entries: string[] = [];
  const unexplained: string[] = [];
  lines.forEach((line, index) => {
    const entry = /^\s+-\s+(\S+)\s*$/.exec(line)?.[1];
    if (entry === undefined) return;
    entries.push(entry);
    const reason: string[] = [];
    for (let at = index - 1; at >= 0 && (lines[at] as string).trim().startsWith('#'); at--) {
      reason.unshift((lines[at] as string).trim().replace(/^#+\s*/, ''));
    }
    if (reason.join(' ').length < 30) unexplained.push(entry);
  });
  return { entries, unexplained };
}

const SEVERITY: Readonly<Record<Status, number>> = {
  INFO: 0,
  SKIPPED: 1,
  SUCCESS: 1,
  WARNING: 2,
  FAILURE: 3,
};

/** One verdict per check id, the most severe of its occurrences (INFO ignored), as the suite collapses them. */
export function verdicts(checks: readonly Check[]): Map<string, Check> {
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
export function judge(
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
export async function requiredScenarios(revision: Revision): Promise<string[]> {
  const set = Bun.YAML.parse(await readFile(join(PACKAGE, 'requirements', `${revision}.yaml`), 'utf8')) as {
    server?: string[];
    not_scored?: { scenario: string; leg: string }[];
  };
  const notScored = (set.not_scored ?? [])
    .filter((entry) => entry.leg === 'server')
    .map((entry) => entry.scenario);
  return [...(set.server ?? []), ...notScored].sort();
}
