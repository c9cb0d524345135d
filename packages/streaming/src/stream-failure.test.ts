import { describe, expect, test } from 'bun:test';
import { BadRequestError, httpError, InternalError } from '@charter/core';
import { resolveErrorHandler, streamingFailureProblem } from './stream-failure.ts';

describe('streamingFailureProblem', () => {
  test('an unknown error becomes the generic 500 problem, without its message', () => {
    expect(streamingFailureProblem(new Error('connection string: postgres://u:p@db'))).toEqual({
      type: 'https://charter.dev/errors/internal',
      title: 'Internal Server Error',
      status: 500,
    });
    expect(streamingFailureProblem('a thrown string')).toEqual(streamingFailureProblem(undefined));
  });

  test('an InternalError loses its detail and extensions', () => {
    const problem = streamingFailureProblem(
      new InternalError({ detail: 'stack here', extensions: { sql: 'x' } }),
    );
    expect(problem).toEqual({
      type: 'https://charter.dev/errors/internal',
      title: 'Internal Server Error',
      status: 500,
    });
  });

  test('a 4xx HttpError keeps its public detail and extensions', () => {
    expect(streamingFailureProblem(new BadRequestError('cursor expired'))).toEqual({
      type: 'https://charter.dev/errors/bad-request',
      title: 'Bad Request',
      status: 400,
      detail: 'cursor expired',
    });
    const custom = httpError({ status: 410, detail: 'gone', extensions: { retryable: false } });
    expect(streamingFailureProblem(custom)).toMatchObject({ status: 410, detail: 'gone', retryable: false });
  });
});

describe('resolveErrorHandler', () => {
  test('keeps a function and refuses anything else', () => {
    const handler = (): void => {};
    expect(resolveErrorHandler(handler, 'x')).toBe(handler);
    expect(typeof resolveErrorHandler(undefined, 'x')).toBe('function');
    expect(() => resolveErrorHandler({}, 'where')).toThrow(/where: onError must be a function/);
  });
});
