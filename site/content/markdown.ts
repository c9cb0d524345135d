/**
 * Markdown to HTML for the site's pages. `marked` (GFM) only tokenizes; the HTML is written here, so
 * every byte of output is decided by this file:
 * - raw HTML in the Markdown (block and inline) is shown as text, never passed through;
 * - link and image destinations are checked by `safeUrl` (only http, https, mailto, relative and
 *   `#fragment`); a refused link renders its text alone, a refused image its alt text;
 * - external links (`http:`, `https:`, `//host`) get `rel="noopener"`;
 * - headings get unique ids and a self-link; `h2`/`h3` are listed for the table of contents;
 * - code blocks are highlighted at build time by `highlight`, wrapped in `.code-block` (where the
 *   page script adds its Copy button), and ` ```ts {3-4,7} ` marks lines 3, 4 and 7 of the block.
 */
import { Marked, type MarkedToken, type Token, type Tokens } from 'marked';
import type { PageHeading } from './types.ts';
import { escapeHtml, escapeHtmlKeepingReferences } from './escape.ts';
import { highlight } from './highlight.ts';
import { safeUrl } from './safe-url.ts';
import { Slugger } from './slug.ts';
import { blocksText, inlineText } from './text.ts';

/** Element ids the page layout uses; headings never take them. */
export const LAYOUT_IDS: readonly string[] = [
  'main-content',
  'site-navigation',
  'table-of-contents',
  'site-search',
  'search-query',
];

/** A link found in the Markdown, as `rewriteHref` saw it. */
export interface MarkdownLink {
  /** The destination after the safety check, before rewriting. */
  readonly href: string;
  /** The Markdown source of the link (`[text](href)`), to locate it in the file. */
  readonly raw: string;
}

/** How to render one page's Markdown. */
export interface MarkdownOptions {
  /**
   * Maps a (safe) link destination to the href written in the HTML; may throw to fail the build.
   * Default: the destination unchanged.
   */
  readonly rewriteHref?: (link: MarkdownLink) => string;
}

/** The result of rendering one page's Markdown. */
export interface RenderedMarkdown {
  /** The article body as HTML. */
  readonly html: string;
  /** Plain text (no markup, code kept, whitespace collapsed). */
  readonly text: string;
  /** Every `h2`/`h3`, in document order. */
  readonly headings: readonly PageHeading[];
  /** Every heading id on the page (all depths): the page's valid `#fragment`s. */
  readonly ids: ReadonlySet<string>;
  /** The href of every link written, after rewriting, in document order. */
  readonly hrefs: readonly string[];
}

const markdownLexer = new Marked({ gfm: true, breaks: false, pedantic: false });

/** Renders `markdown` (GFM) to sanitised, highlighted HTML with heading ids and plain text. */
export function renderMarkdown(markdown: string, options: MarkdownOptions = {}): RenderedMarkdown {
  const tokens = markdownLexer.lexer(markdown);
  const renderer = new HtmlWriter(options.rewriteHref ?? ((link) => link.href));
  const html = renderer.blocks(tokens);
  return {
    html,
    text: blocksText(tokens),
    headings: renderer.headings,
    ids: renderer.ids,
    hrefs: renderer.hrefs,
  };
}

class HtmlWriter {
  readonly headings: PageHeading[] = [];
  readonly ids = new Set<string>();
  readonly hrefs: string[] = [];
  readonly #slugger = new Slugger(LAYOUT_IDS);
  readonly #rewriteHref: (link: MarkdownLink) => string;

  constructor(rewriteHref: (link: MarkdownLink) => string) {
    this.#rewriteHref = rewriteHref;
  }

  blocks(tokens: readonly Token[]): string {
    let html = '';
    for (const token of tokens) html += this.block(token);
    return html;
  }

  inline(tokens: readonly Token[]): string {
    let html = '';
    for (const token of tokens) html += this.inlineToken(token);
    return html;
  }

  block(token: Token): string {
    const block = token as MarkedToken;
    switch (block.type) {
      case 'space':
      case 'def':
        return '';
      case 'heading':
        return this.heading(block);
      case 'paragraph':
        return `<p>${this.inline(block.tokens)}</p>\n`;
      case 'text':
        // A tight list item's text: inline content without a paragraph.
        return block.tokens === undefined
          ? escapeHtmlKeepingReferences(block.text)
          : this.inline(block.tokens);
      case 'code':
        return codeBlock(block);
      case 'blockquote':
        return `<blockquote>\n${this.blocks(block.tokens)}</blockquote>\n`;
      case 'list':
        return this.list(block);
      case 'table':
        return this.table(block);
      case 'hr':
        return '<hr>\n';
      case 'html': {
        // A block that is one HTML comment (CommonMark §4.6, type 2) is an author's note, such as the
        // code-block markers `<!-- continues -->`: dropped. Any other raw HTML is shown, not interpreted.
        const text = block.text.trim();
        if (text.startsWith('<!--') && text.indexOf('-->', 4) === text.length - 3) return '';
        return `<p class="raw-html">${escapeHtml(text)}</p>\n`;
      }
      default:
        return this.inlineToken(token);
    }
  }

  inlineToken(token: Token): string {
    const inline = token as MarkedToken;
    switch (inline.type) {
      case 'text':
        return inline.tokens === undefined
          ? escapeHtmlKeepingReferences(inline.text)
          : this.inline(inline.tokens);
      case 'escape':
        return escapeHtml(inline.text);
      case 'strong':
        return `<strong>${this.inline(inline.tokens)}</strong>`;
      case 'em':
        return `<em>${this.inline(inline.tokens)}</em>`;
      case 'del':
        return `<del>${this.inline(inline.tokens)}</del>`;
      case 'codespan':
        return `<code>${escapeHtml(inline.text)}</code>`;
      case 'br':
        return '<br>\n';
      case 'link':
        return this.link(inline);
      case 'image':
        return image(inline);
      case 'html':
        return escapeHtml(inline.text);
      case 'checkbox':
        return `<input type="checkbox" disabled${inline.checked ? ' checked' : ''}> `;
      default:
        return escapeHtml(token.raw);
    }
  }

  heading(token: Tokens.Heading): string {
    const text = inlineText(token.tokens).trim();
    const id = this.#slugger.slug(text);
    this.ids.add(id);
    if (token.depth === 2 || token.depth === 3) this.headings.push({ depth: token.depth, text, id });
    const tag = `h${Math.min(Math.max(token.depth, 1), 6)}`;
    const anchor = `<a class="anchor" href="#${escapeHtml(id)}" aria-label="Link to this section: ${escapeHtml(text)}">#</a>`;
    return `<${tag} id="${escapeHtml(id)}">${this.inline(token.tokens)} ${anchor}</${tag}>\n`;
  }

  link(token: Tokens.Link): string {
    const content = this.inline(token.tokens);
    const safe = safeUrl(token.href);
    if (safe === undefined) return content;
    const href = this.#rewriteHref({ href: safe.href, raw: token.raw });
    this.hrefs.push(href);
    const external = safe.scheme === 'http' || safe.scheme === 'https' || href.startsWith('//');
    const title = token.title ? ` title="${escapeHtml(token.title)}"` : '';
    const rel = external ? ' rel="noopener"' : '';
    return `<a href="${escapeHtml(href)}"${title}${rel}>${content}</a>`;
  }

  list(token: Tokens.List): string {
    const tag = token.ordered ? 'ol' : 'ul';
    const start = token.ordered && token.start !== '' && token.start !== 1 ? ` start="${token.start}"` : '';
    let html = `<${tag}${start}>\n`;
    for (const item of token.items) {
      const task = item.task ? ' class="task"' : '';
      html += `<li${task}>${this.blocks(item.tokens)}</li>\n`;
    }
    return `${html}</${tag}>\n`;
  }

  table(token: Tokens.Table): string {
    const cell = (tag: 'th' | 'td', value: Tokens.TableCell): string => {
      const align = value.align === null ? '' : ` class="align-${value.align}"`;
      const scope = tag === 'th' ? ' scope="col"' : '';
      return `<${tag}${scope}${align}>${this.inline(value.tokens)}</${tag}>`;
    };
    const head = `<tr>${token.header.map((value) => cell('th', value)).join('')}</tr>`;
    const rows = token.rows.map((row) => `<tr>${row.map((value) => cell('td', value)).join('')}</tr>`);
    const body = rows.length === 0 ? '' : `\n<tbody>\n${rows.join('\n')}\n</tbody>`;
    return `<div class="table-scroll">\n<table>\n<thead>\n${head}\n</thead>${body}\n</table>\n</div>\n`;
  }
}

function codeBlock(token: Tokens.Code): string {
  const lang = languageOf(token.lang);
  const label = lang === undefined ? '' : ` data-lang="${lang}"`;
  const className = lang === undefined ? '' : ` class="language-${lang}"`;
  const code = token.text.endsWith('\n') ? token.text.slice(0, -1) : token.text;
  const marked = highlightedLines(token.lang);
  const html = highlight(code, lang);
  const body = marked.size === 0 ? html : markLines(html, marked);
  return `<div class="code-block"><pre class="code"${label}><code${className}>${body}</code></pre></div>\n`;
}

/** Most lines one `{...}` marker may name: a guard against `{1-99999999}`. */
const MAX_MARKED_LINE = 2_000;

/**
 * The lines an info string marks for highlighting, 1-based: ` ```ts {3-4,7} ` marks lines 3, 4 and
 * 7 (the convention of most documentation tools). Anything else after the language is ignored.
 */
export function highlightedLines(info: string | undefined): ReadonlySet<number> {
  const lines = new Set<number>();
  const marker = /\{([0-9,\s-]{1,64})\}/.exec(info ?? '');
  if (marker === null) return lines;
  for (const part of (marker[1] as string).split(',')) {
    const range = /^\s*(\d{1,4})\s*(?:-\s*(\d{1,4}))?\s*$/.exec(part);
    if (range === null) continue;
    const from = Number(range[1]);
    const to = range[2] === undefined ? from : Number(range[2]);
    for (let line = from; line <= Math.min(to, MAX_MARKED_LINE); line++) if (line > 0) lines.add(line);
  }
  return lines;
}

/**
 * Wraps each line of highlighted HTML in `<span class="line">` (`line highlighted` for the marked
 * ones). The highlighter's spans never nest, so a token that runs over a line end (a block comment,
 * a template string) is closed before it and opened again after it.
 */
function markLines(html: string, marked: ReadonlySet<number>): string {
  const out: string[] = [];
  let open = '';
  html.split('\n').forEach((text, index) => {
    let line = open + text;
    const lastOpen = text.lastIndexOf('<span');
    const lastClose = text.lastIndexOf('</span>');
    if (lastOpen > lastClose) {
      open = text.slice(lastOpen, text.indexOf('>', lastOpen) + 1);
      line += '</span>';
    } else if (lastClose === -1 && open !== '') {
      line += '</span>';
    } else open = '';
    const className = marked.has(index + 1) ? 'line highlighted' : 'line';
    out.push(`<span class="${className}">${line}</span>`);
  });
  return out.join('\n');
}

/** The info string's first word, if it is a plain language name (letters, digits, `+#.-`). */
function languageOf(info: string | undefined): string | undefined {
  const word = (info ?? '').trim().split(' ')[0]?.toLowerCase() ?? '';
  if (word === '' || word.length > 32) return undefined;
  for (const char of word) if (!'abcdefghijklmnopqrstuvwxyz0123456789+#.-'.includes(char)) return undefined;
  return word;
}

function image(token: Tokens.Image): string {
  const alt = inlineText(token.tokens);
  const safe = safeUrl(token.href);
  if (safe === undefined) return escapeHtml(alt);
  const title = token.title ? ` title="${escapeHtml(token.title)}"` : '';
  return `<img src="${escapeHtml(safe.href)}" alt="${escapeHtml(alt)}"${title} loading="lazy">`;
}
