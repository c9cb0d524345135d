/**
 * Search-result snippets: a window of about 200 characters of a page's plain text around its best
 * match, with every matched term wrapped in `**` (Markdown strong emphasis, CommonMark §6.2) and an
 * ellipsis where the window cuts the text. The text's own `\` and `*` are backslash-escaped
 * (CommonMark §2.4) so that only the highlights read as emphasis.
 */
import { type Hit, hitsOf, type TermPositions, termPositions } from './term-positions.ts';

/** Default snippet width, in UTF-16 code units (before highlighting and ellipses). */
export const SNIPPET_WIDTH = 200;

/** Most matches looked at when placing the window: bounds the work on a very long page. */
const MAX_HITS = 128;

/** How far, in code units, a window edge may move to land on a space instead of cutting a word. */
const SNAP_DISTANCE = 24;

const ELLIPSIS = '…';

function escapeMarkdown(text: string): string {
  return text.replaceAll('\\', '\\\\').replaceAll('*', '\\*');
}

/**
 * The run of hits that fits in one window and covers the most distinct terms (then the most hits;
 * the earliest on a tie): a two-pointer sweep, linear in the number of hits.
 */
function bestCluster(hits: readonly Hit[], width: number): [number, number] {
  const counts = new Map<string, number>();
  let best: [number, number] = [0, 0];
  let bestDistinct = 0;
  let bestCount = 0;
  let left = 0;
  for (let right = 0; right < hits.length; right++) {
    const hit = hits[right] as Hit;
    counts.set(hit.term, (counts.get(hit.term) ?? 0) + 1);
    while (left < right && hit.end - (hits[left] as Hit).start > width) {
      const term = (hits[left] as Hit).term;
      const count = (counts.get(term) as number) - 1;
      if (count === 0) counts.delete(term);
      else counts.set(term, count);
      left++;
    }
    const count = right - left + 1;
    if (counts.size > bestDistinct || (counts.size === bestDistinct && count > bestCount)) {
      best = [left, right];
      bestDistinct = counts.size;
      bestCount = count;
    }
  }
  return best;
}

function isSpace(char: string | undefined): boolean {
  return char === ' ';
}

/** Window bounds around [from, to), widened to `width`, snapped to spaces, never splitting a surrogate pair. */
function windowAround(text: string, from: number, to: number, width: number): [number, number] {
  const slack = Math.max(0, width - (to - from));
  let start = Math.max(0, from - Math.floor(slack / 2));
  let end = Math.min(text.length, start + Math.max(width, to - from));
  if (end === text.length) start = Math.max(0, end - width);
  if (start > 0) {
    const limit = Math.min(from, start + SNAP_DISTANCE);
    let i = start;
    while (i < limit && !isSpace(text[i - 1])) i++;
    if (isSpace(text[i - 1])) start = i;
  }
  if (end < text.length) {
    const limit = Math.max(to, end - SNAP_DISTANCE);
    let i = end;
    while (i > limit && !isSpace(text[i])) i--;
    if (isSpace(text[i])) end = i;
  }
  // A cut between the halves of a surrogate pair would leave a lone surrogate.
  if (start > 0 && start < text.length && /[\uDC00-\uDFFF]/.test(text[start] as string)) start++;
  if (end < text.length && end > 0 && /[\uD800-\uDBFF]/.test(text[end - 1] as string)) end--;
  return [start, end];
}

/** Whether [from, to) is the one `_` or `-` that joins two parts of a compound word. */
function joinsParts(text: string, from: number, to: number): boolean {
  return to === from + 1 && (text[from] === '_' || text[from] === '-');
}

/** The highlighted text of [start, end): hits merged where they overlap, the rest escaped. */
function highlight(text: string, start: number, end: number, hits: readonly Hit[]): string {
  const ranges: Array<[number, number]> = [];
  for (const hit of hits) {
    if (hit.start < start || hit.end > end) continue;
    const last = ranges[ranges.length - 1];
    // A whole word and its parts overlap, and parts of one word touch (`rate`+`Limit`, `search`_`docs`):
    // one span each, so the emphasis reads `**rateLimit**`, not `**rate****Limit**`.
    if (last !== undefined && (hit.start <= last[1] || joinsParts(text, last[1], hit.start))) {
      last[1] = Math.max(last[1], hit.end);
    } else ranges.push([hit.start, hit.end]);
  }
  let out = '';
  let at = start;
  for (const [s, e] of ranges) {
    out += `${escapeMarkdown(text.slice(at, s))}**${escapeMarkdown(text.slice(s, e))}**`;
    at = e;
  }
  return out + escapeMarkdown(text.slice(at, end));
}

/**
 * The snippet of `text` for a result that matched `terms` (index terms): the window with the most
 * distinct matched terms, highlighted, or the start of the text when none occurs in it. Returns
 * undefined when `text` has no match and `fallback` is false, so a caller can try another field.
 * `positions` are the text's term positions when they were computed beforehand (the search index
 * does, once per page); without them the text is tokenised here.
 */
export function makeSnippet(
  text: string,
  terms: ReadonlySet<string>,
  options: {
    readonly width?: number;
    readonly fallback?: boolean;
    readonly positions?: TermPositions;
  } = {},
): string | undefined {
  const width = options.width ?? SNIPPET_WIDTH;
  const hits = terms.size === 0 ? [] : hitsOf(options.positions ?? termPositions(text), terms, MAX_HITS);
  let start: number;
  let end: number;
  if (hits.length === 0) {
    if (options.fallback === false) return undefined;
    [start, end] = windowAround(text, 0, 0, width);
  } else {
    const [first, last] = bestCluster(hits, width);
    const from = (hits[first] as Hit).start;
    let to = from;
    for (let i = first; i <= last; i++) to = Math.max(to, (hits[i] as Hit).end);
    [start, end] = windowAround(text, from, to, width);
  }
  const body = highlight(text, start, end, hits);
  return `${start > 0 ? ELLIPSIS : ''}${body}${end < text.length ? ELLIPSIS : ''}`;
}
