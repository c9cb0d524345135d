/**
 * "Did you mean": the page paths closest to one that names no page, for the not-found answers
 * (the Markdown 404 today; the HTML 404 can use the same). The ranking is Levenshtein distance
 * (case-insensitive), then the longest shared prefix, then the order the paths were given in.
 *
 * Built once per list of paths, so a 404 costs a few comparisons, not one full edit-distance table
 * per page (issue 17: 0.78 ms of CPU per unmatched `.md` path, 8 to 20 times any other answer that
 * no quota limits). What bounds a lookup:
 *
 *   - the requested path is cut to the longest page path plus `SLACK` characters: past that every
 *     page is just as far, and the extra characters only cost time;
 *   - each candidate gets a lower bound of its distance, cheap to compute: the difference of the
 *     lengths, and the bag distance (Bartolini, Ciaccia and Patella, "String matching with metric
 *     trees using an approximate distance", SPIRE 2002), the characters one string has that the
 *     other lacks, counted from histograms built with the index. Candidates are visited lowest bound
 *     first, and once a bound passes the current k-th best distance, no later one can enter the top
 *     k: the visit stops;
 *   - each exact comparison runs on the path compiled with the index (`compileEditDistance`: a
 *     bit-parallel column per text character), and stops once it must pass the current k-th best.
 */
import { compileEditDistance } from './edit-distance.ts';

/** Characters kept beyond the longest page path when comparing a requested path. */
export const SLACK = 8;

/** A built index of paths. */
export interface PathSuggestions {
  /**
   * The positions (in the list given to `createPathSuggestions`) of the `limit` paths closest to
   * `wanted`, closest first. Never throws; a limit below 1 gives none.
   */
  closest(wanted: string, limit: number): number[];
  /** How many characters of a requested path are compared. */
  readonly maxCompared: number;
}

/** Characters are counted in this many buckets (code unit modulo): a lower bound all the same. */
const BUCKETS = 64;

interface Candidate {
  readonly index: number;
  readonly path: string;
  readonly histogram: Uint8Array;
  /** The edit distance of a text to this path, at most a bound (else bound + 1). */
  readonly distanceTo: (text: string, max: number) => number;
}

interface Ranked {
  readonly index: number;
  readonly distance: number;
  readonly prefix: number;
}

function histogramOf(text: string): Uint8Array {
  const histogram = new Uint8Array(BUCKETS);
  for (let i = 0; i < text.length; i++) {
    const bucket = text.charCodeAt(i) % BUCKETS;
    // Saturates at 255: a smaller count keeps the bound a lower bound.
    if ((histogram[bucket] as number) < 255) histogram[bucket] = (histogram[bucket] as number) + 1;
  }
  return histogram;
}

/**
 * A lower bound of the edit distance: each edit changes at most one character on each side, so the
 * characters of `a` missing from `b` (and the reverse) need at least that many edits.
 */
function bagDistance(a: Uint8Array, b: Uint8Array): number {
  let onlyA = 0;
  let onlyB = 0;
  for (let i = 0; i < BUCKETS; i++) {
    const d = (a[i] as number) - (b[i] as number);
    if (d > 0) onlyA += d;
    else onlyB -= d;
  }
  return Math.max(onlyA, onlyB);
}

function sharedPrefix(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

/** Whether `x` ranks before `y`: smaller distance, then longer shared prefix, then given order. */
function before(x: Ranked, y: Ranked): boolean {
  return (x.distance - y.distance || y.prefix - x.prefix || x.index - y.index) < 0;
}

/** Indexes `paths` (page paths such as `docs/jwt`); the list must not change afterwards. */
export function createPathSuggestions(paths: readonly string[]): PathSuggestions {
  if (!Array.isArray(paths) || paths.some((path) => typeof path !== 'string')) {
    throw new TypeError('createPathSuggestions: paths must be an array of strings');
  }
  const longest = paths.reduce((max, path) => Math.max(max, path.length), 0);
  const maxCompared = longest + SLACK;
  const candidates: readonly Candidate[] = paths.map((path, index) => {
    const lower = path.slice(0, maxCompared).toLowerCase();
    return { index, path: lower, histogram: histogramOf(lower), distanceTo: compileEditDistance(lower) };
  });

  const closest = (wanted: string, limit: number): number[] => {
    if (!(limit >= 1) || candidates.length === 0) return [];
    const k = Math.min(Math.floor(limit), candidates.length);
    const target = String(wanted).slice(0, maxCompared).toLowerCase();
    const histogram = histogramOf(target);
    const bounded = candidates
      .map((candidate) => ({
        candidate,
        lower: Math.max(
          Math.abs(candidate.path.length - target.length),
          bagDistance(histogram, candidate.histogram),
        ),
      }))
      .sort((a, b) => a.lower - b.lower || a.candidate.index - b.candidate.index);
    const top: Ranked[] = [];
    for (const { candidate, lower } of bounded) {
      // The k-th best so far; a candidate whose lower bound passes it cannot enter, nor any after it.
      const kth = top.length < k ? undefined : (top[k - 1] as Ranked);
      const worst = kth === undefined ? maxCompared : kth.distance;
      if (lower > worst) break;
      const prefix = sharedPrefix(target, candidate.path);
      // At best a tie on distance, which the k-th wins on prefix or order: no need to compute it.
      if (
        kth !== undefined &&
        lower === worst &&
        before(kth, { index: candidate.index, distance: lower, prefix })
      )
        continue;
      const distance = candidate.distanceTo(target, worst);
      if (distance > worst) continue;
      const ranked = { index: candidate.index, distance, prefix };
      let at = top.length;
      while (at > 0 && before(ranked, top[at - 1] as Ranked)) at--;
      if (at >= k) continue;
      top.splice(at, 0, ranked);
      if (top.length > k) top.pop();
    }
    return top.map((entry) => entry.index);
  };

  return Object.freeze({ closest, maxCompared });
}

const built = new WeakMap<readonly { readonly path: string }[], PathSuggestions>();

/** The index of a list of pages, built the first time it is asked for and kept while the list lives. */
export function pathSuggestionsOf(pages: readonly { readonly path: string }[]): PathSuggestions {
  let index = built.get(pages);
  if (index === undefined) {
    index = createPathSuggestions(pages.map((page) => page.path));
    built.set(pages, index);
  }
  return index;
}
