import { describe, expect, test } from 'bun:test';
import { isOAuthErrorResult, type OAuthForm, readOAuthForm } from './form.ts';
import type { OAuthErrorResult } from './oauth-error.ts';

const FORM = 'application/x-www-form-urlencoded';
const SPEC = { known: ['grant_type', 'scope', 'resource'], repeatable: ['resource'] };

function post(body: BodyInit | null, contentType = FORM): Request {
  return new Request('http://x/oauth/token', {
    method: 'POST',
    body,
    headers: { 'content-type': contentType },
  });
}

async function form(request: Request): Promise<OAuthForm> {
  const result = await readOAuthForm(request, SPEC);
  if (isOAuthErrorResult(result)) throw new Error(`unexpected ${result.body.error}`);
  return result;
}

async function error(request: Request): Promise<OAuthErrorResult['body']> {
  const result = await readOAuthForm(request, SPEC);
  if (!isOAuthErrorResult(result)) throw new Error('expected an error');
  return result.body;
}

describe('readOAuthForm', () => {
  test('reads the known parameters, decoding percent escapes and +', async () => {
    const result = await form(post('grant_type=client_credentials&scope=docs%3Aread+x'));
    expect([...result.single]).toEqual([
      ['grant_type', 'client_credentials'],
      ['scope', 'docs:read x'],
    ]);
  });

  test('accepts a UTF-8 charset parameter, in any case', async () => {
    expect((await form(post('scope=a', `${FORM}; charset=UTF-8`))).single.get('scope')).toBe('a');
    expect(
      (await form(post('scope=a', 'Application/X-WWW-Form-Urlencoded;charset="utf-8"'))).single.size,
    ).toBe(1);
  });

  test('collects a repeatable parameter in order', async () => {
    const result = await form(post('resource=a&resource=b&resource=a'));
    expect(result.multi.get('resource')).toEqual(['a', 'b', 'a']);
  });

  test('treats empty values as absent and ignores unknown parameters, even repeated (RFC 6749 §3.2)', async () => {
    const result = await form(post('scope=&scope=docs:read&x=1&x=2&grant_type='));
    expect([...result.single]).toEqual([['scope', 'docs:read']]);
  });

  test('keeps the empty values of the names in keepEmpty, for the endpoint to refuse (RFC 8707 §2)', async () => {
    const kept = await readOAuthForm(post('resource=&resource=a&scope='), {
      ...SPEC,
      keepEmpty: ['resource'],
    });
    if (isOAuthErrorResult(kept)) throw new Error('unexpected error');
    expect(kept.multi.get('resource')).toEqual(['', 'a']);
    expect(kept.single.has('scope')).toBe(false);
    expect((await form(post('resource=&resource=a'))).multi.get('resource')).toEqual(['a']);
  });

  test('refuses a known parameter given twice', async () => {
    expect(await error(post('scope=a&scope=b'))).toEqual({
      error: 'invalid_request',
      error_description: 'The parameter scope is given more than once (RFC 6749 section 3.2).',
    });
  });

  test('refuses other media types, a missing Content-Type and another charset', async () => {
    for (const type of [
      'application/json',
      'multipart/form-data; boundary=x',
      'text/plain',
      `${FORM}; charset=latin1`,
    ]) {
      expect((await error(post('scope=a', type))).error).toBe('invalid_request');
    }
    const request = new Request('http://x/', { method: 'POST', body: 'scope=a' });
    request.headers.delete('content-type');
    expect((await error(request)).error_description).toContain('application/x-www-form-urlencoded');
  });

  test('refuses a body that is not UTF-8', async () => {
    expect(await error(post(new Uint8Array([0x73, 0x3d, 0xff])))).toEqual({
      error: 'invalid_request',
      error_description: 'The request body is not valid UTF-8.',
    });
  });

  test('reads an empty body as no parameters', async () => {
    expect((await form(post(null))).single.size).toBe(0);
  });
});
