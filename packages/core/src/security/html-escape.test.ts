import { describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { escapeHtml } from './html-escape.ts';

describe('escapeHtml', () => {
  test('escapes the five characters that can open markup or close a quoted attribute', () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe(
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;',
    );
  });

  test('returns text without those characters unchanged, astral characters included', () => {
    expect(escapeHtml('plain text, ünïcode and 😀')).toBe('plain text, ünïcode and 😀');
    expect(escapeHtml('')).toBe('');
  });

  test('never lets <, >, or a quote through, and reverses exactly', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        const escaped = escapeHtml(text);
        expect(/[<>"']/.test(escaped)).toBe(false);
        const back = escaped
          .replaceAll('&lt;', '<')
          .replaceAll('&gt;', '>')
          .replaceAll('&quot;', '"')
          .replaceAll('&#39;', "'")
          .replaceAll('&amp;', '&');
        expect(back).toBe(text);
      }),
      { numRuns: 500 },
    );
  });
});
