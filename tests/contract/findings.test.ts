/**
 * The findings of issue 19 "Where the wire and the document disagree" (the scalar-body and
 * framework-answer ones), each reproduced: the request that found it, its answer, and the document
 * now listing that answer's status and media type with a schema the body passes.
 */
import { beforeAll, describe, expect, test } from 'bun:test';
import { App } from '@charter/app';
import type { App as SiteApp } from '@charter/core';
import { checkJsonSchema } from '@charter/client';
import { type } from 'arktype';
import { siteApp } from '../site/support.ts';

type Doc = { paths: Record<string, Record<string, { responses: Record<string, Listed> }>> };
type Listed = { content?: Record<string, { schema?: unknown }> };

/** Asserts the answer is what the document lists for the operation, and returns its body. */
async function expectListed(doc: Doc, path: string, method: string, res: Response): Promise<unknown> {
  const listed = doc.paths[path]?.[method]?.responses[String(res.status)];
  expect({ path, method, status: res.status, listed: listed !== undefined }).toEqual({
    path,
    method,
    status: res.status,
    listed: true,
  });
  const type = (res.headers.get('content-type') ?? '').split(';')[0] as string;
  expect(Object.keys(listed?.content ?? {})).toContain(type);
  const text = await res.text();
  const body = type.endsWith('json') ? JSON.parse(text) : text;
  expect(checkJsonSchema(listed?.content?.[type]?.schema, body, doc)).toEqual([]);
  return body;
}

describe('issue 19 findings on the site, reproduced', () => {
  const ORIGIN = 'http://localhost:3000';
  let site: SiteApp;
  let doc: Doc;
  beforeAll(async () => {
    site = await siteApp({ rateLimit: { max: 1_000_000, windowMs: 60_000 } });
    doc = (await (await site.fetch(new Request(`${ORIGIN}/openapi.json`))).json()) as Doc;
  });

  test('control characters in a path: 400, listed as a problem document', async () => {
    const res = await site.fetch(new Request(`${ORIGIN}/md/a%00b`));
    expect(res.status).toBe(400);
    expect(await expectListed(doc, '/md/{path}', 'get', res)).toMatchObject({ status: 400 });
  });

  for (const path of ['/md', '/docs-md', '/llms.txt', '/openapi.json']) {
    test(`Authorization: Bearer without a token on ${path}: 400, listed`, async () => {
      const res = await site.fetch(
        new Request(`${ORIGIN}${path}`, { headers: { authorization: 'Bearer ' } }),
      );
      expect(res.status).toBe(400);
      await expectListed(doc, path, 'get', res);
    });
  }

  test('a problem+json 400 on POST /mcp, listed beside the JSON-RPC body', async () => {
    const res = await site.fetch(
      new Request(`${ORIGIN}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: '{',
      }),
    );
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    await expectListed(doc, '/mcp', 'post', res);
  });

  test('too many header fields: 431 (the runtime answers 431 for oversized ones too), listed', async () => {
    const headers = new Headers();
    for (let i = 0; i < 120; i++) headers.set(`x-filler-${i}`, 'x');
    const res = await site.fetch(new Request(`${ORIGIN}/llms.txt`, { headers }));
    expect(res.status).toBe(431);
    await expectListed(doc, '/llms.txt', 'get', res);
    for (const item of Object.values(doc.paths)) {
      for (const operation of Object.values(item)) expect(operation.responses['431']).toBeDefined();
    }
  });
});

describe('issue 19 findings on a small app, reproduced', () => {
  function app(): App {
    const a = new App({ logger: false, openapi: true });
    a.get(
      '/files/:name',
      {
        operationId: 'getFile',
        request: { params: type({ name: '0 < string <= 8' }) },
        responses: { 200: { body: type('string') } },
      },
      (ctx) => ({ status: 200, body: `file ${ctx.params.name}` }),
    );
    return a;
  }

  test('a string body goes out as text/plain, and the document lists text/plain', async () => {
    const a = app();
    const doc = (await (await a.request('/openapi.json')).json()) as Doc;
    const res = await a.request('/files/a');
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await expectListed(doc, '/files/{name}', 'get', res)).toBe('file a');
    expect(Object.keys(doc.paths['/files/{name}']?.get?.responses['200']?.content ?? {})).toEqual([
      'text/plain',
    ]);
  });

  test('a path parameter over its maxLength: 422 with the validation problem, listed', async () => {
    const a = app();
    const doc = (await (await a.request('/openapi.json')).json()) as Doc;
    const res = await a.request('/files/abcdefghijk');
    expect(res.status).toBe(422);
    const body = (await expectListed(doc, '/files/{name}', 'get', res)) as { issues: { in: string }[] };
    expect(body.issues[0]?.in).toBe('params');
  });
});
