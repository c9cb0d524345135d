import { describe, expect, test } from 'bun:test';
import type { LambdaHttpEvent } from './events.ts';
import { buildRequest, eventSource, LambdaEventError } from './request.ts';

const v2 = (fields: Record<string, unknown> = {}): LambdaHttpEvent =>
  ({
    version: '2.0',
    rawPath: '/a',
    rawQueryString: '',
    headers: { host: 'api.example.com' },
    requestContext: { http: { method: 'POST', sourceIp: '192.0.2.1' }, domainName: 'api.example.com' },
    ...fields,
  }) as unknown as LambdaHttpEvent;

describe('eventSource', () => {
  test('tells the integrations apart by their documented fields', () => {
    expect(eventSource(v2())).toBe('api-gateway-v2');
    expect(
      eventSource(
        v2({ requestContext: { http: { method: 'GET' }, domainName: 'x.lambda-url.eu-west-1.on.aws' } }),
      ),
    ).toBe('function-url');
    expect(eventSource({ httpMethod: 'GET', path: '/', requestContext: { elb: {} } })).toBe('alb');
    expect(eventSource({ httpMethod: 'GET', path: '/', requestContext: { stage: 'prod' } })).toBe(
      'api-gateway-v1',
    );
  });

  test('anything else is a LambdaEventError that says what it got', () => {
    expect(() => eventSource(undefined)).toThrow(LambdaEventError);
    expect(() => eventSource(42)).toThrow('got number');
    expect(() => eventSource({ version: '2.0', requestContext: {} })).toThrow(
      'a payload 2.0 event needs requestContext.http.method and rawPath strings',
    );
    expect(() => eventSource({ requestContext: { elb: {} } })).toThrow(
      'an ALB event needs httpMethod and path strings',
    );
  });
});

describe('buildRequest', () => {
  test('a body is sized by what arrived, and dropped from a GET', async () => {
    const post = buildRequest(
      v2({ body: 'abc', headers: { host: 'h', 'content-length': '999' } }),
      'api-gateway-v2',
      {},
    );
    if (!('request' in post)) throw new Error('expected a request');
    expect(post.request.headers.get('content-length')).toBe('3');
    expect(await post.request.text()).toBe('abc');
    expect(post.peer).toBe('192.0.2.1');
    const get = buildRequest(
      v2({ body: 'abc', requestContext: { http: { method: 'GET' }, domainName: 'h' } }),
      'api-gateway-v2',
      {},
    );
    if (!('request' in get)) throw new Error('expected a request');
    expect(get.request.body).toBeNull();
    expect(get.request.headers.get('content-length')).toBeNull();
    expect(get.peer).toBeUndefined();
  });

  test('base64 must be whole quanta of the base64 alphabet', () => {
    for (const body of ['YWJj', 'YWI=', 'YQ==', '']) {
      expect('request' in buildRequest(v2({ body, isBase64Encoded: true }), 'api-gateway-v2', {})).toBe(true);
    }
    for (const body of ['YWJ', 'YW J', 'YQ===', '####']) {
      const built = buildRequest(v2({ body, isBase64Encoded: true }), 'api-gateway-v2', {});
      expect({ body, status: 'problem' in built ? built.problem.status : 200 }).toEqual({
        body,
        status: 400,
      });
    }
  });

  test('basePath is removed only as a whole leading segment', () => {
    const url = (rawPath: string) => {
      const built = buildRequest(v2({ rawPath }), 'api-gateway-v2', { basePath: '/prod' });
      return 'request' in built ? new URL(built.request.url).pathname : built.problem.status;
    };
    expect(url('/prod')).toBe('/');
    expect(url('/prod/users')).toBe('/users');
    expect(url('/production')).toBe('/production');
  });

  test('the authority is a valid Host, else the domain the platform reports, else localhost', () => {
    const urlOf = (fields: Record<string, unknown>) => {
      const built = buildRequest(v2(fields), 'api-gateway-v2', {});
      if (!('request' in built)) throw new Error('expected a request');
      return new URL(built.request.url).host;
    };
    expect(urlOf({})).toBe('api.example.com');
    expect(urlOf({ headers: {} })).toBe('api.example.com');
    expect(
      urlOf({ headers: {}, requestContext: { http: { method: 'GET' }, domainName: 'evil.example/x?' } }),
    ).toBe('localhost');
  });
});
