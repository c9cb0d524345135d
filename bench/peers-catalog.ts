/**
 * The peers benchmark's catalogue (`bench/peers.ts`): the servers it can run (bench/peers/, each
 * runtime's raw server first, the denominator of the ratios) and the routes and bad requests every
 * one of them answers, with the environment variables that select among them (BENCH_SERVERS,
 * BENCH_RUNTIMES, BENCH_AA, BENCH_CHARTER_DIST_B, BENCH_ROUTES).
 */
/** BENCH_AA=1: a second instance of each runtime's raw server runs as a peer; its ratio, 1 by construction, shows the method's error. */
export const AA = process.env.BENCH_AA === '1';

export type Runtime = 'bun' | 'node';

export interface ServerDef {
  id: string;
  label: string;
  runtime: Runtime;
  /** File in bench/peers/, run as `<runtime> <file> <port> ...args`. */
  file: string;
  args?: string[];
  /** The runtime's raw server: the denominator of the ratios. */
  raw?: boolean;
  /** The charter build this server loads, when not the run's own (BENCH_CHARTER_DIST_B). */
  dist?: string;
  /** BENCH_AA: a second instance of the raw server, measured as a peer. */
  aa?: boolean;
}

export const ALL_SERVERS: readonly ServerDef[] = [
  {
    id: 'bun-raw',
    runtime: 'bun',
    file: 'bun-raw.ts',
    raw: true,
    label: 'Bun: raw `Bun.serve` fetch handler',
  },
  { id: 'bun-routes', runtime: 'bun', file: 'bun-routes.ts', label: 'Bun: `Bun.serve` routes table' },
  {
    id: 'bun-raw-secure',
    runtime: 'bun',
    file: 'bun-raw-secure.ts',
    label: "Bun: raw `Bun.serve` + the work Charter's secure defaults require (floor, not a peer)",
  },
  { id: 'elysia', runtime: 'bun', file: 'elysia.ts', label: 'Bun: Elysia (TypeBox)' },
  { id: 'hono-bun', runtime: 'bun', file: 'hono-bun.ts', label: 'Bun: Hono (standard-validator + zod)' },
  {
    id: 'charter-fetch-zod',
    runtime: 'bun',
    file: 'charter-bun.ts',
    args: ['fetch', 'zod'],
    label: 'Bun: Charter, `Bun.serve({ fetch: app.fetch })`, zod',
  },
  {
    id: 'charter-bun-zod',
    runtime: 'bun',
    file: 'charter-bun.ts',
    args: ['serve', 'zod'],
    label: 'Bun: Charter, `serve()` from `charter/bun`, zod',
  },
  {
    id: 'charter-fetch-arktype',
    runtime: 'bun',
    file: 'charter-bun.ts',
    args: ['fetch', 'arktype'],
    label: 'Bun: Charter, `app.fetch`, arktype',
  },
  {
    id: 'charter-bun-arktype',
    runtime: 'bun',
    file: 'charter-bun.ts',
    args: ['serve', 'arktype'],
    label: 'Bun: Charter, `charter/bun`, arktype',
  },
  { id: 'node-raw', runtime: 'node', file: 'node-raw.mjs', raw: true, label: 'Node: raw `node:http`' },
  {
    id: 'node-raw-secure',
    runtime: 'node',
    file: 'node-raw-secure.mjs',
    label: "Node: raw `node:http` + the work Charter's secure defaults require (floor, not a peer)",
  },
  { id: 'fastify', runtime: 'node', file: 'fastify.mjs', label: 'Node: Fastify (ajv + fast-json-stringify)' },
  {
    id: 'hono-node',
    runtime: 'node',
    file: 'hono-node.mjs',
    label: 'Node: Hono on `@hono/node-server` (standard-validator + zod)',
  },
  {
    id: 'charter-node-zod',
    runtime: 'node',
    file: 'charter-node.mjs',
    args: ['zod'],
    label: 'Node: Charter, `serve()` from `charter/node`, zod',
  },
  {
    id: 'charter-node-arktype',
    runtime: 'node',
    file: 'charter-node.mjs',
    args: ['arktype'],
    label: 'Node: Charter, `charter/node`, arktype',
  },
];

export function selectedServers(): ServerDef[] {
  const runtimes = (process.env.BENCH_RUNTIMES ?? 'bun,node').split(',').map((s) => s.trim());
  const wanted = process.env.BENCH_SERVERS?.split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const id of wanted ?? []) {
    if (!ALL_SERVERS.some((s) => s.id === id)) {
      throw new Error(
        `BENCH_SERVERS: unknown server ${id} (known: ${ALL_SERVERS.map((s) => s.id).join(', ')})`,
      );
    }
  }
  const ofRuntimes = ALL_SERVERS.filter((s) => runtimes.includes(s.runtime));
  // Each runtime's raw server comes along: it is the denominator of the ratios.
  const runtimesWanted = new Set(ofRuntimes.filter((s) => wanted?.includes(s.id)).map((s) => s.runtime));
  const selected =
    wanted === undefined
      ? ofRuntimes
      : ofRuntimes.filter((s) => wanted.includes(s.id) || (s.raw === true && runtimesWanted.has(s.runtime)));
  return [...selected, ...buildB(selected), ...aaServers(selected)];
}

/** BENCH_AA=1: each runtime's raw server once more, as a peer (id suffixed `-aa`). */
function aaServers(selected: readonly ServerDef[]): ServerDef[] {
  if (!AA) return [];
  return selected
    .filter((s) => s.raw === true)
    .map((s) => ({
      ...s,
      id: `${s.id}-aa`,
      label: `${s.label}, a second instance (A/A: the method's error)`,
      raw: false,
      aa: true,
    }));
}

/**
 * BENCH_CHARTER_DIST_B: a second build of the package (another commit's dist), whose Charter servers
 * run beside the first build's in the same run (ids suffixed `@b`), so a change is measured against
 * its baseline under the same load rather than across two runs.
 */
function buildB(selected: readonly ServerDef[]): ServerDef[] {
  const dist = process.env.BENCH_CHARTER_DIST_B;
  if (dist === undefined || dist === '') return [];
  return selected
    .filter((s) => s.file.startsWith('charter'))
    .map((s) => ({ ...s, id: `${s.id}@b`, label: `${s.label} [B]`, dist }));
}

export interface Route {
  id: 'static' | 'param' | 'post' | 'notFound';
  label: string;
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
  status: number;
  /** The JSON body every server must answer (not checked on the 404: each framework words it its own way). */
  json?: unknown;
}

const ECHO = { name: 'Ada Lovelace', age: 36, tags: ['mathematics', 'engines'] };
const JSON_HEADERS = { 'content-type': 'application/json' };

export const ALL_ROUTES: readonly Route[] = [
  {
    id: 'static',
    label: 'GET /static',
    method: 'GET',
    path: '/static',
    status: 200,
    json: { message: 'Hello, World!' },
  },
  {
    id: 'param',
    label: 'GET /users/42',
    method: 'GET',
    path: '/users/42',
    status: 200,
    json: { id: 42, name: 'user 42' },
  },
  {
    id: 'post',
    label: 'POST /echo',
    method: 'POST',
    path: '/echo',
    headers: JSON_HEADERS,
    body: JSON.stringify(ECHO),
    status: 200,
    json: ECHO,
  },
  { id: 'notFound', label: 'GET /nope (404)', method: 'GET', path: '/nope', status: 404 },
];

/** BENCH_ROUTES: the route ids to measure (static, param, post, notFound), comma-separated; all by default. */
export const ROUTES: readonly Route[] = (() => {
  const wanted = process.env.BENCH_ROUTES?.split(',').map((id) => id.trim());
  if (wanted === undefined || wanted.join('') === '') return ALL_ROUTES;
  for (const id of wanted) {
    if (!ALL_ROUTES.some((route) => route.id === id)) {
      throw new Error(`BENCH_ROUTES: unknown route ${id} (known: ${ALL_ROUTES.map((r) => r.id).join(', ')})`);
    }
  }
  return ALL_ROUTES.filter((route) => wanted.includes(route.id));
})();

/** Requests every server must refuse with 400 or 422. */
export const BAD_REQUESTS: ReadonlyArray<Omit<Route, 'id' | 'status'>> = [
  { label: 'GET /users/abc', method: 'GET', path: '/users/abc' },
  { label: 'GET /users/4.5', method: 'GET', path: '/users/4.5' },
  {
    label: 'POST /echo, invalid body',
    method: 'POST',
    path: '/echo',
    headers: JSON_HEADERS,
    body: JSON.stringify({ name: '', age: -1, tags: 'x' }),
  },
  {
    label: 'POST /echo, missing field',
    method: 'POST',
    path: '/echo',
    headers: JSON_HEADERS,
    body: JSON.stringify({ name: 'Ada', tags: [] }),
  },
];
