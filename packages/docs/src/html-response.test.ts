import { describe, expect, test } from 'bun:test';
import { docsContentSecurityPolicy } from './csp.ts';
import { docsPage } from './docs-page.ts';
import { htmlResponse } from './html-response.ts';

describe('htmlResponse', () => {
  test('answers 200 HTML with the computed policy and the page headers', async () => {
    const page = docsPage('redoc', { specUrl: '/openapi.json' });
    const response = htmlResponse(page.html, page.policy);
    expect(response.status).toBe(200);
    expect(Object.fromEntries(response.headers)).toEqual({
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': docsContentSecurityPolicy(page.policy),
      'x-content-type-options': 'nosniff',
      'cache-control': 'no-store',
      'referrer-policy': 'no-referrer',
    });
    expect(response.headers.get('content-security-policy')).toContain('worker-src blob:');
    expect(await response.text()).toBe(page.html);
  });

  test('sends the strictest policy without options', () => {
    expect(htmlResponse('<p>x</p>').headers.get('content-security-policy')).toBe(docsContentSecurityPolicy());
  });

  test('sends a whole policy of the caller in place of the computed one', () => {
    const policy = "default-src 'self'";
    const response = htmlResponse('<p>x</p>', { contentSecurityPolicy: policy, allowInlineStyles: true });
    expect(response.headers.get('content-security-policy')).toBe(policy);
  });

  test('refuses an empty or multi-line policy, unknown options and a non-string page', () => {
    expect(() => htmlResponse('x', { contentSecurityPolicy: ' ' })).toThrow(
      'contentSecurityPolicy must be a non-empty',
    );
    expect(() => htmlResponse('x', { contentSecurityPolicy: "default-src 'self'\r\nx-injected: 1" })).toThrow(
      'without control characters',
    );
    expect(() => htmlResponse('x', { status: 201 } as never)).toThrow('htmlResponse has no option "status"');
    expect(() => htmlResponse(new Uint8Array(1) as never)).toThrow('takes the page HTML as a string');
    expect(() => htmlResponse('x', { assetOrigins: ['https://a.example/path'] })).toThrow('assetOrigins[0]');
  });
});
