/**
 * Refusing option names nobody reads. In JavaScript, `serve(app, { prot: 3020 })` or
 * `new App({ bodyLimit: 10 })` would otherwise be silently ignored (the server listens on 3000, the
 * body limit stays 1 MiB): the typo is refused where it is made, with the closest known name.
 */

/**
 * Edit distance with adjacent transpositions (optimal string alignment): `prot` is one edit from
 * `port`, as a typist sees it. Three rows; names are short.
 */
function distance(a: string, b: string): number {
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(
        (previous[j] as number) + 1,
        (current[j - 1] as number) + 1,
        (previous[j - 1] as number) + cost,
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, (before[j - 2] as number) + 1);
      }
      current[j] = best;
    }
    before = previous;
    previous = current;
  }
  return previous[b.length] as number;
}

/** Longest name compared: a longer key is no typo of an option, and the distance is quadratic. */
const MAX_COMPARED_LENGTH = 64;

/**
 * The known name closest to `input`: within a third of its length (at least 1, at most 3 edits),
 * compared without case; a known name that starts with `input` (`bodyLimit` for `bodyLimitBytes`)
 * counts as close. Undefined when none is.
 */
export function closestOptionName(input: string, known: readonly string[]): string | undefined {
  if (input.length > MAX_COMPARED_LENGTH) return undefined;
  const typed = input.toLowerCase();
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  const limit = Math.min(3, Math.max(1, Math.floor(input.length / 3)));
  for (const name of known) {
    const lower = name.toLowerCase();
    const d = lower.startsWith(typed) && typed.length >= 3 ? 1 : distance(typed, lower);
    if (d < bestDistance) {
      best = name;
      bestDistance = d;
    }
  }
  return bestDistance <= limit ? best : undefined;
}

/** A printable, bounded form of a key the user typed, for the message (quotes and controls replaced). */
function shown(key: string): string {
  const clean = key.replace(/[\u0000-\u001f\u007f-\u009f"\\]/g, '?');
  return clean.length > 80 ? `${clean.slice(0, 79)}...` : clean;
}

/**
 * Throws `error(key, problem)` for the first own key of `options` that is not in `known` (`key` made
 * printable and bounded), the problem saying which options exist and, when one is close,
 * `did you mean "..."?`.
 *
 * @example assertKnownOptions(options, ['port', 'hostname'], (key, problem) => new TypeError(`serve() option "${key}" ${problem}`));
 */
export function assertKnownOptions(
  options: object,
  known: readonly string[],
  error: (key: string, problem: string) => Error,
): void {
  // `includes`, not a Set made from `known`: the lists are short, and a Set filled from a frozen
  // array goes through the iterator protocol, whose first use costs a process about a millisecond
  // (issue 18, item 6: the compiled site's start-up).
  for (const key of Object.keys(options)) {
    if (known.includes(key)) continue;
    const suggestion = closestOptionName(key, known);
    throw error(
      shown(key),
      suggestion === undefined
        ? `is not an option (known: ${[...known].sort().join(', ')})`
        : `is not an option; did you mean "${suggestion}"?`,
    );
  }
}
