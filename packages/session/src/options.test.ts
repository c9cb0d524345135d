import { afterEach, describe, expect, test } from 'bun:test';
import { memorySessionStore } from './memory-store.ts';
import { resolveSessionOptions, type SessionOptions } from './options.ts';

const SECRET = 'q8Vd-2nTz!kP4sLw9Xe7Rb3Hc6Jm';
const savedEnv = process.env.NODE_ENV;
afterEach(() => {
  process.env.NODE_ENV = savedEnv;
});

function resolve(options: Partial<SessionOptions> = {}) {
  return resolveSessionOptions({ secret: SECRET, ...options });
}

describe('resolveSessionOptions', () => {
  test('fills the defaults: 30 minutes idle, 8 hours absolute, touch after 60 s, Strict HttpOnly cookie', () => {
    const resolved = resolve({ cookie: { secure: true } });
    expect(resolved.idleMs).toBe(1_800_000);
    expect(resolved.absoluteMs).toBe(28_800_000);
    expect(resolved.touchAfterMs).toBe(60_000);
    expect(resolved.cookieName).toBe('__Host-sid');
    expect(resolved.cookie).toEqual({
      secure: true,
      httpOnly: true,
      sameSite: 'Strict',
      path: '/',
      partitioned: false,
    });
    expect(resolved.persistent).toBe(false);
    expect(typeof resolved.store.get).toBe('function');
    expect(Object.isFrozen(resolved)).toBe(true);
  });

  test('names the cookie by what its attributes allow', () => {
    expect(resolve({ cookie: { secure: false } }).cookieName).toBe('sid');
    expect(resolve({ cookie: { secure: true, path: '/app' } }).cookieName).toBe('__Secure-sid');
    expect(resolve({ cookie: { secure: true, domain: 'example.com' } }).cookieName).toBe('__Secure-sid');
    expect(resolve({ cookie: { secure: false, name: 'app_session' } }).cookieName).toBe('app_session');
  });

  test('makes the cookie Secure by default in production only', () => {
    process.env.NODE_ENV = 'production';
    expect(resolve().cookie.secure).toBe(true);
    expect(resolve().cookieName).toBe('__Host-sid');
    process.env.NODE_ENV = 'development';
    expect(resolve().cookie.secure).toBe(false);
    expect(resolve().cookieName).toBe('sid');
  });

  test('refuses a cookie a browser would reject or production forbids, naming the option', () => {
    expect(() => resolve({ cookie: { secure: false, name: '__Host-sid' } })).toThrow(
      'session option "cookie" is invalid: session cookie "__Host-sid": the __Host- prefix requires Secure',
    );
    expect(() => resolve({ cookie: { secure: true, name: '__Host-sid', path: '/app' } })).toThrow('Path=/');
    expect(() => resolve({ cookie: { secure: false, sameSite: 'None' } })).toThrow(
      'SameSite=None requires Secure',
    );
    expect(() => resolve({ cookie: { name: 'bad name' } })).toThrow('"cookie.name" must be a cookie name');
    expect(() => resolve({ cookie: { secure: 'yes' as never } })).toThrow(
      '"cookie.secure" must be a boolean',
    );
    process.env.NODE_ENV = 'production';
    expect(() => resolve({ cookie: { secure: false } })).toThrow('production cookies must be Secure');
  });

  test('refuses a missing or empty secret at construction', () => {
    expect(() => resolveSessionOptions({} as never)).toThrow('session option "secret" is required');
    expect(() => resolve({ secret: '' })).toThrow('session option "secret" must not be empty');
    expect(() => resolve({ secret: [] })).toThrow('must not be an empty list');
    expect(() => resolveSessionOptions(undefined as never)).toThrow(TypeError);
  });

  test('keeps every secret of a rotation list, first one signing', () => {
    const resolved = resolve({ secret: [SECRET, 'older-secret-Zt5pW2qLx8N'] });
    expect(resolved.secretValues).toEqual([SECRET, 'older-secret-Zt5pW2qLx8N']);
    expect(resolved.secrets).toHaveLength(2);
  });

  test('refuses a store without the contract methods', () => {
    expect(() => resolve({ store: { get() {}, set() {} } as never })).toThrow('has no delete(…) method');
    expect(() => resolve({ store: { ...memorySessionStore(), touch: 1 } as never })).toThrow(
      'touch must be a function',
    );
  });

  test('refuses timeouts that are not positive, or that contradict each other', () => {
    expect(() => resolve({ idleTimeoutSeconds: 0 })).toThrow('"idleTimeoutSeconds" must be a finite number');
    expect(() => resolve({ absoluteTimeoutSeconds: Number.POSITIVE_INFINITY })).toThrow(RangeError);
    expect(() => resolve({ idleTimeoutSeconds: 100, absoluteTimeoutSeconds: 50 })).toThrow('must not exceed');
    expect(() => resolve({ idleTimeoutSeconds: 100, touchAfterSeconds: 100 })).toThrow('must be less than');
    expect(() => resolve({ touchAfterSeconds: -1 })).toThrow('"touchAfterSeconds"');
    expect(resolve({ idleTimeoutSeconds: 100 }).touchAfterMs).toBe(10_000);
    expect(resolve({ touchAfterSeconds: 0 }).touchAfterMs).toBe(0);
  });
});
