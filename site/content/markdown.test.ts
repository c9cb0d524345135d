import { describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { highlightedLines, renderMarkdown } from './markdown.ts';

const html = (markdown: string): string => renderMarkdown(markdown).html;

/** Every tag name opened in `html`. */
function tagNames(markup: string): string[] {
  return [...markup.matchAll(/<([a-zA-Z][a-zA-Z0-9]*)/g)].map((match) => (match[1] ?? '').toLowerCase());
}

/** `[name, value]` of every attribute of every tag; the renderer escapes `>` and `"` in values. */
function attributes(markup: string): [string, string][] {
  const found: [string, string][] = [];
  for (const tag of markup.matchAll(/<[a-zA-Z][^>]*>/g)) {
    for (const attribute of tag[0].matchAll(/\s([a-zA-Z:-]+)(?:="([^"]*)")?/g)) {
      found.push([attribute[1] ?? '', attribute[2] ?? '']);
    }
  }
  return found;
}

const ALLOWED_TAGS = new Set([
  'a',
  'blockquote',
  'br',
  'code',
  'del',
  'div',
  'em',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'hr',
  'img',
  'input',
  'li',
  'ol',
  'p',
  'pre',
  'span',
  'strong',
  'table',
  'tbody',
  'td',
  'th',
  'thead',
  'tr',
  'ul',
]);

describe('renderMarkdown: raw HTML', () => {
  test('shows block HTML as text instead of passing it through', () => {
    const out = html('<script>alert(1)</script>\n\n<div onclick="x()">hi</div>\n\n<!-- note -->');
    expect(out).not.toContain('<script');
    expect(out).not.toContain('<div onclick');
    expect(out).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(out).toContain('&lt;div onclick=&quot;x()&quot;&gt;hi&lt;/div&gt;');
    expect(out).not.toContain('note');
  });

  test('drops a block that is one HTML comment (the code-block markers), and escapes anything riding after it', () => {
    expect(html('before\n\n<!-- continues -->\n\nafter')).toBe('<p>before</p>\n<p>after</p>\n');
    const out = html('<!-- a --><script>x()</script>');
    expect(out).not.toContain('<script');
    expect(out).toContain('&lt;!-- a --&gt;&lt;script&gt;');
  });

  test('shows inline HTML as text', () => {
    const out = html('a <img src=x onerror=alert(1)> b <b>bold</b> <a href="javascript:x">l</a>');
    expect(tagNames(out)).toEqual(['p']);
    expect(out).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(out).toContain('&lt;b&gt;bold&lt;/b&gt;');
  });

  test('escapes markup in headings, code spans, code blocks, tables, titles and alt text', () => {
    const out = html(
      [
        '# <svg onload=x>',
        '`<iframe>`',
        '```\n</code></pre><script>\n```',
        '| <x> | b |\n| - | - |\n| <y> | c |',
        '[t](https://e.x "<q> \\"onmouseover=x")',
        '![<img>"x](/a.png)',
      ].join('\n\n'),
    );
    expect(tagNames(out).every((tag) => ALLOWED_TAGS.has(tag))).toBe(true);
    expect(out).toContain('title="&lt;q&gt; &quot;onmouseover=x"');
    expect(out).toContain('alt="&lt;img&gt;&quot;x"');
  });

  test('keeps character references but escapes a bare ampersand', () => {
    expect(html('&copy; &#65; AT&T &lt;b&gt;')).toBe('<p>&copy; A AT&amp;T &lt;b&gt;</p>\n');
  });

  test('never emits a tag outside its own vocabulary, for any input', () => {
    const pieces = fc.constantFrom(
      '<',
      '>',
      '"',
      "'",
      '&',
      '`',
      '[',
      ']',
      '(',
      ')',
      '!',
      '*',
      '#',
      '\n',
      ' ',
      'script',
      'javascript:',
      'a',
      '|',
      '-',
      '\\',
      'on=',
    );
    fc.assert(
      fc.property(fc.array(pieces, { maxLength: 60 }), (parts) => {
        const out = html(parts.join(''));
        for (const tag of tagNames(out)) expect(ALLOWED_TAGS.has(tag)).toBe(true);
        for (const [name, value] of attributes(out)) {
          expect(name.startsWith('on')).toBe(false);
          expect(name).not.toBe('style');
          if (name === 'href' || name === 'src') expect(value.toLowerCase()).not.toContain('javascript:');
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe('renderMarkdown: link and image schemes', () => {
  const hostile = [
    'javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    'java\tscript:alert(1)',
    'java&#9;script:alert(1)',
    '&#106;avascript:alert(1)',
    '&#x6A;avascript:alert(1)',
    'javascript&colon;alert(1)',
    'jav&#x09;ascript:alert(1)',
    '<\u0001javascript:alert(1)>',
    ' javascript:alert(1)',
    'vbscript:msgbox(1)',
    'VBScript:msgbox(1)',
    'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
    'DATA:image/svg+xml,<svg/onload=alert(1)>',
    'file:///etc/passwd',
    'blob:https://x/1',
  ];

  test.each(hostile)('renders the text of a link to %p without a link', (href) => {
    const out = html(`[click me](${href})`);
    expect(out).not.toContain('<a');
    expect(out).toContain('click me');
  });

  test.each(hostile)('renders the alt text of an image from %p without an image', (href) => {
    const out = html(`![the alt](${href})`);
    expect(out).not.toContain('<img');
    expect(out).toContain('the alt');
  });

  test('refuses hostile autolinks and reference definitions', () => {
    expect(html('<javascript:alert(1)>')).not.toContain('<a');
    expect(html('<JAVASCRIPT:alert(1)>')).not.toContain('<a');
    expect(html('[x][r]\n\n[r]: javascript:alert(1)')).not.toContain('<a');
    expect(html('[x][r]\n\n[r]: data:text/html,x')).not.toContain('<a');
  });

  test('refuses destinations with control characters', () => {
    expect(html('[x](<java\u0000script:alert(1)>)')).not.toContain('<a');
    expect(html('[x](</do\u0007cs>)')).not.toContain('<a');
  });

  test('keeps http, https, mailto, relative and fragment links', () => {
    expect(html('[a](http://example.com/x)')).toContain(
      '<a href="http://example.com/x" rel="noopener">a</a>',
    );
    expect(html('[a](HTTPS://example.com)')).toContain('<a href="HTTPS://example.com" rel="noopener">a</a>');
    expect(html('[a](mailto:me@example.com)')).toContain('<a href="mailto:me@example.com">a</a>');
    expect(html('[a](/docs/jwt)')).toContain('<a href="/docs/jwt">a</a>');
    expect(html('[a](../x?y=1&z=2)')).toContain('<a href="../x?y=1&amp;z=2">a</a>');
    expect(html('[a](#install)')).toContain('<a href="#install">a</a>');
    expect(html('![a](/logo.svg "Logo")')).toContain(
      '<img src="/logo.svg" alt="a" title="Logo" loading="lazy">',
    );
  });

  test('gives external links rel="noopener", including bare URLs and protocol-relative ones', () => {
    expect(html('see https://example.com now')).toContain('<a href="https://example.com" rel="noopener">');
    expect(html('[a](//example.com)')).toContain('<a href="//example.com" rel="noopener">');
    expect(html('[a](/local)')).not.toContain('rel=');
  });
});

describe('renderMarkdown: headings', () => {
  test('gives headings slug ids with a self-link, and lists h2/h3 for the table of contents', () => {
    const out = renderMarkdown('# Title\n\n## Install it\n\n### `jwk()` options\n\n#### Deep\n\ntext');
    expect(out.html).toContain(
      '<h2 id="install-it">Install it <a class="anchor" href="#install-it" aria-label="Link to this section: Install it">#</a></h2>',
    );
    expect(out.html).toContain(
      '<h3 id="jwk-options"><code>jwk()</code> options <a class="anchor" href="#jwk-options"',
    );
    expect(out.headings).toEqual([
      { depth: 2, text: 'Install it', id: 'install-it' },
      { depth: 3, text: 'jwk() options', id: 'jwk-options' },
    ]);
    expect([...out.ids]).toEqual(['title', 'install-it', 'jwk-options', 'deep']);
  });

  test('suffixes repeated headings with -2, -3 and never reuses an id', () => {
    const out = renderMarkdown('## Usage\n\n## Usage\n\n## Usage 2\n\n## Usage');
    expect(out.headings.map((heading) => heading.id)).toEqual(['usage', 'usage-2', 'usage-2-2', 'usage-3']);
  });

  test('does not give headings the ids the layout uses', () => {
    const out = renderMarkdown('## Main content\n\n## Table of contents');
    expect(out.headings.map((heading) => heading.id)).toEqual(['main-content-2', 'table-of-contents-2']);
  });

  test('escapes hostile heading text in the id, the anchor label and the table of contents', () => {
    const out = renderMarkdown('## "><script>x</script>');
    expect(out.html).not.toContain('<script');
    expect(out.headings[0]?.text).toBe('"><script>x</script>');
    expect(out.headings[0]?.id).toBe('scriptxscript');
  });
});

describe('renderMarkdown: links and text', () => {
  test('passes every safe link destination through rewriteHref and reports the result', () => {
    const seen: string[] = [];
    const out = renderMarkdown('[a](./jwt.md#x) [b](javascript:x) [c](https://e.x)', {
      rewriteHref: (link) => {
        seen.push(link.href);
        expect(link.raw.startsWith('[')).toBe(true);
        return link.href === './jwt.md#x' ? '/docs/jwt#x' : link.href;
      },
    });
    expect(seen).toEqual(['./jwt.md#x', 'https://e.x']);
    expect(out.hrefs).toEqual(['/docs/jwt#x', 'https://e.x']);
    expect(out.html).toContain('<a href="/docs/jwt#x">a</a>');
  });

  test('highlights fenced code by language and labels the block', () => {
    const out = html('```ts\nconst a = 1;\n```\n\n```text\n<x>\n```');
    expect(out).toContain(
      '<pre class="code" data-lang="ts"><code class="language-ts"><span class="tok-keyword">const</span>',
    );
    expect(out).toContain(
      '<pre class="code" data-lang="text"><code class="language-text">&lt;x&gt;</code></pre>',
    );
  });

  test('drops a language name that is not a plain word', () => {
    expect(html('```"><x\ncode\n```')).toContain('<pre class="code"><code>code</code></pre>');
  });

  test('renders GFM tables with alignment classes, task lists, strikethrough and ordered list starts', () => {
    const out = html(
      '| a | b |\n| :-: | --: |\n| 1 | 2 |\n\n- [x] done\n- [ ] todo\n\n~~old~~\n\n3. three\n4. four',
    );
    expect(out).toContain('<th scope="col" class="align-center">a</th>');
    expect(out).toContain('<td class="align-right">2</td>');
    expect(out).toContain('<li class="task"><input type="checkbox" disabled checked> done</li>');
    expect(out).toContain('<del>old</del>');
    expect(out).toContain('<ol start="3">');
    expect(out).not.toContain('style=');
  });

  test('extracts plain text without markup, keeping code and collapsing whitespace', () => {
    const out = renderMarkdown(
      '# Title\n\nSome **bold**   and [a link](https://e.x) &amp; `code`.\n\n```ts\nconst  a = 1;\n```\n\n| h |\n| - |\n| cell |\n\n<b>raw</b>',
    );
    expect(out.text).toBe('Title Some bold and a link & code. const a = 1; h cell <b>raw</b>');
  });
});

describe('code blocks', () => {
  test('are wrapped for the copy button, highlighted, with no line markup by default', () => {
    const { html } = renderMarkdown('```ts\nconst a = 1;\n```\n');
    expect(html).toStartWith(
      '<div class="code-block"><pre class="code" data-lang="ts"><code class="language-ts">',
    );
    expect(html).not.toContain('class="line');
  });

  test('mark the lines an info string names, {3-4,6} style', () => {
    const { html } = renderMarkdown('```ts {2-3,5}\na;\nb;\nc;\nd;\ne;\n```\n');
    const lines = html.match(/<span class="line[^"]*">/g);
    expect(lines).toEqual([
      '<span class="line">',
      '<span class="line highlighted">',
      '<span class="line highlighted">',
      '<span class="line">',
      '<span class="line highlighted">',
    ]);
  });

  test('close and reopen a token that runs over a line end, so each line is well formed', () => {
    const { html } = renderMarkdown('```ts {2}\n/* one\ntwo */ const x = 1;\n```\n');
    expect(html).toContain(
      '<span class="line"><span class="tok-comment">/* one</span></span>\n<span class="line highlighted"><span class="tok-comment">two */</span>',
    );
  });

  test('read markers defensively: bad parts are skipped, huge ranges capped', () => {
    expect([...highlightedLines('ts {1, 3-2 ,,4}')]).toEqual([1, 4]);
    expect(highlightedLines('ts {1,x}').size).toBe(0);
    expect(highlightedLines('ts {1-9999}').size).toBe(2_000);
    expect(highlightedLines('ts {1-99999}').size).toBe(0);
    expect(highlightedLines('ts').size).toBe(0);
    expect(highlightedLines(undefined).size).toBe(0);
  });
});
