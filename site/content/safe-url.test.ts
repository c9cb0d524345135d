import { describe, expect, test } from 'bun:test';
import { safeUrl, schemeOf } from './safe-url.ts';

describe('safeUrl', () => {
  test.each([
    'javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    'java\tscript:alert(1)',
    'java\nscript:alert(1)',
    'java\rscript:alert(1)',
    '\u0000javascript:alert(1)',
    ' \u001fjavascript:alert(1)',
    'javascript:alert(1)\u0000',
    'java&#9;script:alert(1)',
    'java&Tab;script:alert(1)',
    '&#106;avascript:alert(1)',
    '&#X6a;avascript:alert(1)',
    'javascript&colon;alert(1)',
    'vbscript:msgbox(1)',
    'data:text/html,<script>alert(1)</script>',
    'Data:image/png;base64,AAAA',
    'file:///etc/passwd',
    'ftp://example.com',
    'jar:http://x!/',
    'java\u0000script:alert(1)',
    '/ok\u0007path',
  ])('refuses %p', (href) => {
    expect(safeUrl(href)).toBeUndefined();
  });

  test.each([
    ['http://example.com', 'http'],
    ['HTTPS://example.com/a?b#c', 'https'],
    ['mailto:me@example.com', 'mailto'],
    ['/docs/jwt', undefined],
    ['docs/jwt.md', undefined],
    ['../x.md#y', undefined],
    ['#install', undefined],
    ['?q=1', undefined],
    ['//example.com', undefined],
    ['java script:alert(1)', undefined],
    ['./javascript:alert(1)', undefined],
  ])('keeps %p (scheme %p)', (href, scheme) => {
    expect(safeUrl(href)).toEqual({ href, scheme });
  });

  test('strips what the URL parser strips and decodes character references', () => {
    expect(safeUrl('  https://e.x/a\tb\n ')).toEqual({ href: 'https://e.x/ab', scheme: 'https' });
    expect(safeUrl('/a&amp;b')).toEqual({ href: '/a&b', scheme: undefined });
  });
});

describe('schemeOf', () => {
  test('reads a scheme the way the URL parser does', () => {
    expect(schemeOf('web+app:x')).toBe('web+app');
    expect(schemeOf('a.b-c:x')).toBe('a.b-c');
    expect(schemeOf('1http:x')).toBeUndefined();
    expect(schemeOf('ht tp:x')).toBeUndefined();
    expect(schemeOf('/a:b')).toBeUndefined();
    expect(schemeOf('')).toBeUndefined();
  });
});
