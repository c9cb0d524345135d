/**
 * Heading ids. The slug follows the rule GitHub uses for Markdown headings (lower-case; letters,
 * marks, digits, `-` and `_` kept; each space becomes `-`; everything else dropped), so an anchor
 * written against the Markdown on GitHub also works on the site. Repeats get `-2`, `-3`... suffixes.
 */

const KEPT = /[\p{L}\p{M}\p{N}_-]/u;

/** The slug of a heading's plain text (`Time claims: x()` -> `time-claims-x`); `section` if empty. */
export function slugify(text: string): string {
  let slug = '';
  for (const char of text.trim().toLowerCase()) {
    if (char === ' ') slug += '-';
    else if (KEPT.test(char)) slug += char;
  }
  return slug === '' ? 'section' : slug;
}

/** Hands out unique ids within one page. */
export class Slugger {
  readonly #used: Set<string>;

  /** `reserved`: ids already taken on the page (the layout's own ids). */
  constructor(reserved: Iterable<string> = []) {
    this.#used = new Set(reserved);
  }

  /** A unique id for a heading with this plain text. */
  slug(text: string): string {
    const base = slugify(text);
    let id = base;
    for (let n = 2; this.#used.has(id); n++) id = `${base}-${n}`;
    this.#used.add(id);
    return id;
  }
}
