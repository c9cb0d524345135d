/**
 * charter/lambda, buffered handler: every documented event shape through `toLambdaHandler` (the
 * platform documentation's example events are the JSON fixtures in fixtures/lambda), good and bad
 * paths, asserting the status, headers and body of the result each integration expects. The app and
 * the adapter come from the built package (`bun run build`).
 */
import { describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App } from 'charter';
import { isTextual, LambdaEventError, type LambdaHttpEvent, toLambdaHandler } from 'charter/lambda';
import { type Echo, lambdaTestApp } from './fixtures/lambda/app.ts';
import {
  CLIENT_IP,
  EVENT_KINDS,
  eventFor,
  fromBase64,
  responseFor,
  toBase64,
} from './fixtures/lambda/events.ts';
import { HANDSHAKE_HEADERS } from '../websocket/support.ts';

type Result = Record<string, unknown> & { statusCode: number; body: string; isBase64Encoded: boolean };

function fixture(name: string): LambdaHttpEvent {
  return JSON.parse(readFileSync(join(import.meta.dir, 'fixtures', 'lambda', `${name}.json`), 'utf8'));
}

const handler = toLambdaHandler(lambdaTestApp());
const invoke = async (event: unknown, context?: Record<string, unknown>): Promise<Result> =>
  (await handler(event as LambdaHttpEvent, context)) as unknown as Result;
const echoOf = (result: Result): Echo => JSON.parse(result.body) as Echo;
const problemOf = (result: Result) =>
  JSON.parse(result.body) as { type: string; status: number; detail?: string };

describe('documented example events', () => {
  test('API Gateway REST (proxy integration): path, decoded multi-value query, headers, body, sourceIp', async () => {
    const result = await invoke(fixture('api-gateway-v1'), { awsRequestId: 'aws-req-1' });
    expect(result.statusCode).toBe(200);
    // Payload 1.0 answers with multiValueHeaders, one array per field.
    expect(Object.keys(result).sort()).toEqual([
      'body',
      'isBase64Encoded',
      'multiValueHeaders',
      'statusCode',
    ]);
    const headers = result.multiValueHeaders as Record<string, string[]>;
    expect(headers['content-type']).toEqual(['application/json']);
    expect(headers['x-content-type-options']).toEqual(['nosniff']);
    expect(result.isBase64Encoded).toBe(false);
    const echo = echoOf(result);
    expect(echo.method).toBe('POST');
    // The path without the stage (event.path), on the Host the client used.
    expect(echo.url).toBe(
      'https://abcde12345.execute-api.us-east-1.amazonaws.com/hello/world?name=me&multivalueName=you&multivalueName=me',
    );
    expect(echo.query).toEqual([
      ['name', 'me'],
      ['multivalueName', 'you'],
      ['multivalueName', 'me'],
    ]);
    expect(echo.headers.headername).toBe('headerValue');
    expect(echo.body).toBe('{\r\n\t"a": 1\r\n}');
    expect(echo.headers['content-length']).toBe(String(new TextEncoder().encode(echo.body).length));
    expect(echo.clientIp).toBe('198.51.100.7'); // requestContext.identity.sourceIp, not X-Forwarded-For
    expect(echo.source).toBe('api-gateway-v1');
    expect(echo.requestId).toBe('41b45ea3-70b5-11e6-b7bd-69b5aaebc7d9');
    expect(echo.awsRequestId).toBe('aws-req-1');
  });

  test('HTTP API payload 1.0: multiValueHeaders win over headers, repeated query values kept', async () => {
    const result = await invoke(fixture('http-api-v1'));
    expect(result.statusCode).toBe(200);
    const echo = echoOf(result);
    expect(echo.method).toBe('GET');
    expect(echo.query).toEqual([
      ['parameter1', 'value1'],
      ['parameter1', 'value2'],
      ['parameter2', 'value'],
    ]);
    // `headers` says "value2", `multiValueHeaders` has both: a repeated field is one comma-joined value.
    expect(echo.headers.header2).toBe('value1, value2');
    expect(echo.clientIp).toBe('192.0.2.33');
    expect(echo.source).toBe('api-gateway-v1');
    expect(echo.body).toBe('');
  });

  test('HTTP API payload 2.0: raw query, cookies array as one Cookie field, authorizer reachable', async () => {
    const result = await invoke(fixture('api-gateway-v2'));
    expect(result.statusCode).toBe(200);
    // Payload 2.0 answers with headers (one value each) and a cookies array.
    expect(Object.keys(result).sort()).toEqual([
      'body',
      'cookies',
      'headers',
      'isBase64Encoded',
      'statusCode',
    ]);
    expect((result.headers as Record<string, string>)['content-type']).toBe('application/json');
    expect(result.cookies).toEqual([]);
    const echo = echoOf(result);
    expect(echo.method).toBe('POST');
    expect(echo.url).toBe(
      'https://id.execute-api.us-east-1.amazonaws.com/my/path?parameter1=value1&parameter1=value2&parameter2=value',
    );
    expect(echo.headers.cookie).toBe('cookie1=one; cookie2=two');
    expect(echo.headers.header2).toBe('value1,value2');
    expect(echo.body).toBe('Hello from Lambda');
    expect(echo.clientIp).toBe('192.0.2.44'); // requestContext.http.sourceIp
    expect(echo.source).toBe('api-gateway-v2');
    expect(echo.authorizer).toEqual({
      jwt: { claims: { claim1: 'value1', claim2: 'value2' }, scopes: ['scope1', 'scope2'] },
    });
  });

  test('Function URL: the 2.0 shape from a lambda-url domain', async () => {
    const result = await invoke(fixture('function-url'));
    expect(result.statusCode).toBe(200);
    expect(result.cookies).toEqual([]);
    const echo = echoOf(result);
    expect(echo.source).toBe('function-url');
    expect(echo.url).toStartWith('https://abcdefghijklmnop.lambda-url.us-east-1.on.aws/my/path?');
    expect(echo.body).toBe('Hello from client!');
    expect(echo.clientIp).toBe('203.0.113.5');
    expect((echo.authorizer as { iam: { accountId: string } }).iam.accountId).toBe('111122223333');
  });

  test('ALB, multi-value headers off: answers with headers and a statusDescription; no client address', async () => {
    const result = await invoke(fixture('alb'));
    expect(result.statusCode).toBe(200);
    expect(result.statusDescription).toBe('200 OK');
    expect(result.multiValueHeaders).toBeUndefined();
    expect((result.headers as Record<string, string>)['content-type']).toBe('application/json');
    const echo = echoOf(result);
    expect(echo.source).toBe('alb');
    expect(echo.url).toBe('https://lambda-846800462-us-east-2.elb.amazonaws.com/?myKey=val2');
    expect(echo.headers.cookie).toBe('name2=value2');
    // The documented example is a GET with a body: Fetch refuses one (RFC 9110 §9.3.1 gives it no
    // meaning), so it is dropped with its Content-Length.
    expect(echo.body).toBe('');
    expect(echo.headers['content-length']).toBeUndefined();
    // The ALB reports no source address; with behindProxy: 'none' the App knows none.
    expect(echo.clientIp).toBeNull();
  });

  test('ALB, multi-value headers on: every query value and cookie arrives, answers with multiValueHeaders', async () => {
    const result = await invoke(fixture('alb-multi-value'));
    expect(result.statusCode).toBe(200);
    expect(result.headers).toBeUndefined();
    expect((result.multiValueHeaders as Record<string, string[]>)['content-type']).toEqual([
      'application/json',
    ]);
    const echo = echoOf(result);
    expect(echo.query).toEqual([
      ['myKey', 'val1'],
      ['myKey', 'val2'],
    ]);
    expect(echo.headers.cookie).toBe('name1=value1; name2=value2');
  });

  test('ALB health check: a GET with no Host is answered on the fallback authority', async () => {
    const result = await invoke(fixture('alb-health-check'));
    expect(result.statusCode).toBe(200);
    expect(echoOf(result).url).toBe('https://localhost/');
  });

  test('ALB behind behindProxy { hops: 1 }: the client is the address the load balancer appended', async () => {
    const alb = toLambdaHandler(lambdaTestApp({ behindProxy: { hops: 1 } }));
    const event = fixture('alb');
    (event as { headers: Record<string, string> }).headers['x-forwarded-for'] = '10.9.9.9, 72.21.198.66';
    const echo = JSON.parse(((await alb(event)) as unknown as Result).body) as Echo;
    expect(echo.clientIp).toBe('72.21.198.66');
  });
});

describe('cookies out', () => {
  const get = (kind: (typeof EVENT_KINDS)[number]) =>
    eventFor(new Request('https://api.example.com/cookies'), kind).then(invoke);

  test('payload 2.0 and Function URLs: each Set-Cookie is an entry of cookies, other fields in headers', async () => {
    for (const kind of ['api-gateway-v2', 'function-url'] as const) {
      const result = await get(kind);
      expect(result.cookies).toEqual([
        'session=abc; Path=/; HttpOnly; Secure',
        'theme=dark; Path=/; Expires=Wed, 21 Oct 2037 07:28:00 GMT',
      ]);
      const headers = result.headers as Record<string, string>;
      expect(headers['set-cookie']).toBeUndefined();
      expect(headers.vary).toBe('Accept, Cookie');
    }
  });

  test('payload 1.0: Set-Cookie in multiValueHeaders, one entry per cookie', async () => {
    for (const kind of ['api-gateway-v1', 'http-api-v1'] as const) {
      const headers = (await get(kind)).multiValueHeaders as Record<string, string[]>;
      expect(headers['set-cookie']).toEqual([
        'session=abc; Path=/; HttpOnly; Secure',
        'theme=dark; Path=/; Expires=Wed, 21 Oct 2037 07:28:00 GMT',
      ]);
    }
  });

  test('ALB with multi-value headers: both cookies; without: the last one, and a warning says why', async () => {
    const multi = (await get('alb-multi-value')).multiValueHeaders as Record<string, string[]>;
    expect(multi['set-cookie']).toHaveLength(2);
    const warnings: string[] = [];
    const logger = { debug() {}, info() {}, warn: (m: string) => void warnings.push(m), error() {} };
    const single = toLambdaHandler(lambdaTestApp({ logger }));
    const event = await eventFor(new Request('https://api.example.com/cookies'), 'alb');
    const result = (await single(event as LambdaHttpEvent)) as unknown as Result;
    expect((result.headers as Record<string, string>)['set-cookie']).toBe(
      'theme=dark; Path=/; Expires=Wed, 21 Oct 2037 07:28:00 GMT',
    );
    expect(warnings).toEqual([
      'The ALB target group has multi-value headers off: only the last of the response cookies is sent',
    ]);
  });
});

describe('binary and text bodies', () => {
  const bytes = Uint8Array.from({ length: 256 }, (_, i) => i);

  test('a base64 request body reaches the app as its bytes and comes back base64 (every event type)', async () => {
    for (const kind of EVENT_KINDS) {
      const request = new Request('https://api.example.com/binary', {
        method: 'POST',
        headers: { 'content-type': 'application/octet-stream' },
        body: bytes,
      });
      const event = await eventFor(request, kind);
      expect(event.isBase64Encoded).toBe(true);
      const result = await invoke(event);
      expect({ kind, status: result.statusCode, base64: result.isBase64Encoded }).toEqual({
        kind,
        status: 200,
        base64: true,
      });
      expect([...fromBase64(result.body)]).toEqual([...bytes]);
      const response = responseFor(result);
      expect(response.headers.get('content-type')).toBe('application/octet-stream');
    }
  });

  test('an image is base64, SVG (+xml) and JSON are text, text that is not UTF-8 is base64', async () => {
    const get = (path: string) =>
      eventFor(new Request(`https://api.example.com${path}`), 'api-gateway-v2').then(invoke);
    const image = await get('/image');
    expect(image.isBase64Encoded).toBe(true);
    expect([...fromBase64(image.body)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff]);
    const svg = await get('/svg');
    expect(svg).toMatchObject({ isBase64Encoded: false, body: '<svg xmlns="http://www.w3.org/2000/svg"/>' });
    const latin1 = await get('/latin1');
    expect(latin1.isBase64Encoded).toBe(true);
    expect([...fromBase64(latin1.body)]).toEqual([0x63, 0x61, 0x66, 0xe9]);
  });

  test('the text-or-binary rule', () => {
    expect(isTextual('text/plain', null)).toBe(true);
    expect(isTextual('application/json', null)).toBe(true);
    expect(isTextual('application/problem+json', null)).toBe(true);
    expect(isTextual('application/vnd.api+json; charset=utf-8', null)).toBe(true);
    expect(isTextual('application/x-ndjson', null)).toBe(true);
    expect(isTextual('application/custom; charset=utf-8', null)).toBe(true);
    expect(isTextual('image/png', null)).toBe(false);
    expect(isTextual('application/octet-stream', null)).toBe(false);
    expect(isTextual('application/pdf', null)).toBe(false);
    expect(isTextual(null, null)).toBe(false);
    // Compressed text is bytes.
    expect(isTextual('application/json', 'gzip')).toBe(false);
    expect(isTextual('application/json', 'identity')).toBe(true);
  });

  test('a gzip-compressed JSON answer goes out base64 with its Content-Encoding', async () => {
    const app = new App({ logger: false, behindProxy: 'none' });
    const packed = Bun.gzipSync(new TextEncoder().encode('{"ok":true}'));
    app.get(
      '/gz',
      { responses: { 200: {} }, acknowledgeNoResponseBodySchema: true },
      () =>
        new Response(packed, { headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' } }),
    );
    const event = await eventFor(new Request('https://api.example.com/gz'), 'function-url');
    const result = (await toLambdaHandler(app)(event as LambdaHttpEvent)) as unknown as Result;
    expect(result.isBase64Encoded).toBe(true);
    expect((result.headers as Record<string, string>)['content-encoding']).toBe('gzip');
    expect(new TextDecoder().decode(Bun.gunzipSync(fromBase64(result.body)))).toBe('{"ok":true}');
  });

  test('HEAD: the headers of a GET, no body', async () => {
    const result = await invoke(
      await eventFor(new Request('https://api.example.com/image', { method: 'HEAD' }), 'api-gateway-v2'),
    );
    expect(result.statusCode).toBe(200);
    expect(result.body).toBe('');
    expect(result.isBase64Encoded).toBe(false);
    expect((result.headers as Record<string, string>)['content-type']).toBe('image/png');
  });
});

describe('limits, timeouts, secure headers and problems behave as on Bun and Node', () => {
  test('a body over bodyLimitBytes is a 413 problem (declared length and actual bytes)', async () => {
    for (const kind of EVENT_KINDS) {
      const request = new Request('https://api.example.com/echo', {
        method: 'POST',
        headers: { 'content-type': 'text/plain' },
        body: 'x'.repeat(64 * 1024 + 1),
      });
      const result = await invoke(await eventFor(request, kind));
      expect({ kind, status: result.statusCode }).toEqual({ kind, status: 413 });
      expect(problemOf(result).type).toBe('https://charter.dev/errors/payload-too-large');
      const response = responseFor(result);
      expect(response.headers.get('content-type')).toBe('application/problem+json');
    }
    // The platform's own length wins over a Content-Length the client claimed.
    const event = await eventFor(
      new Request('https://api.example.com/echo', {
        method: 'POST',
        headers: { 'content-type': 'text/plain' },
        body: 'x'.repeat(70_000),
      }),
      'api-gateway-v2',
    );
    (event.headers as Record<string, string>)['content-length'] = '10';
    expect((await invoke(event)).statusCode).toBe(413);
  });

  test('a body at the limit is served', async () => {
    const request = new Request('https://api.example.com/echo', {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: 'x'.repeat(64 * 1024),
    });
    const result = await invoke(await eventFor(request, 'alb'));
    expect(result.statusCode).toBe(200);
    expect(echoOf(result).body).toHaveLength(64 * 1024);
  });

  test('the request timeout answers the timeout problem', async () => {
    const slow = toLambdaHandler(lambdaTestApp({ requestTimeoutMs: 200 }));
    const event = await eventFor(new Request('https://api.example.com/slow'), 'api-gateway-v2');
    const result = (await slow(event as LambdaHttpEvent)) as unknown as Result;
    expect(result.statusCode).toBe(408);
    expect(problemOf(result).type).toBe('https://charter.dev/errors/request-timeout');
  }, 20_000);

  test('404 and 405 are problem documents with the secure headers, in the event shape', async () => {
    const missing = await invoke(
      await eventFor(new Request('https://api.example.com/nope'), 'alb-multi-value'),
    );
    expect(missing.statusCode).toBe(404);
    expect(missing.statusDescription).toBe('404 Not Found');
    const headers = missing.multiValueHeaders as Record<string, string[]>;
    expect(headers['content-type']).toEqual(['application/problem+json']);
    expect(headers['x-frame-options']).toEqual(['DENY']);
    expect(headers['content-security-policy']?.[0]).toContain("default-src 'none'");
    const wrong = await invoke(
      await eventFor(new Request('https://api.example.com/cookies', { method: 'DELETE' }), 'api-gateway-v1'),
    );
    expect(wrong.statusCode).toBe(405);
    expect((wrong.multiValueHeaders as Record<string, string[]>).allow).toEqual(['GET, HEAD']);
  });

  test('an unexpected error is a redacted 500 in production', async () => {
    const production = toLambdaHandler(lambdaTestApp({ production: true }));
    const event = await eventFor(new Request('https://api.example.com/crash'), 'function-url');
    const result = (await production(event as LambdaHttpEvent)) as unknown as Result;
    expect(result.statusCode).toBe(500);
    expect(result.body).not.toContain('secret internal detail');
    expect(Object.keys(problemOf(result)).sort()).toEqual(['status', 'title', 'type']);
    expect((result.headers as Record<string, string>)['strict-transport-security']).toStartWith('max-age=');
  });
});

describe('a failing body', () => {
  test('a body that fails while it is read whole is the 500 problem, logged, never an invocation error', async () => {
    const errors: string[] = [];
    const logger = {
      debug() {},
      info() {},
      warn() {},
      error: (message: string) => void errors.push(message),
    };
    const app = new App({ logger, behindProxy: 'none', production: true });
    app.get(
      '/breaks',
      { responses: { 200: { contentType: 'text/plain' } }, acknowledgeNoResponseBodySchema: true },
      () => {
        let sent = false;
        const body = new ReadableStream<Uint8Array>({
          pull(controller) {
            if (sent) throw new Error('secret source failure');
            sent = true;
            controller.enqueue(new TextEncoder().encode('part one'));
          },
        });
        return new Response(body, { headers: { 'content-type': 'text/plain' } });
      },
    );
    const event = await eventFor(new Request('https://api.example.com/breaks'), 'api-gateway-v1');
    const result = (await toLambdaHandler(app)(event)) as unknown as Result;
    expect(result.statusCode).toBe(500);
    expect(result.body).not.toContain('secret source failure');
    expect(result.body).not.toContain('part one');
    expect((result.multiValueHeaders as Record<string, string[]>)['content-type']).toEqual([
      'application/problem+json',
    ]);
    expect(errors).toContain('The response body failed while it was read');
  });
});

describe('bad events', () => {
  test('an event that is not an HTTP event rejects with a LambdaEventError saying what is expected', async () => {
    const s3 = { Records: [{ eventSource: 'aws:s3', s3: { bucket: { name: 'b' } } }] };
    for (const event of [null, 'text', [], {}, s3, { requestContext: {} }]) {
      const error = await invoke(event).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(LambdaEventError);
      expect((error as Error).message).toContain('The Lambda event is not an HTTP event');
      expect((error as Error).message).toContain(
        'API Gateway REST (payload 1.0), HTTP API (payload 1.0 or 2.0)',
      );
    }
    const wrongTypes = {
      version: '2.0',
      rawPath: '/',
      requestContext: { http: { method: 'GET' } },
      headers: 'host: x',
    };
    await expect(invoke(wrongTypes)).rejects.toThrow('headers is not an object');
    const badMulti = { ...fixture('alb-multi-value'), multiValueHeaders: { host: 'one' } };
    await expect(invoke(badMulti)).rejects.toThrow('multiValueHeaders.host is not an array');
  });

  test('a body marked base64 that is not base64 is a 400 problem', async () => {
    const event = { ...fixture('api-gateway-v2'), body: 'not*base64!', isBase64Encoded: true };
    const result = await invoke(event);
    expect(result.statusCode).toBe(400);
    expect(problemOf(result).detail).toBe('The request body is marked base64 but is not valid base64');
    expect((result.headers as Record<string, string>)['content-type']).toBe('application/problem+json');
  });

  test('a header value with a line break is a 400 problem, never a crash', async () => {
    const event = fixture('api-gateway-v2') as unknown as { headers: Record<string, string> };
    event.headers['x-evil'] = 'a\r\nset-cookie: owned=1';
    const result = await invoke(event);
    expect(result.statusCode).toBe(400);
    expect(result.body).not.toContain('owned');
  });

  test('TRACE is 501, a method that is not a token is 400, a path without a leading slash is 400', async () => {
    const trace = await invoke({ ...fixture('alb'), httpMethod: 'TRACE' });
    expect(trace.statusCode).toBe(501);
    expect(trace.statusDescription).toBe('501 Not Implemented');
    const spaced = await invoke({ ...fixture('alb'), httpMethod: 'GE T' });
    expect(spaced.statusCode).toBe(400);
    const relative = await invoke({ ...fixture('api-gateway-v1'), path: 'hello' });
    expect(relative.statusCode).toBe(400);
  });

  test('a path with ? or # routes as that path, the query comes from the query fields only', async () => {
    const event = { ...fixture('http-api-v1'), path: '/my/path?admin=1#x', httpMethod: 'GET' };
    const result = await invoke(event);
    expect(result.statusCode).toBe(404); // the path /my/path%3Fadmin=1%23x, not /my/path with ?admin=1
    const query = { ...fixture('api-gateway-v2'), rawQueryString: 'a=1#frag' };
    expect(echoOf(await invoke(query)).query).toEqual([['a', '1#frag']]);
  });

  test('a Host that is not an authority is refused by the core with 400', async () => {
    const event = fixture('api-gateway-v2') as unknown as { headers: Record<string, string> };
    event.headers.host = 'evil.example/admin?';
    expect((await invoke(event)).statusCode).toBe(400);
  });
});

describe('handler creation', () => {
  test('an App with a WebSocket route is refused with the reason', () => {
    const app = new App({ logger: false });
    app.ws('/live', { message() {} });
    expect(() => toLambdaHandler(app)).toThrow(
      'toLambdaHandler: the App has WebSocket routes (/live), which AWS Lambda cannot serve',
    );
  });

  test('a WebSocket route registered after the handler was made: its handshake is a 501 problem', async () => {
    const app = new App({ logger: false });
    const late = toLambdaHandler(app);
    app.ws('/live', { message() {} });
    const event = await eventFor(
      new Request('https://api.example.com/live', { headers: HANDSHAKE_HEADERS }),
      'api-gateway-v2',
    );
    const result = (await late(event)) as unknown as Result;
    expect(result.statusCode).toBe(501);
    expect(problemOf(result).detail).toBe('WebSocket upgrades are not supported on AWS Lambda');
    expect((result.headers as Record<string, string>)['sec-websocket-accept']).toBeUndefined();
  });

  test('a production App without a proxy posture is refused, naming behindProxy', () => {
    expect(() => toLambdaHandler(new App({ logger: false, production: true }))).toThrow(
      "Set behindProxy: 'none' to use the client address API Gateway and Function URLs report",
    );
    expect(() =>
      toLambdaHandler(new App({ logger: false, production: true, behindProxy: 'none' })),
    ).not.toThrow();
  });

  test('basePath strips an HTTP API stage from rawPath; an invalid basePath throws', async () => {
    const staged = toLambdaHandler(lambdaTestApp(), { basePath: '/prod' });
    const event = { ...fixture('api-gateway-v2'), rawPath: '/prod/my/path' };
    const echo = JSON.parse(((await staged(event as LambdaHttpEvent)) as unknown as Result).body) as Echo;
    expect(new URL(echo.url).pathname).toBe('/my/path');
    const other = { ...fixture('api-gateway-v2'), rawPath: '/production/my/path' };
    expect(((await staged(other as LambdaHttpEvent)) as unknown as Result).statusCode).toBe(404);
    for (const basePath of ['prod', '/prod/', '/', '']) {
      expect(() => toLambdaHandler(lambdaTestApp(), { basePath })).toThrow('basePath must be a path');
    }
  });

  test('the client address is the one the platform reports, not a forged X-Forwarded-For', async () => {
    const request = new Request('https://api.example.com/echo', {
      headers: { 'x-forwarded-for': '6.6.6.6' },
    });
    for (const kind of ['api-gateway-v1', 'api-gateway-v2', 'function-url'] as const) {
      const event = await eventFor(request.clone(), kind);
      expect({ kind, ip: echoOf(await invoke(event)).clientIp }).toEqual({ kind, ip: CLIENT_IP });
    }
  });

  test('a request round-trips through toBase64/fromBase64 (the fixture helpers)', () => {
    const sample = Uint8Array.from([0, 1, 254, 255]);
    expect([...fromBase64(toBase64(sample))]).toEqual([0, 1, 254, 255]);
  });
});
