/** The handler, given the event an HTTP API (payload 2.0) sends. */
import { expect, test } from 'bun:test';
import type { ApiGatewayV2Event } from 'charter/lambda';
import { handler } from '../src/lambda.ts';

function httpApiEvent(method: string, path: string, body?: unknown): ApiGatewayV2Event {
  return {
    version: '2.0',
    routeKey: '$default',
    rawPath: path,
    rawQueryString: '',
    headers: { host: 'api.example.com', 'content-type': 'application/json' },
    requestContext: {
      accountId: '123456789012',
      apiId: 'api',
      domainName: 'api.example.com',
      domainPrefix: 'api',
      http: { method, path, protocol: 'HTTP/1.1', sourceIp: '192.0.2.1', userAgent: 'test' },
      requestId: 'request-1',
      routeKey: '$default',
      stage: '$default',
      time: '01/Jan/2026:00:00:00 +0000',
      timeEpoch: 1767225600000,
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    isBase64Encoded: false,
  };
}

test('GET /hello/:name', async () => {
  const result = await handler(httpApiEvent('GET', '/hello/world'));
  expect(result).toMatchObject({ statusCode: 200 });
  expect(JSON.parse((result as { body: string }).body)).toEqual({ greeting: 'Hello, world!' });
});

test('POST /todos with a bad body is a 422 problem', async () => {
  const result = (await handler(httpApiEvent('POST', '/todos', { title: '' }))) as {
    statusCode: number;
    headers: Record<string, string>;
  };
  expect(result.statusCode).toBe(422);
  expect(result.headers['content-type']).toStartWith('application/problem+json');
});
