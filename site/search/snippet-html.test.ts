import { describe, expect, test } from 'bun:test';
import { makeSnippet } from '../mcp/snippet.ts';
import { snippetHtml } from './snippet-html.ts';

describe('snippetHtml', () => {
  test('marks the highlighted terms and keeps the rest as text', () => {
    expect(snippetHtml('…the **rate** limit of **RateLimit** fields…')).toBe(
      '…the <mark>rate</mark> limit of <mark>RateLimit</mark> fields…',
    );
  });

  test('escapes markup in the page text, inside and outside a mark', () => {
    expect(snippetHtml('<script>alert(1)</script> **<img src=x onerror=y>** & "q"')).toBe(
      '&lt;script&gt;alert(1)&lt;/script&gt; <mark>&lt;img src=x onerror=y&gt;</mark> &amp; &quot;q&quot;',
    );
  });

  test("reads the index's backslash escapes back as the literal characters", () => {
    expect(snippetHtml('a \\*b\\* and \\\\ then **c**')).toBe('a *b* and \\ then <mark>c</mark>');
  });

  test('round-trips a real snippet whose text holds asterisks and backslashes', () => {
    const text = 'glob **/*.ts matches C:\\path and the word limit here';
    const snippet = makeSnippet(text, new Set(['limit'])) as string;
    expect(snippetHtml(snippet)).toBe('glob **/*.ts matches C:\\path and the word <mark>limit</mark> here');
  });

  test('closes a mark left open, so the HTML stays well formed', () => {
    expect(snippetHtml('**open')).toBe('<mark>open</mark>');
  });
});
