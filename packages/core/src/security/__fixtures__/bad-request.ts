// Test support only (a __fixtures__ module: never built or exported).
import { expect } from 'bun:test';
import { BadRequestError } from '../../errors/index.ts';

/** Runs `fn`, asserts that it throws a 400 `BadRequestError`, and returns the error's detail. */
export function badRequestDetail(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as BadRequestError).status).toBe(400);
    return (error as BadRequestError).detail ?? '';
  }
  throw new Error('expected a throw');
}
