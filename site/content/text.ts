/**
 * Plain text of rendered Markdown, for full-text search and for headings: what a reader sees, without
 * markup. Code is kept; character references are decoded; whitespace is collapsed to single spaces.
 */
import type { MarkedToken, Token } from 'marked';
import { decodeReferences } from './escape.ts';

/** Plain text of a list of block tokens, whitespace collapsed. */
export function blocksText(tokens: readonly Token[]): string {
  return collapseWhitespace(tokens.map(blockText).join('\n'));
}

/** Plain text of a list of inline tokens (not collapsed: headings keep their spacing as written). */
export function inlineText(tokens: readonly Token[]): string {
  let out = '';
  for (const token of tokens) out += inlineTokenText(token);
  return out;
}

/** Replaces every run of whitespace by one space and trims the ends. */
export function collapseWhitespace(text: string): string {
  return text
    .split(/\s+/)
    .filter((word) => word !== '')
    .join(' ');
}

function blockText(token: Token): string {
  const block = token as MarkedToken;
  switch (block.type) {
    case 'heading':
    case 'paragraph':
      return inlineText(block.tokens);
    case 'text':
      return block.tokens === undefined ? decodeReferences(block.text) : inlineText(block.tokens);
    case 'code':
      return block.text;
    case 'blockquote':
      return block.tokens.map(blockText).join('\n');
    case 'list':
      return block.items.map((item) => item.tokens.map(blockText).join('\n')).join('\n');
    case 'table':
      return [block.header, ...block.rows]
        .map((row) => row.map((cell) => inlineText(cell.tokens)).join(' '))
        .join('\n');
    case 'html':
      return block.text;
    case 'space':
    case 'hr':
    case 'def':
    case 'checkbox':
      return '';
    default:
      return inlineTokenText(token);
  }
}

function inlineTokenText(token: Token): string {
  const inline = token as MarkedToken;
  switch (inline.type) {
    case 'text':
      return inline.tokens === undefined ? decodeReferences(inline.text) : inlineText(inline.tokens);
    case 'escape':
    case 'codespan':
    case 'html':
      return inline.text;
    case 'strong':
    case 'em':
    case 'del':
    case 'link':
      return inlineText(inline.tokens);
    case 'image':
      return inline.text;
    case 'br':
      return '\n';
    case 'checkbox':
      return '';
    default:
      return 'tokens' in token && Array.isArray(token.tokens) ? inlineText(token.tokens) : token.raw;
  }
}
