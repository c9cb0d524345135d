/**
 * Levenshtein distance, for "did you mean" suggestions (the Markdown 404, the tool server's
 * `get_doc`). `editDistance` is the plain two-row form, O(a × b) time, O(b) memory; callers cap both
 * lengths first. `editDistanceWithin` stops early once the distance must exceed a bound (Ukkonen,
 * "Algorithms for approximate string matching", 1985: only the diagonal band |i - j| <= max can
 * stay within it), so comparing against a far candidate costs O(max × a), not O(a × b).
 */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  let previous = new Array<number>(b.length + 1);
  let current = new Array<number>(b.length + 1);
  for (let j = 0; j <= b.length; j++) previous[j] = j;
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    const ca = a.charCodeAt(i - 1);
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] as number) + (ca === b.charCodeAt(j - 1) ? 0 : 1);
      current[j] = Math.min((previous[j] as number) + 1, (current[j - 1] as number) + 1, substitution);
    }
    [previous, current] = [current, previous];
  }
  return previous[b.length] as number;
}

/**
 * The Levenshtein distance of `a` and `b` when it is at most `max`, else `max + 1`. Only cells of
 * the band |i - j| <= max are computed, and the scan stops at a row whose every cell exceeds `max`
 * (distances along a path never decrease).
 */
export function editDistanceWithin(a: string, b: string, max: number): number {
  if (a === b) return 0;
  const over = max + 1;
  if (Math.abs(a.length - b.length) > max) return over;
  const width = b.length + 1;
  let previous = new Int32Array(width);
  let current = new Int32Array(width);
  for (let j = 0; j < width; j++) previous[j] = j <= max ? j : over;
  for (let i = 1; i <= a.length; i++) {
    const from = Math.max(1, i - max);
    const to = Math.min(b.length, i + max);
    // Outside the band a cell is "more than max"; the band's left edge reads it.
    current[from - 1] = from === 1 && i <= max ? i : over;
    let rowMin = current[from - 1] as number;
    const ca = a.charCodeAt(i - 1);
    for (let j = from; j <= to; j++) {
      let cell = (previous[j - 1] as number) + (ca === b.charCodeAt(j - 1) ? 0 : 1);
      const deletion = (previous[j] as number) + 1;
      if (deletion < cell) cell = deletion;
      const insertion = (current[j - 1] as number) + 1;
      if (insertion < cell) cell = insertion;
      if (cell > over) cell = over;
      current[j] = cell;
      if (cell < rowMin) rowMin = cell;
    }
    if (to < b.length) current[to + 1] = over;
    if (rowMin > max) return over;
    [previous, current] = [current, previous];
  }
  return Math.min(previous[b.length] as number, over);
}

/** Longest pattern `compileEditDistance` runs bit-parallel: one 32-bit word. */
const WORD = 32;

/**
 * A distance function for one fixed `pattern`, prepared once: `(text, max)` answers what
 * `editDistanceWithin(text, pattern, max)` does. A pattern of up to 32 code units runs Myers'
 * bit-vector algorithm in the global form of Hyyrö ("Explaining and extending the bit-parallel
 * approximate string matching algorithm of Myers", 2001): the whole column of the table is one
 * word, so a text of n code units costs n steps of a dozen word operations, whatever the pattern's
 * length. Longer patterns use the banded table.
 */
export function compileEditDistance(pattern: string): (text: string, max: number) => number {
  const m = pattern.length;
  if (m === 0) return (text, max) => Math.min(text.length, max + 1);
  if (m > WORD) return (text, max) => editDistanceWithin(text, pattern, max);
  // Peq: for each code unit, the positions of the pattern holding it (bit i = pattern[i]).
  const ascii = new Int32Array(128);
  const other = new Map<number, number>();
  for (let i = 0; i < m; i++) {
    const code = pattern.charCodeAt(i);
    if (code < 128) ascii[code] = (ascii[code] as number) | (1 << i);
    else other.set(code, (other.get(code) ?? 0) | (1 << i));
  }
  const mask = m === WORD ? -1 : (1 << m) - 1;
  const last = 1 << (m - 1);
  return (text, max) => {
    const n = text.length;
    if (Math.abs(n - m) > max) return max + 1;
    let pv = mask;
    let mv = 0;
    let score = m;
    for (let j = 0; j < n; j++) {
      const code = text.charCodeAt(j);
      const eq = code < 128 ? (ascii[code] as number) : (other.get(code) ?? 0);
      const xv = eq | mv;
      // The carry of the addition runs along matches: ToInt32 keeps the low 32 bits.
      const xh = ((((eq & pv) + pv) ^ pv) | eq) & mask;
      let ph = (mv | ~(xh | pv)) & mask;
      let mh = pv & xh;
      if (ph & last) score++;
      else if (mh & last) score--;
      // Global distance: the top row of the table grows by one per text character.
      ph = ((ph << 1) | 1) & mask;
      mh = (mh << 1) & mask;
      pv = (mh | ~(xv | ph)) & mask;
      mv = ph & xv;
      // Each remaining character lowers the score by at most one.
      if (score - (n - 1 - j) > max) return max + 1;
    }
    return score <= max ? score : max + 1;
  };
}
