/**
 * Prototype pollution against the default app, through both adapters over a real socket. `POST /merge`
 * feeds the parsed body to a deliberately vulnerable recursive merge (lodash.merge before
 * CVE-2018-16487): if a `__proto__`, `constructor` or `prototype` key ever reached it, Object.prototype
 * of the server process would change. After every case `GET /stats` reports the members Object.prototype
 * gained in the server process (the Bun server is this process, so it is checked here directly too).
 *
 * JSON bodies are where nesting lives, and safeJsonParse refuses the three keys with 400 at any depth it
 * scans. Query strings and form bodies are flat: the framework never builds nested objects from
 * `a[b][c]` names, so those names are inert strings; a contract that names its fields (`'+': 'reject'`)
 * refuses them with 422, and a lone `__proto__` name is dropped before validation (request-parts.ts,
 * body.ts), so it can never be assigned.
 */
import { afterEach, describe, expect, test } from 'bun:test';
import { prototypeExtras } from './fixtures/default-app.mjs';
import { expectProblem, expectServing, json, serverStats } from './fixtures/expect.ts';
import { head, type RawResponse, send, withBody } from './fixtures/raw-http.ts';
import { ADAPTERS, serveDefaultApp, type Target } from './fixtures/servers.ts';

const servers = serveDefaultApp();

const JSON_TYPE = 'application/json';
const FORM = 'application/x-www-form-urlencoded';

/** Object.prototype members gained in the server process, as it reports them. */
const serverExtras = async (target: Target): Promise<string[]> => (await serverStats(target)).prototypeExtras;

/** Neither the server process nor this one has a polluted Object.prototype; the server still serves. */
async function expectUnpolluted(target: Target): Promise<void> {
  expect(await serverExtras(target)).toEqual([]);
  expect(prototypeExtras()).toEqual([]);
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  await expectServing(target);
}

// A failing case must not leave this (shared) test process polluted for every test after it.
afterEach(() => {
  for (const name of prototypeExtras()) delete (Object.prototype as Record<string, unknown>)[name];
});

/** arktype's message for an undeclared key: names that are identifiers are written bare. */
const removed = (key: string): string =>
  /^[A-Za-z_$][\w$]*$/.test(key) ? `${key} must be removed` : `value at ["${key}"] must be removed`;

const forbidden = (key: string): string => `The JSON body contains the forbidden key "${key}"`;

const JSON_CASES: Array<{ name: string; body: string; key: string }> = [
  { name: 'top-level __proto__', body: '{"__proto__":{"polluted":1}}', key: '__proto__' },
  { name: 'nested __proto__', body: '{"a":{"b":{"__proto__":{"polluted":1}}}}', key: '__proto__' },
  { name: '__proto__ inside an array', body: '{"list":[{"__proto__":{"polluted":1}}]}', key: '__proto__' },
  { name: 'constructor.prototype', body: '{"constructor":{"prototype":{"polluted":1}}}', key: 'constructor' },
  {
    name: 'nested constructor.prototype',
    body: '{"a":{"constructor":{"prototype":{"polluted":1}}}}',
    key: 'constructor',
  },
  { name: 'prototype alone', body: '{"prototype":{"polluted":1}}', key: 'prototype' },
  {
    // JSON.parse turns the escapes back into "__proto__": a scan for the plain text alone would miss it.
    name: 'unicode-escaped \\u005f\\u005fproto\\u005f\\u005f',
    body: '{"\\u005f\\u005fproto\\u005f\\u005f":{"polluted":1}}',
    key: '__proto__',
  },
  {
    name: 'unicode-escaped constructor',
    body: '{"\\u0063onstructor":{"prototype":{"polluted":1}}}',
    key: 'constructor',
  },
];

/** `depth` objects nested under "a", with a `__proto__` payload in the innermost one. */
function deeplyNested(depth: number): string {
  return `${'{"a":'.repeat(depth)}{"__proto__":{"polluted":1}}${'}'.repeat(depth)}`;
}

for (const adapter of ADAPTERS) {
  describe(`prototype pollution, ${adapter} adapter`, () => {
    test('an ordinary nested JSON body is merged (the good path)', async () => {
      const target = servers.get(adapter);
      const exchange = await send(
        target.port,
        withBody('POST', '/merge', JSON_TYPE, '{"a":{"b":1}}', ['Connection: close']),
      );
      expect(exchange.response?.status).toBe(200);
      expect(json(exchange.response as RawResponse)).toEqual({ merged: { a: { b: 1 } } });
      await expectUnpolluted(target);
    });

    for (const c of JSON_CASES) {
      test(`JSON ${c.name}: 400 problem naming the key, nothing polluted`, async () => {
        const target = servers.get(adapter);
        const exchange = await send(
          target.port,
          withBody('POST', '/merge', JSON_TYPE, c.body, ['Connection: close']),
        );
        expectProblem(exchange.response, 400, 'bad-request', forbidden(c.key));
        await expectUnpolluted(target);
      });
    }

    test('JSON __proto__ 512 objects deep is still found (the deepest level the scan covers)', async () => {
      const target = servers.get(adapter);
      const exchange = await send(
        target.port,
        withBody('POST', '/merge', JSON_TYPE, deeplyNested(512), ['Connection: close']),
      );
      expectProblem(exchange.response, 400, 'bad-request', forbidden('__proto__'));
      await expectUnpolluted(target);
    });

    const QUERY_CASES: Array<[string, string]> = [
      ['?__proto__[polluted]=1', '__proto__[polluted]'],
      ['?constructor[prototype][x]=1', 'constructor[prototype][x]'],
      ['?__proto__.polluted=1', '__proto__.polluted'],
      ['?q=a&a[__proto__][polluted]=1', 'a[__proto__][polluted]'],
      ['?%5F%5Fproto%5F%5F%5Bpolluted%5D=1', '__proto__[polluted]'],
    ];
    for (const [query, key] of QUERY_CASES) {
      test(`query ${query}: a flat, undeclared name, refused 422 by the contract`, async () => {
        const target = servers.get(adapter);
        const exchange = await send(target.port, head('GET', `/search${query}`, ['Connection: close']));
        const problem = expectProblem(exchange.response, 422, 'validation', `query.${key}: ${removed(key)}`);
        expect(problem.issues).toEqual([{ in: 'query', path: [key], message: removed(key) }]);
        await expectUnpolluted(target);
      });
    }

    test('query ?__proto__=1: the name is dropped before validation, so there is nothing to assign', async () => {
      const target = servers.get(adapter);
      const exchange = await send(
        target.port,
        head('GET', '/search?__proto__=1&q=ok', ['Connection: close']),
      );
      expect(exchange.response?.status).toBe(200);
      expect(json(exchange.response as RawResponse)).toEqual({ q: 'ok', keys: ['q'] });
      await expectUnpolluted(target);
    });

    const FORM_CASES: Array<[string, string]> = [
      ['name=x&__proto__[polluted]=1', '__proto__[polluted]'],
      ['name=x&constructor[prototype][polluted]=1', 'constructor[prototype][polluted]'],
      ['name=x&constructor=1', 'constructor'],
      ['name=x&prototype=1', 'prototype'],
    ];
    for (const [form, key] of FORM_CASES) {
      test(`form ${form}: refused 422 by a contract that names its fields`, async () => {
        const target = servers.get(adapter);
        const exchange = await send(
          target.port,
          withBody('POST', '/profile', FORM, form, ['Connection: close']),
        );
        const problem = expectProblem(exchange.response, 422, 'validation', `body.${key}: ${removed(key)}`);
        expect(problem.issues).toEqual([{ in: 'body', path: [key], message: removed(key) }]);
        await expectUnpolluted(target);
      });
    }

    test('form bodies are flat: bracket names reach an open contract as inert strings, never nested', async () => {
      const target = servers.get(adapter);
      const form = '__proto__[polluted]=1&constructor[prototype][polluted]=1&__proto__=1';
      const exchange = await send(target.port, withBody('POST', '/merge', FORM, form, ['Connection: close']));
      expect(exchange.response?.status).toBe(200);
      // `__proto__` itself is dropped; the bracketed names stay literal keys with string values.
      expect(json(exchange.response as RawResponse)).toEqual({
        merged: { '__proto__[polluted]': '1', 'constructor[prototype][polluted]': '1' },
      });
      await expectUnpolluted(target);
    });

    // Last in the block: when it fails, the server process stays polluted.
    test('JSON __proto__ nested deeper than the key scan (513 objects) is refused, not merged', async () => {
      // The key scan (safe-json.ts) goes 512 levels deep; a body nested deeper is refused (400) rather
      // than passed on with a `__proto__` key the scan never reached, which a recursive merge would act on.
      const target = servers.get(adapter);
      const exchange = await send(
        target.port,
        withBody('POST', '/merge', JSON_TYPE, deeplyNested(513), ['Connection: close']),
      );
      expect({ status: exchange.response?.status, serverExtras: await serverExtras(target) }).toEqual({
        status: 400,
        serverExtras: [],
      });
      expectProblem(exchange.response, 400, 'bad-request', /.+/);
      await expectUnpolluted(target);
    });
  });
}
