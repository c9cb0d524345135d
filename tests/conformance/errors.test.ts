import { describe, expect, test } from 'bun:test';
import {
  App,
  BadRequestError,
  checkCustomErrorResponseHeaders,
  ConflictError,
  ErrorHeaderLeakError,
  ForbiddenError,
  HttpError,
  httpError,
  InternalError,
  isHttpError,
  MethodNotAllowedError,
  NotFoundError,
  PayloadTooLargeError,
  RequestHeaderFieldsTooLargeError,
  RequestTimeoutError,
  TooManyRequestsError,
  UnauthorizedError,
  UnsupportedMediaTypeError,
  ValidationError,
} from '@charter/core';

/** An app whose only route throws what `make` returns. */
function throwing(make: () => unknown, options: { production?: boolean } = {}): App {
  const app = new App({ logger: false, ...options });
  app.get('/x', { responses: { 200: {} } }, () => {
    throw make();
  });
  return app;
}

async function problemOf(app: App): Promise<{ res: Response; body: Record<string, unknown> }> {
  const res = await app.request('/x');
  expect(res.headers.get('content-type')).toBe('application/problem+json');
  return { res, body: (await res.json()) as Record<string, unknown> };
}

const T = (code: string) => `https://charter.dev/errors/${code}`;

interface Case {
  name: string;
  make: () => HttpError;
  status: number;
  title: string;
  code: string;
  headers?: Record<string, string>;
}

const cases: Case[] = [
  {
    name: 'BadRequestError',
    make: () => new BadRequestError('bad'),
    status: 400,
    title: 'Bad Request',
    code: 'bad-request',
  },
  {
    name: 'UnauthorizedError',
    make: () => new UnauthorizedError('bad'),
    status: 401,
    title: 'Unauthorized',
    code: 'unauthorized',
    headers: { 'www-authenticate': 'Bearer realm="api"' },
  },
  {
    name: 'ForbiddenError',
    make: () => new ForbiddenError('bad'),
    status: 403,
    title: 'Forbidden',
    code: 'forbidden',
  },
  {
    name: 'NotFoundError',
    make: () => new NotFoundError('bad'),
    status: 404,
    title: 'Not Found',
    code: 'not-found',
  },
  {
    name: 'MethodNotAllowedError',
    make: () => new MethodNotAllowedError(['GET', 'HEAD'], 'bad'),
    status: 405,
    title: 'Method Not Allowed',
    code: 'method-not-allowed',
    headers: { allow: 'GET, HEAD' },
  },
  {
    name: 'RequestTimeoutError',
    make: () => new RequestTimeoutError('bad'),
    status: 408,
    title: 'Request Timeout',
    code: 'request-timeout',
  },
  {
    name: 'ConflictError',
    make: () => new ConflictError('bad'),
    status: 409,
    title: 'Conflict',
    code: 'conflict',
    headers: { 'cache-control': 'no-store' },
  },
  {
    name: 'PayloadTooLargeError',
    make: () => new PayloadTooLargeError('bad'),
    status: 413,
    title: 'Content Too Large',
    code: 'payload-too-large',
  },
  {
    name: 'UnsupportedMediaTypeError',
    make: () => new UnsupportedMediaTypeError('bad'),
    status: 415,
    title: 'Unsupported Media Type',
    code: 'unsupported-media-type',
  },
  {
    name: 'TooManyRequestsError',
    make: () => new TooManyRequestsError({ detail: 'bad', retryAfterSeconds: 30 }),
    status: 429,
    title: 'Too Many Requests',
    code: 'too-many-requests',
    headers: { 'retry-after': '30' },
  },
  {
    name: 'RequestHeaderFieldsTooLargeError',
    make: () => new RequestHeaderFieldsTooLargeError('bad'),
    status: 431,
    title: 'Request Header Fields Too Large',
    code: 'request-header-fields-too-large',
  },
  {
    name: 'InternalError',
    make: () => new InternalError('bad'),
    status: 500,
    title: 'Internal Server Error',
    code: 'internal',
  },
];

describe('error classes thrown from a handler', () => {
  for (const c of cases) {
    test(`${c.name} gives ${c.status} with its headers and an RFC 9457 body`, async () => {
      const error = c.make();
      expect(error).toBeInstanceOf(HttpError);
      expect(error).toBeInstanceOf(Error);
      expect(error.name).toBe(c.name);
      expect(error.status).toBe(c.status);
      expect(isHttpError(error)).toBe(true);
      const { res, body } = await problemOf(throwing(c.make));
      expect(res.status).toBe(c.status);
      for (const [name, value] of Object.entries(c.headers ?? {})) expect(res.headers.get(name)).toBe(value);
      expect(body).toEqual({ type: T(c.code), title: c.title, status: c.status, detail: 'bad' });
    });
  }

  test('UnauthorizedError takes a custom challenge', async () => {
    const { res, body } = await problemOf(
      throwing(() => new UnauthorizedError({ detail: 'expired', challenge: 'Bearer error="invalid_token"' })),
    );
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
    expect(body).toEqual({ type: T('unauthorized'), title: 'Unauthorized', status: 401, detail: 'expired' });
  });

  test('TooManyRequestsError defaults Retry-After to 1 second', async () => {
    const { res, body } = await problemOf(throwing(() => new TooManyRequestsError()));
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('1');
    expect(body).toEqual({ type: T('too-many-requests'), title: 'Too Many Requests', status: 429 });
  });

  test('RequestTimeoutError can carry 503 or 504 and keeps the request-timeout type', async () => {
    for (const status of [503, 504] as const) {
      const { res, body } = await problemOf(
        throwing(() => new RequestTimeoutError({ status, detail: 'slow' })),
      );
      expect(res.status).toBe(status);
      expect(body).toEqual({ type: T('request-timeout'), title: 'Request Timeout', status, detail: 'slow' });
    }
  });

  test('ValidationError gives 422 with its issues as an extension member', async () => {
    const issues = [{ in: 'body' as const, path: ['a', '0'], message: 'must be a string' }];
    const { res, body } = await problemOf(throwing(() => new ValidationError(issues)));
    expect(res.status).toBe(422);
    expect(body).toEqual({
      type: T('validation'),
      title: 'Validation Failed',
      status: 422,
      detail: 'body.a.0: must be a string',
      issues,
    });
  });

  test('an error without detail omits the member', async () => {
    const { res, body } = await problemOf(throwing(() => new ForbiddenError()));
    expect(res.status).toBe(403);
    expect(body).toEqual({ type: T('forbidden'), title: 'Forbidden', status: 403 });
    expect('detail' in body).toBe(false);
  });

  test('a base HttpError carries title, type, instance and extensions', async () => {
    const { res, body } = await problemOf(
      throwing(
        () =>
          new HttpError({
            status: 402,
            title: 'Pay Up',
            type: 'https://example.com/probs/credit',
            detail: 'Balance 30, cost 50',
            instance: '/account/12345/msgs/abc',
            extensions: { balance: 30, status: 999, title: 'ignored' },
          }),
      ),
    );
    expect(res.status).toBe(402);
    expect(body).toEqual({
      type: 'https://example.com/probs/credit',
      title: 'Pay Up',
      status: 402,
      detail: 'Balance 30, cost 50',
      instance: '/account/12345/msgs/abc',
      balance: 30,
    });
  });

  test('a status without a catalog entry uses about:blank', async () => {
    const { res, body } = await problemOf(throwing(() => new HttpError({ status: 418 })));
    expect(res.status).toBe(418);
    expect(body).toEqual({ type: 'about:blank', title: 'Client Error', status: 418 });
  });

  test('HttpError refuses a status outside 400-599', () => {
    for (const status of [200, 399, 600, 450.5]) expect(() => new HttpError({ status })).toThrow(RangeError);
  });
});

describe('httpError()', () => {
  const mapped: [number, new (...args: never[]) => HttpError][] = [
    [400, BadRequestError],
    [401, UnauthorizedError],
    [403, ForbiddenError],
    [404, NotFoundError],
    [409, ConflictError],
    [413, PayloadTooLargeError],
    [415, UnsupportedMediaTypeError],
    [429, TooManyRequestsError],
    [431, RequestHeaderFieldsTooLargeError],
    [500, InternalError],
  ];
  for (const [status, cls] of mapped) {
    test(`returns a ${cls.name} for status ${status}`, () => {
      const error = httpError({ status, detail: 'd' });
      expect(error).toBeInstanceOf(cls);
      expect(error.status).toBe(status);
      expect(error.detail).toBe('d');
    });
  }

  test('returns a plain HttpError for other statuses', async () => {
    const error = httpError({ status: 451, detail: 'legal', title: 'Unavailable For Legal Reasons' });
    expect(error.constructor).toBe(HttpError);
    const { res, body } = await problemOf(throwing(() => error));
    expect(res.status).toBe(451);
    expect(body).toEqual({
      type: 'about:blank',
      title: 'Unavailable For Legal Reasons',
      status: 451,
      detail: 'legal',
    });
  });

  test('keeps the headers a class adds', async () => {
    const { res, body } = await problemOf(throwing(() => httpError({ status: 401, detail: 'who?' })));
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer realm="api"');
    expect(body).toEqual({ type: T('unauthorized'), title: 'Unauthorized', status: 401, detail: 'who?' });
  });
});

describe('unexpected errors', () => {
  test('a plain Error gives a 500 that includes its message in development', async () => {
    const { res, body } = await problemOf(
      throwing(() => new Error('db password wrong'), { production: false }),
    );
    expect(res.status).toBe(500);
    expect(body).toEqual({
      type: T('internal'),
      title: 'Internal Server Error',
      status: 500,
      detail: 'db password wrong',
    });
  });

  test('a plain Error gives a 500 that does not contain its message in production', async () => {
    const { res, body } = await problemOf(
      throwing(() => new Error('db password wrong'), { production: true }),
    );
    expect(res.status).toBe(500);
    expect(body).toEqual({ type: T('internal'), title: 'Internal Server Error', status: 500 });
    expect(JSON.stringify(body)).not.toContain('password');
    expect([...res.headers].map(([, v]) => v).join(' ')).not.toContain('password');
  });

  test('a thrown non-Error value gives a 500', async () => {
    const { res, body } = await problemOf(throwing(() => 'just a string'));
    expect(res.status).toBe(500);
    expect(body.type).toBe(T('internal'));
    expect(JSON.stringify(body)).not.toContain('just a string');
  });

  test('InternalError detail and extensions are redacted in production', async () => {
    const { res, body } = await problemOf(
      throwing(() => new InternalError({ detail: 'pool exhausted', extensions: { host: 'db-1' } }), {
        production: true,
      }),
    );
    expect(res.status).toBe(500);
    expect(body).toEqual({ type: T('internal'), title: 'Internal Server Error', status: 500 });
  });

  test('client error detail is kept in production', async () => {
    const { res, body } = await problemOf(
      throwing(() => new NotFoundError('no user 7'), { production: true }),
    );
    expect(res.status).toBe(404);
    expect(body).toEqual({ type: T('not-found'), title: 'Not Found', status: 404, detail: 'no user 7' });
  });

  test('an error marked internal: false keeps its 5xx detail in production', async () => {
    const { res, body } = await problemOf(
      throwing(() => new HttpError({ status: 503, detail: 'maintenance until 10:00', internal: false }), {
        production: true,
      }),
    );
    expect(res.status).toBe(503);
    expect(body).toEqual({
      type: T('service-unavailable'),
      title: 'Service Unavailable',
      status: 503,
      detail: 'maintenance until 10:00',
    });
  });
});

describe('error response header allowlist', () => {
  test('checkCustomErrorResponseHeaders throws ErrorHeaderLeakError for x-debug', () => {
    let error: unknown;
    try {
      checkCustomErrorResponseHeaders({ 'X-Debug': 'SELECT * FROM users' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ErrorHeaderLeakError);
    expect((error as ErrorHeaderLeakError).header).toBe('x-debug');
    expect((error as Error).message).toContain('x-debug');
    expect((error as Error).message).not.toContain('SELECT');
  });

  test('checkCustomErrorResponseHeaders passes for retry-after and other allowlisted headers', () => {
    expect(() => checkCustomErrorResponseHeaders({ 'Retry-After': '10' })).not.toThrow();
    expect(() =>
      checkCustomErrorResponseHeaders(
        new Headers({
          'www-authenticate': 'Bearer',
          allow: 'GET',
          'cache-control': 'no-store',
          'x-request-id': '1',
        }),
      ),
    ).not.toThrow();
    expect(() => checkCustomErrorResponseHeaders(undefined)).not.toThrow();
    expect(() => checkCustomErrorResponseHeaders([])).not.toThrow();
  });

  test('an HttpError with a non-allowlisted header renders as a 500 without that header', async () => {
    const { res, body } = await problemOf(
      throwing(
        () => new ForbiddenError({ detail: 'nope', headers: { 'x-debug-query': 'SELECT secret FROM t' } }),
      ),
    );
    expect(res.status).toBe(500);
    expect(res.headers.get('x-debug-query')).toBeNull();
    expect(body.type).toBe(T('internal'));
    expect(body.status).toBe(500);
    expect(JSON.stringify(body)).not.toContain('SELECT');
  });

  test('the leak 500 is redacted in production', async () => {
    const { res, body } = await problemOf(
      throwing(() => new ForbiddenError({ headers: { 'x-debug': '1' } }), { production: true }),
    );
    expect(res.status).toBe(500);
    expect(res.headers.get('x-debug')).toBeNull();
    expect(body).toEqual({ type: T('internal'), title: 'Internal Server Error', status: 500 });
  });

  test('an HttpError with allowlisted headers sends them', async () => {
    const { res, body } = await problemOf(
      throwing(
        () =>
          new ForbiddenError({
            detail: 'see docs',
            headers: { link: '<https://example.com/docs>; rel="help"', 'retry-after': '60' },
          }),
      ),
    );
    expect(res.status).toBe(403);
    expect(res.headers.get('link')).toBe('<https://example.com/docs>; rel="help"');
    expect(res.headers.get('retry-after')).toBe('60');
    expect(body).toEqual({ type: T('forbidden'), title: 'Forbidden', status: 403, detail: 'see docs' });
  });
});
