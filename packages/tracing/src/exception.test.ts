import { describe, expect, test } from 'bun:test';
import { errorTypeOf, exceptionFor } from './exception.ts';

class PaymentGatewayError extends Error {}

describe('errorTypeOf', () => {
  test('names the class of an Error, subclasses included', () => {
    expect(errorTypeOf(new TypeError('x'))).toBe('TypeError');
    expect(errorTypeOf(new PaymentGatewayError('x'))).toBe('PaymentGatewayError');
  });

  test('answers _OTHER for a thrown value that is not an Error', () => {
    expect(errorTypeOf('boom')).toBe('_OTHER');
    expect(errorTypeOf({ message: 'x' })).toBe('_OTHER');
  });
});

describe('exceptionFor', () => {
  test('keeps name, message and stack outside production', () => {
    const error = new PaymentGatewayError('card 4111 declined');
    expect(exceptionFor(error, false)).toEqual({
      name: 'PaymentGatewayError',
      message: 'card 4111 declined',
      stack: error.stack,
    });
  });

  test('redacts the message in production and keeps only stack frames', () => {
    const error = new PaymentGatewayError('card 4111 declined\nsecond line');
    const out = exceptionFor(error, true);
    expect(out.name).toBe('PaymentGatewayError');
    expect(out.message).toBe('REDACTED');
    expect(out.stack).toBeString();
    expect(out.stack).not.toContain('4111');
    expect(out.stack).not.toContain('second line');
    expect(out.stack?.split('\n').every((line) => line.trimStart().startsWith('at '))).toBe(true);
  });

  test('shows a thrown non-Error value only outside production, even when its toString throws', () => {
    expect(exceptionFor('token=abc', false)).toEqual({ name: '_OTHER', message: 'token=abc' });
    expect(exceptionFor('token=abc', true)).toEqual({ name: '_OTHER', message: 'REDACTED' });
    const hostile = {
      toString() {
        throw new Error('no');
      },
    };
    expect(exceptionFor(hostile, false)).toEqual({ name: '_OTHER', message: 'object' });
  });
});
