import { describe, expect, test } from 'bun:test';
import { isSsrfError, redactUrl, SSRF_REASONS, SsrfError } from './ssrf-error.ts';

describe('SsrfError', () => {
  test('carries reason, redacted url and address', () => {
    const error = new SsrfError('address-not-allowed', new URL('http://u:secret@10.0.0.1/x'), 'refused', {
      address: '10.0.0.1',
    });
    expect(error).toBeInstanceOf(Error);
    expect([error.name, error.reason, error.url, error.address]).toEqual([
      'SsrfError',
      'address-not-allowed',
      'http://10.0.0.1/x',
      '10.0.0.1',
    ]);
    expect(new SsrfError('invalid-url', 'x', 'bad').address).toBeUndefined();
  });

  test('keeps the cause for logs', () => {
    const cause = new Error('ENOTFOUND');
    expect(new SsrfError('dns-resolution-failed', 'http://a/', 'no', { cause }).cause).toBe(cause);
  });

  test('lists exactly the seven reasons of the spec', () => {
    expect([...SSRF_REASONS].sort()).toEqual([
      'address-not-allowed',
      'credentials-in-url',
      'dns-resolution-failed',
      'host-not-allowed',
      'invalid-url',
      'protocol-not-allowed',
      'too-many-redirects',
    ]);
  });

  test('isSsrfError recognises copies from another bundle by name and reason only', () => {
    const foreign = Object.assign(new Error('x'), { name: 'SsrfError', reason: 'invalid-url' });
    expect(isSsrfError(foreign)).toBe(true);
    expect(isSsrfError(Object.assign(new Error('x'), { name: 'SsrfError', reason: 'other' }))).toBe(false);
    expect(isSsrfError(new TypeError('x'))).toBe(false);
    expect(isSsrfError(new SsrfError('invalid-url', 'x', 'x'))).toBe(true);
  });

  test('redactUrl cuts very long text', () => {
    expect(redactUrl('a'.repeat(5000))).toHaveLength(2051);
    expect(redactUrl('http://a/')).toBe('http://a/');
  });
});
