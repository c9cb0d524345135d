import { describe, expect, test } from 'bun:test';
import { fetchGuard } from '@charter/core';
import { A2aClientError } from './errors.ts';
import { type ExchangeSettings, exchange } from './exchange.ts';

const settings = (fetch: ExchangeSettings['fetch'], timeoutMs = 1000): ExchangeSettings => ({
  fetch,
  timeoutMs,
  maxResponseBytes: 100,
});

async function failure(promise: Promise<unknown>): Promise<A2aClientError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof A2aClientError)) throw new Error(`expected an A2aClientError, got ${String(error)}`);
  return error;
}

describe('exchange', () => {
  test('returns the status, headers and whole body', async () => {
    const answer = await exchange(
      settings(async () => new Response('hello', { status: 201, headers: { etag: '"x"' } })),
      new URL('https://a.example/'),
      { method: 'GET' },
      'test request',
    );
    expect(answer.status).toBe(201);
    expect(answer.headers.get('etag')).toBe('"x"');
    expect(new TextDecoder().decode(answer.body)).toBe('hello');
  });

  test('maps an SsrfError from the outbound guard to reason blocked', async () => {
    const error = await failure(
      exchange(
        settings(fetchGuard()),
        new URL('https://169.254.169.254/latest'),
        { method: 'GET' },
        'test request',
      ),
    );
    expect(error.reason).toBe('blocked');
    expect(error.code).toBe(0);
    expect((error.cause as Error).name).toBe('SsrfError');
  });

  test('times out a body that never ends', async () => {
    const stalled = () => new Response(new ReadableStream({ pull: () => new Promise(() => {}) }));
    const error = await failure(
      exchange(
        settings(async () => stalled(), 30),
        new URL('https://a.example/'),
        {},
        'test request',
      ),
    );
    expect(error.reason).toBe('timeout');
    expect(error.message).toContain('30 ms');
  });

  test("tells the caller's abort from a timeout, even when the fetch rejects with its own error", async () => {
    const controller = new AbortController();
    const fetch = (_input: string | URL | Request, init?: RequestInit) =>
      new Promise<Response>((_resolve, reject) => {
        init?.signal?.addEventListener('abort', () => reject(new Error('fetch aborted')));
      });
    const pending = exchange(
      settings(fetch),
      new URL('https://a.example/'),
      {},
      'test request',
      controller.signal,
    );
    controller.abort(new Error('user left'));
    const error = await failure(pending);
    expect(error.reason).toBe('aborted');
    expect((error.cause as Error).message).toBe('user left');
  });

  test('a body over the cap is too-large with the status', async () => {
    const error = await failure(
      exchange(
        settings(async () => new Response('x'.repeat(101), { status: 500 })),
        new URL('https://a.example/'),
        {},
        'r',
      ),
    );
    expect(error.reason).toBe('too-large');
    expect(error.status).toBe(500);
  });
});
