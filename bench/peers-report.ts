/**
 * The summary of a peers run (bench/peers.ts): per server and route the median CPU per request, its ratio
 * to the same runtime's raw server, req/s and p99, and the Markdown tables README quotes.
 */
import type { Route, Runtime, ServerDef } from './peers-catalog.ts';
import type { CheckRecord, RunResult } from './peers.ts';
import { median } from './median.ts';

export interface Cell {
  server: string;
  route: Route['id'];
  serverCpuMicrosPerRequest: number;
  /**
   * The runtime's raw server's CPU per request over this one's: higher is better, 1 = as cheap as raw.
   * Paired schedule: the median of pairRatios; shuffled: raw's median CPU/req over this one's.
   */
  ratioToRaw: number;
  /** Paired schedule: each round's pair ratio (raw runs around it over this run), in round order. */
  pairRatios?: number[];
  /** The lowest and highest pair ratio: how sure ratioToRaw is. */
  ratioSpread?: [number, number];
  requestsPerSecond: number;
  p99Micros?: number;
  serverCores: number;
  /** Median share of the server's core that other processes used during the runs (pinned runs only). */
  otherLoadOnServerCore?: number;
  errors: number;
}

export interface ServerSummary {
  id: string;
  label: string;
  runtime: Runtime;
  /** Geometric mean of ratioToRaw over the routes. */
  geomean: number;
  /** Paired schedule: the lowest and highest of the per-round geomeans of the pair ratios. */
  geomeanSpread?: [number, number];
  peakRssMB: number;
  coldStartMs: { median: number; samples: number[] };
  check: CheckRecord;
}

export const geomean = (values: readonly number[]): number =>
  Math.exp(values.reduce((s, v) => s + Math.log(v), 0) / values.length);

export function summarise(
  defs: readonly ServerDef[],
  runs: readonly RunResult[],
  routes: readonly Route[],
): Cell[] {
  const cells: Cell[] = [];
  for (const def of defs) {
    for (const route of routes) {
      const mine = runs.filter((r) => r.server === def.id && r.route === route.id);
      const p99s = mine.flatMap((r) => (r.p99Micros === undefined ? [] : [r.p99Micros]));
      const cell: Cell = {
        server: def.id,
        route: route.id,
        serverCpuMicrosPerRequest: median(mine.map((r) => r.serverCpuMicrosPerRequest)),
        ratioToRaw: Number.NaN,
        requestsPerSecond: median(mine.map((r) => r.requestsPerSecond)),
        serverCores: median(mine.map((r) => r.serverCores)),
        errors: mine.reduce((n, r) => n + r.errors, 0),
      };
      if (p99s.length > 0) cell.p99Micros = median(p99s);
      const others = mine.flatMap((r) =>
        r.otherLoadOnServerCore === undefined ? [] : [r.otherLoadOnServerCore],
      );
      if (others.length > 0) cell.otherLoadOnServerCore = median(others);
      const pairRatios = mine.flatMap((r) => (r.pairRatio === undefined ? [] : [r.pairRatio]));
      if (pairRatios.length > 0) {
        cell.pairRatios = pairRatios;
        cell.ratioToRaw = median(pairRatios);
        cell.ratioSpread = [Math.min(...pairRatios), Math.max(...pairRatios)];
      }
      cells.push(cell);
    }
  }
  for (const cell of cells) {
    const def = defs.find((d) => d.id === cell.server);
    const raw = defs.find((d) => d.runtime === def?.runtime && d.raw === true);
    const rawCell = cells.find((c) => c.server === raw?.id && c.route === cell.route);
    if (cell.pairRatios !== undefined) continue;
    if (rawCell !== undefined)
      cell.ratioToRaw = rawCell.serverCpuMicrosPerRequest / cell.serverCpuMicrosPerRequest;
  }
  return cells;
}

/**
 * Paired schedule: the lowest and highest over the rounds of the geomean of that round's pair ratios
 * (one per route); undefined when the server has no pair ratios (the raw servers, a shuffled run).
 */
export function geomeanSpread(
  runs: readonly RunResult[],
  server: string,
  routes: readonly Route[],
): [number, number] | undefined {
  const byRound = new Map<number, number[]>();
  for (const run of runs) {
    if (run.server !== server || run.pairRatio === undefined) continue;
    byRound.set(run.round, [...(byRound.get(run.round) ?? []), run.pairRatio]);
  }
  const perRound = [...byRound.values()].filter((ratios) => ratios.length === routes.length).map(geomean);
  return perRound.length === 0 ? undefined : [Math.min(...perRound), Math.max(...perRound)];
}

/** `0.93 (0.90-0.95)`: a ratio and, when known, the range it was the median of. */
function ratioText(ratio: number, spread: readonly [number, number] | undefined): string {
  return spread === undefined
    ? ratio.toFixed(2)
    : `${ratio.toFixed(2)} (${spread[0].toFixed(2)}-${spread[1].toFixed(2)})`;
}

export function markdownTable(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  numericFrom = 1,
): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    `| ${cells.map((c, i) => (i >= numericFrom ? c.padStart(widths[i] ?? 0) : c.padEnd(widths[i] ?? 0))).join(' | ')} |`;
  const rule = `|${widths.map((w, i) => (i >= numericFrom ? `${'-'.repeat(w + 1)}:` : '-'.repeat(w + 2))).join('|')}|`;
  return [line(header), rule, ...rows.map(line)].join('\n');
}

/** The column heading of each route id. */
const ROUTE_COLUMNS: Record<string, string> = {
  static: 'static',
  param: 'param',
  post: 'POST',
  notFound: '404',
};

export function tables(
  defs: readonly ServerDef[],
  cells: readonly Cell[],
  servers: readonly ServerSummary[],
  routes: readonly Route[],
): string {
  const columns = routes.map((r) => ROUTE_COLUMNS[r.id] ?? r.id);
  const cell = (server: string, route: Route['id']): Cell | undefined =>
    cells.find((c) => c.server === server && c.route === route);
  const ratioRows = defs.map((def) => {
    const summary = servers.find((s) => s.id === def.id);
    return [
      def.label,
      ...routes.map((r) => {
        const c = cell(def.id, r.id);
        return ratioText(c?.ratioToRaw ?? Number.NaN, c?.ratioSpread);
      }),
      ratioText(summary?.geomean ?? Number.NaN, summary?.geomeanSpread),
      `${Math.round(summary?.peakRssMB ?? Number.NaN)} MB`,
      `${Math.round(summary?.coldStartMs.median ?? Number.NaN)} ms`,
    ];
  });
  const cpuRows = defs.map((def) => [
    def.label,
    ...routes.map((r) => (cell(def.id, r.id)?.serverCpuMicrosPerRequest ?? Number.NaN).toFixed(1)),
  ]);
  const rateRows = defs.map((def) => [
    def.label,
    ...routes.map((r) => {
      const c = cell(def.id, r.id);
      if (c === undefined) return '';
      const p99 = c.p99Micros === undefined ? '' : ` / ${(c.p99Micros / 1000).toFixed(2)} ms`;
      return `${Math.round(c.requestsPerSecond).toLocaleString('en-US')}${p99}`;
    }),
  ]);
  return [
    "Server CPU per request relative to the same runtime's raw server (raw CPU/req over this CPU/req: higher is better, 1.00 = as cheap as raw; in parentheses, when paired, the lowest and highest pair ratio of the rounds):",
    '',
    markdownTable(['server', ...columns, 'geomean', 'peak RSS', 'cold start'], ratioRows),
    '',
    'Server CPU µs per request:',
    '',
    markdownTable(['server', ...columns], cpuRows),
    '',
    'Requests per second / p99 latency:',
    '',
    markdownTable(['server', ...columns], rateRows),
  ].join('\n');
}
