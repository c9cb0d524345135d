/**
 * Levenshtein distance, for "did you mean" suggestions (the Markdown 404, the tool server's
 * `get_doc`). Two rows: O(a × b) time, O(b) memory; callers cap both lengths first.
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
