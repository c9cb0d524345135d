/**
 * In-process cost breakdown of the Charter pipeline: `bun bench/pipeline.ts`.
 * No sockets: calls `app.fetch` (and the plain handler) on prebuilt Requests, so what is left is
 * the JavaScript cost of each server per request. Used to explain the HTTP figures; not part of
 * `bun run bench`. Env: PIPELINE_ROUNDS (default 7), PIPELINE_ITERATIONS (default 100000).
 */
import type { AppOptions } from '@charter/core';
import { readAndParseBody } from '../packages/core/src/pipeline/body.ts';
import { RequestTimeouts } from '../packages/core/src/pipeline/timeout.ts';
import { Exchange } from '../packages/core/src/pipeline/context.ts';
import { type } from 'arktype';
import { charterApp, NewUser, plainHandler, User, UserParams, UserQuery } from './apps.ts';

const ROUNDS = Number(process.env.PIPELINE_ROUNDS ?? 7);
const ITERATIONS = Number(process.env.PIPELINE_ITERATIONS ?? 100_000);
const ORIGIN = 'http://127.0.0.1:3000';
const POST_BODY = JSON.stringify({ name: 'Ada Lovelace', email: 'ada@example.com' });
const POST_INIT: RequestInit = {
  method: 'POST',
  headers: { 'content-type': 'application/json', 'content-length': String(POST_BODY.length) },
  body: POST_BODY,
};

type Op = () => unknown;

let sink = 0;

/** Median ns per call of `op` (awaited when it returns a promise). */
async function time(op: Op): Promise<number> {
  const samples: number[] = [];
  for (let round = 0; round < ROUNDS + 1; round++) {
    const start = Bun.nanoseconds();
    for (let i = 0; i < ITERATIONS; i++) {
      let out = op();
      if (out instanceof Promise) out = await out;
      if (out instanceof Response) sink += out.status;
    }
    // Round 0 is warm-up.
    if (round > 0) samples.push((Bun.nanoseconds() - start) / ITERATIONS);
  }
  samples.sort((a, b) => a - b);
  return samples[samples.length >> 1] as number;
}

const variants: Array<[string, AppOptions]> = [
  ['charter (defaults)', {}],
  ['charter requestTimeoutMs: 0', { requestTimeoutMs: 0 }],
  ['charter validateResponses: false', { validateResponses: false }],
  [
    'charter both off + maxHeaderCount: 0',
    { requestTimeoutMs: 0, validateResponses: false, maxHeaderCount: 0 },
  ],
];

interface Scenario {
  name: string;
  /** A fresh Request when it has a body (bodies are read once), else the same one reused. */
  request: () => Request;
  fresh: boolean;
  /** Bun's native route table answers /health without the router: use the adapter route. */
  nativeRoute?: string;
}

const getHealth = new Request(`${ORIGIN}/health`);
const getUser = new Request(`${ORIGIN}/users/42?fields=name`);
const scenarios: Scenario[] = [
  { name: 'GET /health (adapter route)', request: () => getHealth, fresh: false, nativeRoute: '/health' },
  { name: 'GET /users/42?fields=name', request: () => getUser, fresh: false },
  { name: 'POST /users', request: () => new Request(`${ORIGIN}/users`, POST_INIT), fresh: true },
];

const rows: Array<[string, string, number]> = [];

for (const scenario of scenarios) {
  const plain = plainHandler();
  const plainSame = plainHandler({ sameWork: true });
  const baseline = scenario.fresh ? await time(() => scenario.request()) : 0;
  if (scenario.fresh) rows.push([scenario.name, 'new Request() alone (subtracted below)', baseline]);
  rows.push([scenario.name, 'plain handler', (await time(() => plain(scenario.request()))) - baseline]);
  rows.push([
    scenario.name,
    'plain-same handler (same work)',
    (await time(() => plainSame(scenario.request()))) - baseline,
  ]);
  for (const [label, options] of variants) {
    const app = charterApp(options);
    await app.ready();
    let handler: (request: Request) => Response | Promise<Response> = app.handle;
    if (scenario.nativeRoute !== undefined) {
      const route = app.adapterRoutes().find((r) => r.path === scenario.nativeRoute && r.method === 'GET');
      if (route === undefined) throw new Error(`no adapter route for ${scenario.nativeRoute}`);
      handler = route.handle;
    }
    const probe = await handler(scenario.request());
    if (probe.status >= 300)
      throw new Error(`${label} ${scenario.name}: ${probe.status} ${await probe.text()}`);
    rows.push([scenario.name, label, (await time(() => handler(scenario.request()))) - baseline]);
  }
}

// Pieces, each on its own.
const ParseParams = type({ id: 'string.integer.parse' });
const decoder = new TextDecoder('utf-8', { fatal: true });
const bodyOptions = {
  limit: 1024 * 1024,
  allowed: ['application/json'],
  multipart: { maxFileBytes: 1, maxFields: 1, maxFiles: 1 },
};
const makePost = (): Request => new Request(`${ORIGIN}/users`, POST_INIT);
const postBaseline = await time(makePost);
const timeouts = new RequestTimeouts(30_000, 408);
const same = (_host: unknown, _exchange: unknown, response: Response): Response => response;
const fail = (_host: unknown, _exchange: unknown, error: unknown): Response => {
  throw error;
};
const pieces: Array<[string, Op, number]> = [
  ['arktype UserParams({ id: 42 })', () => UserParams({ id: 42 }), 0],
  ["arktype morph { id: 'string.integer.parse' }", () => ParseParams({ id: '42' }), 0],
  ['arktype UserQuery({ fields: "name" })', () => UserQuery({ fields: 'name' }), 0],
  [
    'arktype User(user) (response check)',
    () => User({ id: 42, name: 'Ada Lovelace', email: 'ada@example.com' }),
    0,
  ],
  ['arktype NewUser(body)', () => NewUser({ name: 'Ada Lovelace', email: 'ada@example.com' }), 0],
  ['URLSearchParams + fromEntries', () => Object.fromEntries(new URLSearchParams('fields=name')), 0],
  ['await request.json()', () => makePost().json(), postBaseline],
  [
    'request.body + bytes() + decode + JSON.parse',
    async () => {
      const request = makePost();
      if (request.body === null) return undefined;
      return JSON.parse(decoder.decode(await request.bytes()));
    },
    postBaseline,
  ],
  [
    'core readAndParseBody()',
    () => readAndParseBody(makePost(), bodyOptions) as Promise<unknown>,
    postBaseline,
  ],
  [
    'core RequestTimeouts.watch(resolved)',
    () =>
      timeouts.watch(
        Promise.resolve(new Response(null)),
        new Exchange(getUser, () => undefined),
        undefined,
        same,
        fail,
      ),
    0,
  ],
  ['Promise.resolve(new Response(null))', () => Promise.resolve(new Response(null)), 0],
  [
    'new Response(json, { headers: new Headers() })',
    () => {
      const headers = new Headers(undefined);
      if (!headers.has('content-type')) headers.set('content-type', 'application/json');
      return new Response('{"status":"ok"}', { status: 200, headers });
    },
    0,
  ],
  [
    'new Response(json, { headers: {...} })',
    () => new Response('{"status":"ok"}', { status: 200, headers: { 'content-type': 'application/json' } }),
    0,
  ],
];
for (const [label, op, base] of pieces) rows.push(['pieces', label, (await time(op)) - base]);

const width = Math.max(...rows.map(([, label]) => label.length));
console.log(
  `Bun ${Bun.version}, median of ${ROUNDS} rounds x ${ITERATIONS.toLocaleString('en-US')} calls, ns/op\n`,
);
let current = '';
for (const [group, label, ns] of rows) {
  if (group !== current) {
    console.log(`\n${group}`);
    current = group;
  }
  console.log(`  ${label.padEnd(width)} ${ns.toFixed(0).padStart(7)}`);
}
console.log(`\n(sink ${sink})`);
