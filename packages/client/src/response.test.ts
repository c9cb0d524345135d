import { describe, expect, test } from 'bun:test';
import { type } from 'arktype';
import { ResponseParseError, ResponseValidationError, UnexpectedStatusError } from './errors.ts';
import { readResponse, type ResponseTarget } from './response.ts';

const target: ResponseTarget = {
  operationId: 'getThing',
  method: 'GET',
  responses: { 200: { body: type({ id: 'number' }) }, 204: {}, 404: {} },
  declared: '200, 204, 404',
};

describe('readResponse', () => {
  test('parses JSON and +json bodies of declared statuses', async () => {
    expect(await readResponse(target, Response.json({ id: 1 }), false)).toMatchObject({
      status: 200,
      body: { id: 1 },
    });
    const problem = new Response('{"title":"Not Found"}', {
      status: 404,
      headers: { 'content-type': 'application/problem+json' },
    });
    expect((await readResponse(target, problem, false)).body).toEqual({ title: 'Not Found' });
  });

  test('gives no body for 204 and for HEAD', async () => {
    expect((await readResponse(target, new Response(null, { status: 204 }), false)).body).toBeUndefined();
    const head = await readResponse({ ...target, method: 'HEAD' }, Response.json({ id: 1 }), false);
    expect(head.body).toBeUndefined();
  });

  test('reads text/* as text and anything else as a Blob', async () => {
    const text = new Response('hi', { headers: { 'content-type': 'text/csv' } });
    expect((await readResponse(target, text, false)).body).toBe('hi');
    const bytes = new Response(new Uint8Array([1]), { headers: { 'content-type': 'image/png' } });
    expect((await readResponse(target, bytes, false)).body).toBeInstanceOf(Blob);
  });

  test('rejects invalid JSON with a ResponseParseError naming status and operation', async () => {
    const broken = new Response('{', { headers: { 'content-type': 'application/json' } });
    const error = await readResponse(target, broken, false).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseParseError);
    expect((error as Error).message).toStartWith('getThing: the 200 response body is not valid JSON');
  });

  test('rejects an undeclared status with the problem, or the text when it is not JSON', async () => {
    const problem = new Response('{"title":"Unprocessable","detail":"bad id"}', {
      status: 422,
      headers: { 'content-type': 'application/problem+json', 'x-req': 'r1' },
    });
    const error = (await readResponse(target, problem, false).catch(
      (e: unknown) => e,
    )) as UnexpectedStatusError;
    expect(error).toBeInstanceOf(UnexpectedStatusError);
    expect(error.message).toBe(
      'getThing: the server answered 422 (Unprocessable: bad id), which the operation does not declare (declared: 200, 204, 404)',
    );
    expect(error.headers.get('x-req')).toBe('r1');
    const text = new Response('gateway down', {
      status: 502,
      headers: { 'content-type': 'application/json' },
    });
    const error2 = (await readResponse(target, text, false).catch(
      (e: unknown) => e,
    )) as UnexpectedStatusError;
    expect(error2.body).toBe('gateway down');
    const empty = (await readResponse(target, new Response(null, { status: 500 }), false).catch(
      (e: unknown) => e,
    )) as UnexpectedStatusError;
    expect(empty.body).toBeUndefined();
  });

  test('does not validate binary bodies, which have no JSON form', async () => {
    const bytes = new Response(new Uint8Array([1]), {
      headers: { 'content-type': 'application/octet-stream' },
    });
    expect((await readResponse(target, bytes, true)).body).toBeInstanceOf(Blob);
  });

  test('validates against the status schema only when asked', async () => {
    expect((await readResponse(target, Response.json({ id: 'x' }), false)).body).toEqual({ id: 'x' });
    const error = await readResponse(target, Response.json({ id: 'x' }), true).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).issues[0]?.path).toEqual(['id']);
  });
});
