/**
 * The Markdown answer for a page that does not exist (site.md, Errors rule 3: a `text/markdown`
 * body, not a problem document): it names the path asked for, inert, and lists ways back in.
 */
import type { ContentSite, Page } from '../content/types.ts';
import { absoluteUrl } from './options.ts';
import { pathSuggestionsOf } from '../content/path-suggestions.ts';

/** Longest requested path quoted back; the rest is cut. */
export const MAX_COMPARED_PATH = 256;

/** How many nearby pages a not-found answer suggests. */
export const MAX_SUGGESTIONS = 5;

/**
 * Up to `limit` pages whose path is closest to `wanted` (a page path such as `docs/jwtt`): smallest
 * edit distance first (case-insensitive), then longest shared prefix, then reading order. The
 * suggestion index is built once per site (`path-suggestions.ts`), so a not-found answer costs a
 * few comparisons whatever the path's length.
 */
export function closestPages(content: ContentSite, wanted: string, limit = MAX_SUGGESTIONS): Page[] {
  return pathSuggestionsOf(content.pages)
    .closest(wanted, limit)
    .map((index) => content.pages[index] as Page);
}

/**
 * Text as a Markdown code span (CommonMark §6.1): its content is literal, so no link, autolink,
 * emphasis or HTML inside it is ever interpreted. The fence is one backtick longer than the longest
 * run inside; control characters become U+FFFD so the span cannot end the line; long text is cut.
 */
export function markdownCodeSpan(text: string, max = MAX_COMPARED_PATH): string {
  let clean = '';
  let longestRun = 0;
  let run = 0;
  const cut = text.length > max;
  const shown = cut ? text.slice(0, max) : text;
  for (const char of shown) {
    const code = char.codePointAt(0)!;
    const control = code < 0x20 || (code >= 0x7f && code <= 0x9f) || code === 0x2028 || code === 0x2029;
    clean += control ? '\uFFFD' : char;
    run = char === '`' ? run + 1 : 0;
    if (run > longestRun) longestRun = run;
  }
  const fence = '`'.repeat(longestRun + 1);
  // One space inside each end, which CommonMark strips again, keeps a leading or trailing
  // backtick from joining the fence.
  return `${fence} ${clean}${cut ? '…' : ''} ${fence}`;
}

/** Link text with the characters that could end it or open markup backslash-escaped (CommonMark §2.4). */
export function markdownLinkText(text: string): string {
  let out = '';
  for (const char of text) {
    if (char === '\n' || char === '\r') out += ' ';
    else out += '\\[]<>`*_'.includes(char) ? `\\${char}` : char;
  }
  return out;
}

/** One line of a Markdown link list: `- [Title](url): description`. */
export function linkLine(title: string, url: string, description: string): string {
  const about = description.replace(/\s+/g, ' ').trim();
  return `- [${markdownLinkText(title)}](${url})${about === '' ? '' : `: ${about}`}`;
}

/** Each page's line in "Closest pages", by origin: the same page is suggested again and again. */
const suggestionLines = new WeakMap<Page, { readonly origin: string; readonly line: string }>();

function suggestionLine(page: Page, origin: string): string {
  const known = suggestionLines.get(page);
  if (known !== undefined && known.origin === origin) return known.line;
  const line = linkLine(page.title, absoluteUrl(origin, `/md/${page.path}`), page.description);
  suggestionLines.set(page, { origin, line });
  return line;
}

/** What a not-found answer is about. */
export interface NotFoundRequest {
  /** The URL path asked for, decoded (`/md/docs/jwtt`, `/docs/jwtt.md`); quoted back inert. */
  readonly requested: string;
  /** The page path it would have named (`docs/jwtt`); nearby pages are chosen by it. */
  readonly pagePath: string;
}

/**
 * The Markdown body of a not-found answer: a heading, the path asked for (as a code span), the
 * site's entry points for agents (`/llms.txt`, `/md/index`, `/api/v1`) and up to five pages whose
 * path is closest, each linked by its `/md/` URL.
 */
export function markdownNotFound(content: ContentSite, origin: string, request: NotFoundRequest): string {
  const lines = [
    '# Page not found',
    '',
    `There is no page at ${markdownCodeSpan(request.requested)}.`,
    '',
    '## Start here',
    '',
    linkLine('llms.txt', `${origin}/llms.txt`, 'an index of every page, with one line on each'),
    linkLine('Home page', `${origin}/md/index`, 'the home page as Markdown'),
    linkLine('API index', `${origin}/api/v1`, 'the machine-readable endpoints of this site'),
  ];
  const near = closestPages(content, request.pagePath);
  if (near.length > 0) {
    lines.push('', '## Closest pages', '');
    for (const page of near) lines.push(suggestionLine(page, origin));
  }
  lines.push('');
  return lines.join('\n');
}
