/**
 * The site's document says exactly what its checks accept (issue 19, found by a fuzzer driven by
 * /openapi.json): an empty introspection `token`, an empty `API-Version`, a JSON-RPC `method` of "",
 * a non-ASCII `client_id` within maxLength were refused although the schemas admitted them; the tag
 * `oauth` was declared while operations used `OAuth`; `OPTIONS /mcp` said `Allow: POST, OPTIONS`
 * while the document had a `GET /mcp`; and `resource=` (empty) gave a token for the whole origin.
 * Each case: what the document now says, a value it admits is accepted, a value it refuses is
 * refused on the wire.
 */
import { beforeAll, describe, expect, test } from 'bun:test';
import type { App } from '@charter/core';
import { siteApp } from './support.ts';

type Json = Record<string, unknown>;
type Schema = Json & { properties?: Record<string, Json> };

const ORIGIN = 'http://localhost:3000';
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

let app: App;
let doc: { paths: Record<string, Record<string, Json>>; tags: { name: string }[] };

beforeAll(async () => {
  app = await siteApp({ rateLimit: { max: 10_000, windowMs: 60_000 } });
  doc = (await (await app.request('/openapi.json')).json()) as typeof doc;
});

function formSchema(path: string): Schema {
  const body = doc.paths[path]?.post?.requestBody as {
    content: Record<string, { schema: Schema }>;
  };
  return body.content['application/x-www-form-urlencoded']?.schema as Schema;
}

function form(path: string, body: string): Promise<Response> {
  return app.request(path, { method: 'POST', headers: FORM, body });
}

async function oauthError(response: Response): Promise<string> {
  expect(response.status).toBe(400);
  expect(response.headers.get('content-type')).toBe('application/json');
  return ((await response.json()) as { error: string }).error;
}

describe('POST /oauth/introspect: token', () => {
  test('the schema requires a non-empty token', () => {
    const schema = formSchema('/oauth/introspect');
    expect(schema.required).toEqual(['token']);
    expect(schema.properties?.token).toMatchObject({ type: 'string', minLength: 1 });
  });

  test('an empty token is invalid_request; any non-empty one is answered 200', async () => {
    expect(await oauthError(await form('/oauth/introspect', 'token='))).toBe('invalid_request');
    const answer = await form('/oauth/introspect', 'token=x');
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ active: false });
  });
});

describe('POST /oauth/token: client_id and resource', () => {
  test('client_id: printable ASCII, at most 200 characters, as the pattern and maxLength say', async () => {
    const schema = formSchema('/oauth/token').properties?.client_id as { pattern: string; maxLength: number };
    expect(schema).toMatchObject({ type: 'string', maxLength: 200, pattern: '^[ -~]*$' });
    const pattern = new RegExp(schema.pattern, 'u');
    for (const id of ['agent', 'a b~!', 'x'.repeat(200)]) {
      expect(pattern.test(id)).toBe(true);
      const issued = await form(
        '/oauth/token',
        `grant_type=client_credentials&client_id=${encodeURIComponent(id)}`,
      );
      expect(issued.status).toBe(200);
    }
    for (const id of ['é', 'agent\u00a0x', 'tab\there']) {
      expect(pattern.test(id)).toBe(false);
      const refused = await form(
        '/oauth/token',
        `grant_type=client_credentials&client_id=${encodeURIComponent(id)}`,
      );
      expect(await oauthError(refused)).toBe('invalid_request');
    }
  });

  test('resource: the four resource URLs of the origin; an empty one is invalid_target (RFC 8707 §2)', async () => {
    const schema = formSchema('/oauth/token').properties?.resource as { items: { enum: string[] } };
    expect(schema.items.enum).toEqual([ORIGIN, `${ORIGIN}/mcp`, `${ORIGIN}/api/v1`, `${ORIGIN}/md`]);
    for (const resource of schema.items.enum) {
      const issued = await form(
        '/oauth/token',
        `grant_type=client_credentials&resource=${encodeURIComponent(resource)}`,
      );
      expect(issued.status).toBe(200);
    }
    for (const body of [
      'grant_type=client_credentials&resource=',
      `grant_type=client_credentials&resource=${encodeURIComponent(`${ORIGIN}/mcp`)}&resource=`,
      `grant_type=client_credentials&resource=${encodeURIComponent(`${ORIGIN}/mcp#frag`)}`,
      'grant_type=client_credentials&resource=%2Fmcp',
    ]) {
      const refused = await form('/oauth/token', body);
      expect({ body, error: await oauthError(refused) }).toEqual({ body, error: 'invalid_target' });
    }
  });
});

describe('GET /api/v1: API-Version', () => {
  test('the header parameter lists exactly the accepted values', () => {
    const parameters = doc.paths['/api/v1']?.get?.parameters as { name: string; in: string; schema: Json }[];
    const header = parameters.find(
      (parameter) => parameter.in === 'header' && parameter.name === 'api-version',
    );
    expect(header?.schema).toEqual({ enum: ['1', '1.0', '1.0.0', 'v1'] });
  });

  test('each listed value is served; an empty or other value is 400 unsupported_api_version', async () => {
    for (const value of ['1', '1.0', '1.0.0', 'v1']) {
      expect((await app.request('/api/v1', { headers: { 'api-version': value } })).status).toBe(200);
    }
    for (const value of ['', '2', 'V1']) {
      const refused = await app.request('/api/v1', { headers: { 'api-version': value } });
      expect(refused.status).toBe(400);
      expect(refused.headers.get('content-type')).toBe('application/problem+json');
      expect(((await refused.json()) as { code: string }).code).toBe('unsupported_api_version');
    }
  });
});

describe('/mcp', () => {
  const mcpPost = (body: unknown) =>
    app.request('/mcp', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify(body),
    });

  test('the JSON-RPC method is a non-empty string; "" is 400 -32600', async () => {
    const body = doc.paths['/mcp']?.post?.requestBody as { content: Record<string, { schema: Json }> };
    const schema = body.content['application/json']?.schema as { anyOf: Schema[] };
    expect(schema.anyOf[0]?.properties?.method).toEqual({ type: 'string', minLength: 1 });
    const refused = await mcpPost({ jsonrpc: '2.0', id: 1, method: '' });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: { code: number } }).error.code).toBe(-32600);
    const served = await mcpPost({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    expect(served.status).toBe(200);
  });

  test('the document lists the methods Allow lists: POST and OPTIONS, no GET', async () => {
    expect(Object.keys(doc.paths['/mcp'] ?? {}).sort()).toEqual(['options', 'post']);
    const options = await app.request('/mcp', { method: 'OPTIONS' });
    expect(options.status).toBe(204);
    expect(options.headers.get('allow')).toBe('POST, OPTIONS');
    const get = await app.request('/mcp');
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST, OPTIONS');
  });
});

describe('tags', () => {
  test('every tag an operation uses is declared, in the same spelling, and every declared tag is used', () => {
    const used = new Set<string>();
    for (const operations of Object.values(doc.paths)) {
      for (const operation of Object.values(operations)) {
        for (const tag of (operation.tags as string[] | undefined) ?? []) used.add(tag);
      }
    }
    expect([...used].sort()).toEqual(doc.tags.map((tag) => tag.name).sort());
    expect(used.has('oauth')).toBe(true);
    expect(used.has('OAuth')).toBe(false);
  });
});
