/**
 * The full-text index behind `search_docs`, built once at start-up from every page's title,
 * headings, description and plain text. Ranking is BM25F (Robertson and Zaragoza, "The
 * Probabilistic Relevance Framework: BM25 and Beyond", 2009, §3 and §6.2): per-field term
 * frequencies are length-normalised, weighted by field (title > headings > description > body),
 * summed, then saturated once with k1. Every query word must match (a compound query word also
 * matches a page that has all its parts, at half weight); the last word also matches as a prefix,
 * for search-as-you-type; when no page has every word, pages with any of them are ranked instead.
 * Common English function words (`STOP_WORDS`) are dropped from a query that has other words.
 * Work per query is bounded: 200 characters, 16 words, 16 prefix expansions, and snippets cut from
 * term positions computed with the index, so a search never re-reads a page's text (issue 17: it
 * did, and twenty results cost 20 ms; now well under 1 ms).
 */
import type { Page } from '../content/types.ts';
import { collapseWhitespace } from '../content/text.ts';
import { makeSnippet } from './snippet.ts';
import { type TermPositions, termPositions } from './term-positions.ts';
import { type QueryWord, queryWords, tokenize } from './tokenize.ts';

/** Longest query read, in UTF-16 code units: the rest is ignored. */
export const MAX_QUERY_LENGTH = 200;
/** Most query words used: the rest are ignored. */
export const MAX_QUERY_WORDS = 16;
/**
 * Most index terms a prefix stands for (the most common ones win). Each is one more posting list
 * to merge and one more term to find in every result's snippet: 16 keeps a two-letter prefix
 * (`re`, the dearest query) well under a millisecond.
 */
export const MAX_PREFIX_EXPANSIONS = 16;
/** Shortest last word that also matches as a prefix. */
export const MIN_PREFIX_LENGTH = 2;
/** Number of results of a search that names no limit. */
export const DEFAULT_SEARCH_LIMIT = 10;
/** Largest `limit` a search accepts. */
export const MAX_SEARCH_LIMIT = 100;

/** BM25F field weights: a word in the title says more about the page than one in its body. */
export const FIELD_BOOSTS = Object.freeze({ title: 5, headings: 3, description: 2, body: 1 });

// Conventional BM25 constants (Robertson and Zaragoza 2009, §3.3).
const K1 = 1.2;
const B = 0.75;
/** A page matched by a prefix expansion rather than the word itself scores this share. */
const PREFIX_WEIGHT = 0.75;
/**
 * The share when the last word is itself a word of the index (`limit`): it is most likely complete,
 * so `limitations` in a heading must not outrank `limit` (issue 23: "rate limit" ranked the page
 * with "Known limitations" first and the rate limiter's page eighth).
 */
const KNOWN_WORD_PREFIX_WEIGHT = 0.25;
/** A page matched by the parts of a compound word rather than the word itself scores this share. */
const PARTS_WEIGHT = 0.5;
/** Scores are rounded to this many decimals, so results order and print the same everywhere. */
const SCORE_DECIMALS = 4;
/** Most terms scanned when expanding a prefix (bounds the work for a short, common prefix). */
const MAX_PREFIX_SCAN = 5_000;
/** Prefixes whose expansions are remembered; past it the memory starts afresh (bounded either way). */
const MAX_REMEMBERED_PREFIXES = 1_024;

/**
 * English function words a question is full of ("how do I protect my routes with a token"). They
 * are left out of a query that has other words, so they neither veto the all-words match nor get
 * highlighted; a query made only of them is searched as it is.
 */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'a an and are as at be by can do does for from how i in is it me my of on or our should that the this ' +
    'to was what when where which who why will with you your'
  ).split(' '),
);

const FIELDS = ['title', 'headings', 'description', 'body'] as const;
type Field = (typeof FIELDS)[number];

/** One search result. URLs are the page's (site-relative) URL paths. */
export interface SearchResult {
  /** `docs/jwt` */
  readonly path: string;
  /** `/docs/jwt` */
  readonly url: string;
  /** `/docs/jwt.md` */
  readonly markdownUrl: string;
  readonly title: string;
  /** BM25F score, rounded to 4 decimals; higher is better. */
  readonly score: number;
  /** About 200 characters around the best match, matched terms in `**`, `…` where cut. */
  readonly snippet: string;
}

/** What a search found. */
export interface SearchResponse {
  readonly results: readonly SearchResult[];
  /**
   * True when every query word matched each result; false when no page had them all and the
   * results are the pages that have any of them (or when there are no results at all).
   */
  readonly matchedAllTerms: boolean;
}

/**
 * A page whose title is the query (the same words, stop words aside: "Deploy", "typed client") scores
 * this many times more: BM25F saturates each word, so otherwise "deploy" found four pages titled
 * "Deploy: <runtime>" before the one titled "Deploy" (issue 23).
 */
const EXACT_TITLE_WEIGHT = 2;

/** The words of a query or a title, as compared for an exact title match. */
function titleKey(text: string): string {
  const all = queryWords(capQuery(text), MAX_QUERY_WORDS);
  const content = all.filter((word) => !STOP_WORDS.has(word.whole));
  return (content.length > 0 ? content : all).map((word) => word.whole).join(' ');
}

/** Options of `createSearchIndex`. */
export interface SearchIndexOptions {
  /**
   * A page's weight, multiplying its score (default 1 for every page): the site gives its generated
   * API reference pages less than the guides, so a topic finds its guide before the declarations.
   */
  readonly pageWeight?: (page: Page) => number;
}

/** Options of one search. */
export interface SearchOptions {
  /** Most results returned, 1 to 100. Default 10. */
  readonly limit?: number;
}

/** A built index. */
export interface SearchIndex {
  /** Ranked results for a query: never throws; an empty or wordless query finds nothing. */
  search(query: string, options?: SearchOptions): SearchResponse;
  /** Number of pages indexed. */
  readonly size: number;
}

interface IndexedPage {
  readonly page: Page;
  /** The plain text, white space collapsed (what snippets are cut from). */
  readonly body: string;
  /** The description, white space collapsed (snippets come from it when the body has no match). */
  readonly description: string;
  /** Where each term occurs in `body` and `description`: a snippet looks its terms up. */
  readonly bodyPositions: TermPositions;
  readonly descriptionPositions: TermPositions;
}

/** Per term: the pages that contain it and their BM25F pseudo-frequency. */
type Postings = ReadonlyMap<number, number>;

interface Match {
  score: number;
  readonly terms: Set<string>;
}

function fieldTexts(page: Page, body: string): Record<Field, string> {
  return {
    title: page.title,
    headings: page.headings.map((heading) => heading.text).join('\n'),
    description: page.description,
    body,
  };
}

function countTerms(text: string): { counts: Map<string, number>; length: number } {
  const counts = new Map<string, number>();
  let length = 0;
  for (const token of tokenize(text)) {
    counts.set(token.term, (counts.get(token.term) ?? 0) + 1);
    length++;
  }
  return { counts, length };
}

function buildPostings(pages: readonly IndexedPage[]): Map<string, Map<number, number>> {
  const perPage = pages.map((indexed) => {
    const texts = fieldTexts(indexed.page, indexed.body);
    return FIELDS.map((field) => countTerms(texts[field]));
  });
  const averages = FIELDS.map((_, f) => {
    const total = perPage.reduce((sum, fields) => sum + (fields[f]?.length ?? 0), 0);
    return pages.length === 0 ? 0 : total / pages.length;
  });
  const postings = new Map<string, Map<number, number>>();
  perPage.forEach((fields, doc) => {
    fields.forEach(({ counts, length }, f) => {
      const average = averages[f] as number;
      const boost = FIELD_BOOSTS[FIELDS[f] as Field];
      // BM25F: each field's frequency normalised by that field's length against its average.
      const norm = average === 0 ? 1 : 1 - B + (B * length) / average;
      for (const [term, count] of counts) {
        let docs = postings.get(term);
        if (docs === undefined) {
          docs = new Map();
          postings.set(term, docs);
        }
        docs.set(doc, (docs.get(doc) ?? 0) + (boost * count) / norm);
      }
    });
  });
  return postings;
}

/** The query text actually read: at most MAX_QUERY_LENGTH code units, never half a surrogate pair. */
function capQuery(query: string): string {
  if (query.length <= MAX_QUERY_LENGTH) return query;
  const cut = query.slice(0, MAX_QUERY_LENGTH);
  return /[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut;
}

function roundScore(score: number): number {
  const factor = 10 ** SCORE_DECIMALS;
  return Math.round(score * factor) / factor;
}

/** Builds the index. Pages are looked up by position, so the array must not change afterwards. */
export function createSearchIndex(pages: readonly Page[], options: SearchIndexOptions = {}): SearchIndex {
  if (!Array.isArray(pages)) throw new TypeError('createSearchIndex: pages must be an array of Page');
  const weights = pages.map((page) => {
    const weight = options.pageWeight === undefined ? 1 : options.pageWeight(page);
    if (!Number.isFinite(weight) || weight <= 0) {
      throw new RangeError(
        `createSearchIndex: pageWeight must give a positive number, got ${weight} for ${page.path}`,
      );
    }
    return weight;
  });
  const titleKeys = pages.map((page) => titleKey(page.title));
  const indexed: readonly IndexedPage[] = pages.map((page) => {
    const body = collapseWhitespace(page.text);
    const description = collapseWhitespace(page.description);
    return {
      page,
      body,
      description,
      bodyPositions: termPositions(body),
      descriptionPositions: termPositions(description),
    };
  });
  const postings = buildPostings(indexed);
  const sortedTerms = [...postings.keys()].sort();
  const count = indexed.length;

  const idf = (term: string): number => {
    const df = postings.get(term)?.size ?? 0;
    // The "+1" form of BM25's IDF stays positive for terms in more than half the pages.
    return Math.log(1 + (count - df + 0.5) / (df + 0.5));
  };
  const termScore = (term: string, pseudoFrequency: number): number =>
    (idf(term) * pseudoFrequency * (K1 + 1)) / (pseudoFrequency + K1);

  const remembered = new Map<string, readonly string[]>();
  /** Terms that start with `prefix` (itself excluded), the ones in most pages first; remembered. */
  const expansions = (prefix: string): readonly string[] => {
    let found = remembered.get(prefix);
    if (found === undefined) {
      if (remembered.size >= MAX_REMEMBERED_PREFIXES) remembered.clear();
      found = Object.freeze(scanExpansions(prefix));
      remembered.set(prefix, found);
    }
    return found;
  };

  /** Terms that start with `prefix` (itself excluded), the ones in most pages first. */
  const scanExpansions = (prefix: string): string[] => {
    let low = 0;
    let high = sortedTerms.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if ((sortedTerms[mid] as string) < prefix) low = mid + 1;
      else high = mid;
    }
    const found: string[] = [];
    for (let i = low; i < sortedTerms.length && i < low + MAX_PREFIX_SCAN; i++) {
      const term = sortedTerms[i] as string;
      if (!term.startsWith(prefix)) break;
      if (term !== prefix) found.push(term);
    }
    found.sort((a, b) => (postings.get(b)?.size ?? 0) - (postings.get(a)?.size ?? 0) || (a < b ? -1 : 1));
    return found.slice(0, MAX_PREFIX_EXPANSIONS);
  };

  /** The pages one query word matches, each with its score and the index terms that matched. */
  const matchWord = (word: QueryWord, last: boolean): Map<number, Match> => {
    const matches = new Map<number, Match>();
    const offer = (doc: number, score: number, terms: readonly string[]) => {
      const current = matches.get(doc);
      if (current === undefined) matches.set(doc, { score, terms: new Set(terms) });
      else {
        current.score = Math.max(current.score, score);
        for (const term of terms) current.terms.add(term);
      }
    };
    for (const [doc, frequency] of postings.get(word.whole) ?? []) {
      offer(doc, termScore(word.whole, frequency), [word.whole]);
    }
    if (last && word.whole.length >= MIN_PREFIX_LENGTH) {
      const share = postings.has(word.whole) ? KNOWN_WORD_PREFIX_WEIGHT : PREFIX_WEIGHT;
      for (const term of expansions(word.whole)) {
        for (const [doc, frequency] of postings.get(term) as Postings) {
          offer(doc, share * termScore(term, frequency), [term]);
        }
      }
    }
    if (word.parts.length > 1) {
      // A compound word also matches the pages that have all its parts (`rate-limit`, `rate limit`).
      const lists = word.parts.map((part) => postings.get(part));
      if (lists.every((list) => list !== undefined)) {
        const [first, ...rest] = lists as Postings[];
        for (const [doc] of first as Postings) {
          // Only for pages without the word itself: there the word's own match says more.
          if (matches.has(doc) || !rest.every((list) => list.has(doc))) continue;
          let score = 0;
          for (const part of word.parts)
            score += termScore(part, (postings.get(part) as Postings).get(doc) as number);
          offer(doc, PARTS_WEIGHT * score, word.parts);
        }
      }
    }
    return matches;
  };

  const search = (query: string, options: SearchOptions = {}): SearchResponse => {
    const limit = options.limit ?? DEFAULT_SEARCH_LIMIT;
    if (!Number.isSafeInteger(limit) || limit < 1 || limit > MAX_SEARCH_LIMIT) {
      throw new RangeError(
        `search: limit must be an integer from 1 to ${MAX_SEARCH_LIMIT}, got ${String(limit)}`,
      );
    }
    if (typeof query !== 'string') return { results: [], matchedAllTerms: false };
    const all = queryWords(capQuery(query), MAX_QUERY_WORDS);
    const content = all.filter((word) => !STOP_WORDS.has(word.whole));
    const words = content.length > 0 ? content : all;
    if (words.length === 0) return { results: [], matchedAllTerms: false };
    const perWord = words.map((word, i) => matchWord(word, i === words.length - 1));
    const queryKey = words.map((word) => word.whole).join(' ');
    const combine = (requireAll: boolean): Map<number, Match> => {
      const combined = new Map<number, Match>();
      for (const matches of perWord) {
        for (const [doc, match] of matches) {
          const current = combined.get(doc);
          if (current === undefined) combined.set(doc, { score: match.score, terms: new Set(match.terms) });
          else {
            current.score += match.score;
            for (const term of match.terms) current.terms.add(term);
          }
        }
      }
      if (requireAll) {
        for (const doc of [...combined.keys()]) {
          if (!perWord.every((matches) => matches.has(doc))) combined.delete(doc);
        }
      }
      return combined;
    };
    let matchedAllTerms = true;
    let combined = combine(true);
    if (combined.size === 0) {
      matchedAllTerms = false;
      combined = combine(false);
    }
    const ranked = [...combined.entries()]
      .map(([doc, match]) => {
        const exact = titleKeys[doc] === queryKey ? EXACT_TITLE_WEIGHT : 1;
        return { doc, match, score: roundScore(match.score * exact * (weights[doc] as number)) };
      })
      .sort((a, b) => {
        if (b.score !== a.score) return b.score - a.score;
        const pathA = (indexed[a.doc] as IndexedPage).page.path;
        const pathB = (indexed[b.doc] as IndexedPage).page.path;
        return pathA < pathB ? -1 : pathA > pathB ? 1 : 0;
      })
      .slice(0, limit);
    const results = ranked.map(({ doc, match, score }): SearchResult => {
      const { page, body, description, bodyPositions, descriptionPositions } = indexed[doc] as IndexedPage;
      // Positions computed at build time: a snippet costs the hits it looks at, not the page's length.
      const snippet =
        makeSnippet(body, match.terms, { fallback: false, positions: bodyPositions }) ??
        makeSnippet(description, match.terms, { fallback: false, positions: descriptionPositions }) ??
        (body.length > 0
          ? makeSnippet(body, match.terms, { positions: bodyPositions })
          : makeSnippet(description, match.terms, { positions: descriptionPositions }));
      return {
        path: page.path,
        url: page.url,
        markdownUrl: page.markdownUrl,
        title: page.title,
        score,
        snippet: snippet as string,
      };
    });
    return { results, matchedAllTerms: results.length > 0 && matchedAllTerms };
  };

  return Object.freeze({ search, size: count });
}
