import { describe, expect, test } from 'bun:test';
import { Marked } from 'marked';
import { blocksText, collapseWhitespace, inlineText } from './text.ts';

const lex = (markdown: string) => new Marked({ gfm: true }).lexer(markdown);

describe('blocksText', () => {
  test('keeps the words of every block, code included, without markup', () => {
    const text = blocksText(
      lex(
        '# A *b*\n\n> quote `q`\n\n- one\n- [x] two\n\n```\nx  =  1\n```\n\n![alt](/i.png) &#65;&amp;\n\n---\n',
      ),
    );
    expect(text).toBe('A b quote q one two x = 1 alt A&');
  });
});

describe('inlineText', () => {
  test('returns the text of inline tokens with links and emphasis removed', () => {
    const [paragraph] = lex('See [the **docs**](/docs) and <b>raw</b>.');
    const tokens = paragraph !== undefined && 'tokens' in paragraph ? (paragraph.tokens ?? []) : [];
    expect(inlineText(tokens)).toBe('See the docs and <b>raw</b>.');
  });
});

describe('collapseWhitespace', () => {
  test('turns every run of whitespace into one space and trims', () => {
    expect(collapseWhitespace('  a\n\t b  \r\n c ')).toBe('a b c');
  });
});
