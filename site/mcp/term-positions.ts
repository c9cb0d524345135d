/**
 * Where each term of a text occurs, computed once when the search index is built, so that cutting
 * a snippet for a result looks its matched terms up instead of tokenising the whole page again
 * (issue 17: re-tokenising up to twenty pages per search cost about 1 ms each, 20 ms a search).
 */
import { tokenize } from './tokenize.ts';

/**
 * Most occurrences kept per term and text, the earliest: a snippet shows one window, and a common
 * word's later occurrences rarely make a better one than its first 64. Bounds the index's memory
 * and what a search gathers per result.
 */
export const MAX_POSITIONS_PER_TERM = 64;

/** One occurrence of a matched term: [start, end) in UTF-16 offsets. */
export interface Hit {
  readonly start: number;
  readonly end: number;
  readonly term: string;
}

/** Per term: its occurrences as [start, end) pairs of UTF-16 offsets, in text order. */
export type TermPositions = ReadonlyMap<string, Uint32Array>;

/** The positions of every term of `text` (the tokeniser's terms: whole words and their parts). */
export function termPositions(text: string): TermPositions {
  const lists = new Map<string, number[]>();
  for (const token of tokenize(text)) {
    let list = lists.get(token.term);
    if (list === undefined) {
      list = [];
      lists.set(token.term, list);
    }
    if (list.length < MAX_POSITIONS_PER_TERM * 2) list.push(token.start, token.end);
  }
  const out = new Map<string, Uint32Array>();
  for (const [term, list] of lists) out.set(term, Uint32Array.from(list));
  return out;
}

/**
 * The occurrences of `terms` in the text `positions` was built from, ordered by start, the longer
 * first at one start (a whole word before its first part), at most `max` of them. Each term gives
 * its earliest `ceil(max / terms)` occurrences (and at most the stored MAX_POSITIONS_PER_TERM), so
 * fifty prefix expansions of a common prefix gather about `max` hits, not thousands.
 */
export function hitsOf(positions: TermPositions, terms: ReadonlySet<string>, max: number): Hit[] {
  const hits: Hit[] = [];
  if (terms.size === 0) return hits;
  const perTerm = Math.ceil(max / terms.size);
  for (const term of terms) {
    const list = positions.get(term);
    if (list === undefined) continue;
    const end = Math.min(list.length, perTerm * 2);
    for (let i = 0; i < end; i += 2) {
      hits.push({ start: list[i] as number, end: list[i + 1] as number, term });
    }
  }
  hits.sort((a, b) => a.start - b.start || b.end - a.end);
  return hits.length > max ? hits.slice(0, max) : hits;
}
