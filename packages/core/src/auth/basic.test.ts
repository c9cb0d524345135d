import { describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { App } from '../app/index.ts';
import { hookTraitsOf } from '../types/index.ts';
import { trackedBody } from '../../../../tests/support/tracked-body.ts';
import { whoApp } from './__fixtures__/who-app.ts';
import { type BasicOptions, basic, decodeBasicCredentials, resolveBasicOptions } from './basic.ts';

const CHALLENGE = 'Basic realm="api", charset="UTF-8"';

const b64 = (text: string): string => Buffer.from(text, 'utf8').toString('base64');
const b64Bytes = (bytes: number[]): string => Buffer.from(bytes).toString('base64');

const appWith = (options: BasicOptions): App => whoApp('/me', basic(options));

const users = appWith({ users: { ada: 'correct horse', jürgen: 'pässwörd:with:colons' } });

const send = (app: App, authorization?: string, body?: ReadableStream<Uint8Array>) =>
  app.request('/me', {
    method: 'POST',
    headers: authorization === undefined ? {} : { authorization },
    ...(body && { body, duplex: 'half' }),
  } as RequestInit);

async function expect401(res: Response, detail: RegExp): Promise<Record<string, unknown>> {
  expect(res.status).toBe(401);
  expect(res.headers.get('content-type')).toBe('application/problem+json');
  expect(res.headers.get('www-authenticate')).toBe(CHALLENGE);
  const body = (await res.json()) as Record<string, unknown>;
  expect(body.type).toBe('https://charter.dev/errors/unauthorized');
  expect(String(body.detail)).toMatch(detail);
  return body;
}

describe('basic', () => {
  test('a listed user with the right password is authenticated; sub is the user name', async () => {
    const res = await send(users, `Basic ${b64('ada:correct horse')}`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ sub: 'ada', credentials: 'ada', scheme: 'basic' });
  });

  test('UTF-8 user names and passwords work, and the password is split at the first colon only', async () => {
    const res = await send(users, `Basic ${b64('jürgen:pässwörd:with:colons')}`);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { sub: string }).sub).toBe('jürgen');
  });

  test('the scheme name is case-insensitive', async () => {
    expect((await send(users, `basic ${b64('ada:correct horse')}`)).status).toBe(200);
  });

  test('a wrong password or an unknown user is a 401 with the Basic challenge, the password never echoed', async () => {
    for (const pair of ['ada:wrong horse', 'eve:correct horse', 'ada:', ':correct horse']) {
      const body = await expect401(await send(users, `Basic ${b64(pair)}`), /incorrect/);
      expect(JSON.stringify(body)).not.toContain('horse');
    }
  });

  test('no credentials, or another scheme: 401 with the challenge (charset="UTF-8", RFC 7617 §2.1)', async () => {
    await expect401(await send(users), /required/);
    await expect401(await send(users, 'Bearer abc'), /required/);
  });

  test('an unauthenticated upload is refused before its body stream is pulled', async () => {
    const { body, pulled } = trackedBody('{}');
    await expect401(await send(users, `Basic ${b64('ada:nope')}`, body), /incorrect/);
    expect(pulled()).toBe(false);
  });

  test('malformed credentials are a 401 (no error parameter exists for Basic) saying so', async () => {
    const malformed = [
      'Basic',
      'Basic !!!!',
      `Basic ${b64('no-colon-here')}`,
      `Basic ${b64Bytes([0x61, 0x3a, 0xff, 0xfe])}`, // not UTF-8
      'Basic YR==', // non-zero pad bits: a second spelling of "a"
      `Basic ${b64('ada:correct\u0000horse')}`, // CTL in the password (RFC 7617 §2)
      `Basic ${b64('ad\u007fa:x')}`,
      `Basic ${b64('ada:correct horse').replaceAll('=', '')}`,
    ];
    for (const header of malformed) await expect401(await send(users, header), /malformed/);
  });

  test('verify receives user name and password; its principal keeps its own sub', async () => {
    const seen: string[] = [];
    const app = appWith({
      verify: (username, password) => {
        seen.push(`${username}|${password}`);
        return password === 's3cret' ? { sub: 'user-17', scopes: ['read'] } : false;
      },
    });
    const res = await send(app, `Basic ${b64('ada:s3cret')}`);
    expect(await res.json()).toEqual({ sub: 'user-17', credentials: 'ada', scheme: 'basic' });
    expect(seen).toEqual(['ada|s3cret']);
  });

  test('verify answering true gets the user name as sub', async () => {
    const res = await send(appWith({ verify: () => true }), `Basic ${b64('grace:x')}`);
    expect(((await res.json()) as { sub: string }).sub).toBe('grace');
  });

  test('a verify that throws is a 500 naming no password', async () => {
    const app = appWith({
      verify: (_user, password) => {
        throw new Error(`lookup failed for ${password}`);
      },
    });
    const res = await send(app, `Basic ${b64('ada:p4ssw0rd-value')}`);
    expect(res.status).toBe(500);
    expect(await res.text()).not.toContain('p4ssw0rd-value');
  });

  test('a custom realm is used in the challenge', async () => {
    const res = await send(appWith({ users: { a: 'b' }, realm: 'admin' }));
    expect(res.headers.get('www-authenticate')).toBe('Basic realm="admin", charset="UTF-8"');
  });

  test('declares that it authenticates, and guards in preBody only', () => {
    const hooks = basic({ users: { a: 'b' } });
    expect(hookTraitsOf(hooks)).toEqual({ authenticates: true });
    expect(Object.keys(hooks)).toEqual(['preBody']);
  });
});

describe('resolveBasicOptions', () => {
  test('needs exactly one of verify and users', () => {
    expect(() => resolveBasicOptions({})).toThrow(/exactly one/);
    expect(() => resolveBasicOptions({ verify: () => true, users: { a: 'b' } })).toThrow(/exactly one/);
    expect(resolveBasicOptions({ users: { a: 'b' } }).realm).toBe('api');
  });

  test('refuses unusable users tables and bad option values', () => {
    expect(() => resolveBasicOptions({ users: {} })).toThrow(/"users"/);
    expect(() => resolveBasicOptions({ users: { 'a:b': 'x' } })).toThrow(/"users"/);
    expect(() => resolveBasicOptions({ users: { a: '' } })).toThrow(/"users"/);
    expect(() => resolveBasicOptions({ users: { a: 'x\ny' } })).toThrow(/"users"/);
    expect(() => resolveBasicOptions({ users: [] as never })).toThrow(/"users"/);
    expect(() => resolveBasicOptions({ verify: 'yes' as never })).toThrow(/"verify"/);
    expect(() => resolveBasicOptions({ users: { a: 'b' }, realm: 'é\u0100' })).toThrow(/"realm"/);
  });

  test('a users table compares against every entry: the first and the last both match', async () => {
    const { verify } = resolveBasicOptions({ users: { first: 'one', middle: 'two', last: 'three' } });
    const ctx = {} as never;
    expect(await verify('first', 'one', ctx)).toEqual({ sub: 'first' });
    expect(await verify('last', 'three', ctx)).toEqual({ sub: 'last' });
    expect(await verify('first', 'three', ctx)).toBe(false);
  });
});

/** Strings without RFC 5234 CTLs; user names also without ':'. */
const noCtl = (s: string): boolean => ![...s].some((c) => c.charCodeAt(0) < 0x20 || c === '\u007f');
const password = fc.string({ unit: 'binary', maxLength: 64 }).filter(noCtl);
const username = password.filter((s) => !s.includes(':'));

describe('decodeBasicCredentials', () => {
  test('decodes a canonical user:pass', () => {
    expect(decodeBasicCredentials('QWxhZGRpbjpvcGVuIHNlc2FtZQ==')).toEqual({
      username: 'Aladdin',
      password: 'open sesame',
    });
    expect(decodeBasicCredentials(b64(':'))).toEqual({ username: '', password: '' });
  });

  test('normalises both parts to NFC (RFC 7617 §2.1)', () => {
    expect(decodeBasicCredentials(b64('e\u0301:a\u030a'))).toEqual({
      username: '\u00e9',
      password: '\u00e5',
    });
  });

  test('refuses over-long input', () => {
    expect(decodeBasicCredentials(b64(`u:${'x'.repeat(3100)}`))).toBeUndefined();
    expect(decodeBasicCredentials(b64(`u:${'x'.repeat(3000)}`))).toBeDefined();
  });

  test('property: never throws, whatever the input', () => {
    const base64ish = fc.string({
      unit: fc.constantFrom(...'AQgw+/=Zz9:-_ \u00e9'.split('')),
      maxLength: 40,
    });
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'binary' }), base64ish), (input) => {
        decodeBasicCredentials(input);
      }),
      { numRuns: 1000 },
    );
  });

  test('property: round-trips any user-id without ":" and any password, as NFC', () => {
    fc.assert(
      fc.property(username, password, (user, pass) => {
        expect(decodeBasicCredentials(b64(`${user}:${pass}`))).toEqual({
          username: user.normalize('NFC'),
          password: pass.normalize('NFC'),
        });
      }),
      { numRuns: 500 },
    );
  });

  test('property: accepts only canonical base64 (one spelling per byte string, RFC 4648 §3.5)', () => {
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
    const printable = fc.array(fc.integer({ min: 0x20, max: 0x7e }), { minLength: 1, maxLength: 20 });
    fc.assert(
      fc.property(
        printable.filter((bytes) => (bytes.length + 2) % 3 !== 0),
        (bytes) => {
          const canonical = b64Bytes([0x75, 0x3a, ...bytes]); // "u:" + printable ASCII, so it has padding
          const last = canonical.replace(/=+$/, '').length - 1;
          // Every spelling that differs only in the pad bits of the last digit decodes to the same bytes.
          const accepted = [...alphabet].filter((digit) => {
            const variant = canonical.slice(0, last) + digit + canonical.slice(last + 1);
            return Buffer.from(variant, 'base64').equals(Buffer.from(canonical, 'base64'))
              ? decodeBasicCredentials(variant) !== undefined
              : false;
          });
          expect(accepted).toEqual([canonical.charAt(last)]);
        },
      ),
      { numRuns: 300 },
    );
  });
});
