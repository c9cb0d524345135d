import { describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { decodeReferences, escapeHtml, escapeHtmlKeepingReferences, unescapeHtml } from './escape.ts';

describe('escapeHtml', () => {
  test('escapes the five characters that matter in text and quoted attributes', () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe(
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;',
    );
    expect(escapeHtml('plain')).toBe('plain');
  });

  test('is reversed exactly by unescapeHtml, for any string', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const escaped = escapeHtml(text);
        expect(escaped).not.toMatch(/[<>"']/);
        expect(unescapeHtml(escaped)).toBe(text);
      }),
      { numRuns: 500 },
    );
  });
});

describe('escapeHtmlKeepingReferences', () => {
  test('keeps well-formed character references and escapes everything else', () => {
    expect(escapeHtmlKeepingReferences('&copy; &#65; &#x41; & &; &#; &#xZ; <b>')).toBe(
      '&copy; &#65; &#x41; &amp; &amp;; &amp;#; &amp;#xZ; &lt;b&gt;',
    );
  });

  test('never lets a < or a quote through', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom('&', '#', 'x', '4', '1', ';', '<', '"', 'a') }),
        (text) => {
          expect(escapeHtmlKeepingReferences(text)).not.toMatch(/[<>"']/);
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('decodeReferences', () => {
  test('decodes numeric references and a few named ones, leaving unknown names as written', () => {
    expect(decodeReferences('&#106;&#x61;&#X76; &amp;&lt;&colon;&Tab;&unknown; &#0; &#xD800;')).toBe(
      'jav &<:\t&unknown; \ufffd \ufffd',
    );
    expect(decodeReferences('no references')).toBe('no references');
  });
});
