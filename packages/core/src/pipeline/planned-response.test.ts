import { describe, expect, test } from 'bun:test';
import { App } from '../app/index.ts';
import { NotFoundError } from '../errors/index.ts';
import {
  fieldBlock,
  linkPlannedResponses,
  PlannedResponse,
  plannedAnswer,
  realResponse,
  WIRE_ANSWERS,
} from './planned-response.ts';
import { responsePayload } from './response-payload.ts';

const set = fieldBlock([
  ['content-type', 'application/json'],
  ['x-frame-options', 'DENY'],
]);
const planned = (status = 200, payload: string | null = '{"ok":true}'): Response =>
  new PlannedResponse(status, set, payload) as unknown as Response;

/** A Request from an adapter that writes planned answers (as charter/node's requests say). */
function wireRequest(path: string, init?: RequestInit): Request {
  const request = new Request(`http://localhost${path}`, init);
  Object.defineProperty(request, WIRE_ANSWERS, { value: true });
  return request;
}

describe('PlannedResponse', () => {
  test('is a Response to user code: instanceof, status, headers, body, text, clone', async () => {
    const response = planned(201);
    // What the pipeline does before a response hook receives it (the Node 24 test in
    // tests/adapters/node-web-classes.test.ts shows a fresh process linking only then).
    linkPlannedResponses();
    expect(response instanceof Response).toBe(true);
    expect(Object.prototype.toString.call(response)).toBe('[object Response]');
    expect(response.status).toBe(201);
    expect(response.ok).toBe(true);
    expect(response.bodyUsed).toBe(false);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    const copy = response.clone();
    expect(await response.json()).toEqual({ ok: true });
    expect(response.bodyUsed).toBe(true);
    expect(await copy.text()).toBe('{"ok":true}');
  });

  test('its plan is given out only while nobody built the real Response', () => {
    const response = planned();
    expect(plannedAnswer(response)).toEqual({
      status: 200,
      lines: ['content-type', 'application/json', 'x-frame-options', 'DENY'],
      payload: '{"ok":true}',
    });
    expect(responsePayload(response)).toBe('{"ok":true}');
    // A hook that reads (and may change) the headers gets the real Response: the plan is void.
    response.headers.set('x-extra', '1');
    expect(plannedAnswer(response)).toBeUndefined();
    expect(realResponse(response).headers.get('x-extra')).toBe('1');
    // The prebuilt set itself is never changed by it.
    expect(set.headers.has('x-extra')).toBe(false);
  });

  test('its text is the payload while the body is untouched, even once the headers were read', async () => {
    const response = planned();
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(plannedAnswer(response)).toBeUndefined();
    expect(responsePayload(response)).toBe('{"ok":true}');
    expect(await response.text()).toBe('{"ok":true}');
    expect(responsePayload(response)).toBeUndefined();
  });

  test('a null payload is a response without content', async () => {
    const response = planned(204, null);
    expect(plannedAnswer(response)?.payload).toBeNull();
    expect(response.body).toBeNull();
    expect(await response.text()).toBe('');
  });

  test('plannedAnswer and realResponse leave ordinary Responses alone', () => {
    const ordinary = new Response('x');
    expect(plannedAnswer(ordinary)).toBeUndefined();
    expect(realResponse(ordinary)).toBe(ordinary);
  });
});

describe('the pipeline plans answers only for adapters that ask', () => {
  const app = new App({ logger: false });
  app.get('/hi', { responses: { 200: { body: { '~standard': passThrough } } } }, () => ({
    status: 200,
    body: { hi: 'there' },
  }));

  test('a route answer and a 404 are planned for a WIRE_ANSWERS request', async () => {
    const ok = await app.handle(wireRequest('/hi'));
    expect(plannedAnswer(ok)?.payload).toBe('{"hi":"there"}');
    expect(plannedAnswer(ok)?.lines).toContain('x-content-type-options');
    const missing = await app.handle(wireRequest('/nope'));
    const answer = plannedAnswer(missing);
    expect(answer?.status).toBe(404);
    const lines = answer?.lines ?? [];
    expect(lines[lines.indexOf('content-type') + 1]).toBe('application/problem+json');
    expect(JSON.parse(answer?.payload ?? '')).toMatchObject({ status: 404 });
  });

  test('the 404 made without an error is the NotFoundError problem, member for member', async () => {
    const answer = plannedAnswer(await app.handle(wireRequest('/nope?x=1')));
    const expected = new NotFoundError('No route matches GET /nope').toProblem();
    expect(answer?.payload).toBe(JSON.stringify(expected));
    const plain = await app.request('/nope');
    expect(plain.status).toBe(404);
    expect(plain.headers.get('content-type')).toBe('application/problem+json');
    expect(plain.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await plain.json()).toEqual(expected);
  });

  test('with an onError hook, the 404 is a NotFoundError the hook receives (and may answer)', async () => {
    const seen: unknown[] = [];
    const hooked = new App({
      logger: false,
      hooks: {
        onError: (error) => {
          seen.push(error);
          return error instanceof NotFoundError ? new Response('custom', { status: 404 }) : undefined;
        },
      },
    });
    const response = await hooked.request('/missing');
    expect(seen).toHaveLength(1);
    expect(seen[0]).toBeInstanceOf(NotFoundError);
    expect((seen[0] as NotFoundError).detail).toBe('No route matches GET /missing');
    expect(response.status).toBe(404);
    expect(await response.text()).toBe('custom');
  });

  test('app.fetch and app.request (no WIRE_ANSWERS) get real Responses, as Bun.serve needs', async () => {
    const ok = await app.request('/hi');
    expect(plannedAnswer(ok)).toBeUndefined();
    expect(ok.headers.get('content-type')).toBe('application/json');
    expect(await ok.json()).toEqual({ hi: 'there' });
    const missing = await app.fetch(new Request('http://localhost/nope'));
    expect(plannedAnswer(missing)).toBeUndefined();
    expect(missing.status).toBe(404);
  });
});

const passThrough = {
  version: 1 as const,
  vendor: 'test',
  validate: (value: unknown) => ({ value }),
};

describe('fieldBlock: a fixed header set as Headers would hold it, its Headers made on first use', () => {
  const fields: Array<[string, string]> = [
    ['Content-Type', 'application/json'],
    ['X-Frame-Options', 'DENY'],
    ['cache-control', '  no-store\t'],
    ['content-type', 'application/problem+json'],
    ['Strict-Transport-Security', 'max-age=63072000; includeSubDomains'],
    ['x-empty', ''],
    ['X-Latin', 'caf\u00e9'],
  ];

  test('its lines are what Headers iterates after the same set() calls: sorted, lower case, trimmed, last wins', () => {
    const headers = new Headers();
    for (const [name, value] of fields) headers.set(name, value);
    const expected = [...headers].flat();
    const block = fieldBlock(fields);
    expect(block.lines).toEqual(expected);
    expect(block.lines).toEqual([
      'cache-control',
      'no-store',
      'content-type',
      'application/problem+json',
      'strict-transport-security',
      'max-age=63072000; includeSubDomains',
      'x-empty',
      '',
      'x-frame-options',
      'DENY',
      'x-latin',
      'caf\u00e9',
    ]);
    expect(Object.isFrozen(block.lines)).toBe(true);
  });

  test('its Headers hold the same fields, made once', () => {
    const block = fieldBlock(fields);
    const first = block.headers;
    expect(first).toBeInstanceOf(Headers);
    expect([...first].flat()).toEqual([...block.lines]);
    expect(block.headers).toBe(first);
  });

  test('refuses what Headers refuses, when the set is built', () => {
    const refusals: Array<[string, string]> = [
      ['bad name', 'x'],
      ['', 'x'],
      ['x-split', 'a\r\nset-cookie: stolen=1'],
      ['x-nul', 'a\u0000b'],
      ['x-wide', 'snow \u2603'],
    ];
    for (const field of refusals) {
      expect(() => new Headers([field])).toThrow(TypeError);
      expect(() => fieldBlock([field])).toThrow(TypeError);
    }
    expect(() => fieldBlock([['x-split', 'a\nb']])).toThrow('Invalid value for header "x-split"');
    expect(() => fieldBlock([['bad name', 'x']])).toThrow('Invalid header name: "bad name"');
  });
});
