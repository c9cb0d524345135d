/**
 * Proactive content negotiation between a page's two representations (RFC 9110 §12.1, §12.5.1):
 * `text/html` and `text/markdown`, both `charset=utf-8`. The `Accept` field is read with a plain
 * scanner (no regular expressions), in time linear in its length.
 */

/** The media types a page is available in. */
export type PageMediaType = 'text/html' | 'text/markdown';

/** The outcome of negotiating a page's representation. */
export interface Negotiated {
  /** The representation to send. */
  readonly type: PageMediaType;
  /**
   * Whether the client accepts `type` (a member of its `Accept` field matched it with q > 0, or it
   * sent no `Accept` field). False when neither type was acceptable and HTML was sent anyway.
   */
  readonly acceptable: boolean;
}

/** One member of an `Accept` field that parsed. */
export interface MediaRange {
  /** Lower-cased type, or `*`. */
  readonly type: string;
  /** Lower-cased subtype, or `*`. */
  readonly subtype: string;
  /** Parameters other than the weight: lower-cased names, values unquoted as written. */
  readonly params: ReadonlyArray<readonly [string, string]>;
  /** The weight (RFC 9110 §12.4.2), 0 to 1 in thousandths; 1 when absent. */
  readonly q: number;
}

// RFC 9110 §5.6.2 tchar.
const TCHAR = new Uint8Array(128);
for (const ch of "!#$%&'*+-.^_`|~") TCHAR[ch.charCodeAt(0)] = 1;
for (let c = 48; c <= 57; c++) TCHAR[c] = 1;
for (let c = 65; c <= 90; c++) TCHAR[c] = 1;
for (let c = 97; c <= 122; c++) TCHAR[c] = 1;

function isToken(s: string): boolean {
  if (s.length === 0) return false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 128 || TCHAR[c] !== 1) return false;
  }
  return true;
}

/** RFC 9110 §12.4.2 qvalue: `0[.ddd]` or `1[.000]`, as thousandths; undefined when malformed. */
function parseQValue(s: string): number | undefined {
  const n = s.length;
  if (n === 0 || n > 5) return undefined;
  const lead = s.charCodeAt(0);
  if (lead !== 48 && lead !== 49) return undefined;
  if (n === 1) return lead === 48 ? 0 : 1000;
  if (s.charCodeAt(1) !== 46) return undefined;
  let thousandths = 0;
  for (let i = 2; i < 5; i++) {
    const digit = i < n ? s.charCodeAt(i) - 48 : 0;
    if (digit < 0 || digit > 9) return undefined;
    thousandths = thousandths * 10 + digit;
  }
  if (lead === 49) return thousandths === 0 ? 1000 : undefined;
  return thousandths;
}

/**
 * Splits a field value at the commas that are outside quoted strings (RFC 9110 §5.6.1 lists,
 * §5.6.4 quoted-string, where a backslash escapes the next character).
 */
function splitOutsideQuotes(value: string, separator: number): string[] {
  const parts: string[] = [];
  let start = 0;
  let quoted = false;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (quoted) {
      if (c === 92) i++;
      else if (c === 34) quoted = false;
    } else if (c === 34) quoted = true;
    else if (c === separator) {
      parts.push(value.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(value.slice(start));
  return parts;
}

/** A parameter value: a token, or a quoted string with its escapes removed; undefined when malformed. */
function parameterValue(raw: string): string | undefined {
  if (raw.charCodeAt(0) !== 34) return isToken(raw) ? raw : undefined;
  if (raw.length < 2 || raw.charCodeAt(raw.length - 1) !== 34) return undefined;
  let out = '';
  for (let i = 1; i < raw.length - 1; i++) {
    let c = raw[i]!;
    if (c === '\\') {
      i++;
      if (i >= raw.length - 1) return undefined;
      c = raw[i]!;
    } else if (c === '"') return undefined;
    out += c;
  }
  return out;
}

const OWS = ' \t';

function trimOws(s: string): string {
  let start = 0;
  let end = s.length;
  while (start < end && OWS.includes(s[start]!)) start++;
  while (end > start && OWS.includes(s[end - 1]!)) end--;
  return s.slice(start, end);
}

/** One `Accept` member, or undefined when it is malformed (it is then ignored, not fatal). */
function parseMember(member: string): MediaRange | undefined {
  const pieces = splitOutsideQuotes(member, 59); // ';'
  const range = trimOws(pieces[0]!).toLowerCase();
  const slash = range.indexOf('/');
  if (slash < 0) return undefined;
  const type = range.slice(0, slash);
  const subtype = range.slice(slash + 1);
  if (!isToken(type) || !isToken(subtype)) return undefined;
  // `*/html` names no range RFC 9110 §12.5.1 allows.
  if (type === '*' && subtype !== '*') return undefined;
  const params: Array<readonly [string, string]> = [];
  let q = 1000;
  for (let i = 1; i < pieces.length; i++) {
    const piece = trimOws(pieces[i]!);
    if (piece === '') continue; // `text/html;` : parameters = *( OWS ";" OWS [ parameter ] )
    const eq = piece.indexOf('=');
    if (eq <= 0) return undefined;
    const name = piece.slice(0, eq).toLowerCase();
    if (!isToken(name)) return undefined;
    const value = parameterValue(piece.slice(eq + 1));
    if (value === undefined) return undefined;
    if (name === 'q') {
      const weight = parseQValue(value);
      if (weight === undefined) return undefined;
      q = weight;
    } else params.push([name, value]);
  }
  return { type, subtype, params, q };
}

/** The members of an `Accept` field value that parse; malformed ones are dropped. Never throws. */
export function parseAccept(value: string): MediaRange[] {
  const ranges: MediaRange[] = [];
  for (const member of splitOutsideQuotes(value, 44)) {
    if (trimOws(member) === '') continue; // empty list elements are allowed (RFC 9110 §5.6.1.2)
    const range = parseMember(member);
    if (range !== undefined) ranges.push(range);
  }
  return ranges;
}

/**
 * How specifically `range` names `type/subtype; charset=utf-8`: -1 when it does not match, else
 * 0 for `*\/*`, 1 for `type/*`, 2 for `type/subtype`, 3 for `type/subtype` with parameters.
 * A `charset` parameter matches only `utf-8` (the only charset served); other parameters (such as
 * RFC 7763's `variant`) are not used to tell our representations apart, so they do not prevent a
 * match, but they make the range more specific, as RFC 9110 §12.5.1's `text/plain;format=flowed`.
 */
function specificity(range: MediaRange, type: string, subtype: string): number {
  for (const [name, value] of range.params) {
    if (name === 'charset' && value.toLowerCase() !== 'utf-8') return -1;
  }
  if (range.type === '*') return 0;
  if (range.type !== type) return -1;
  if (range.subtype === '*') return 1;
  if (range.subtype !== subtype) return -1;
  return range.params.length > 0 ? 3 : 2;
}

/** The weight the ranges give a media type: that of its most specific matching range, or 0. */
export function qualityOf(ranges: readonly MediaRange[], mediaType: PageMediaType): number {
  const slash = mediaType.indexOf('/');
  const type = mediaType.slice(0, slash);
  const subtype = mediaType.slice(slash + 1);
  let best = -1;
  let q = 0;
  for (const range of ranges) {
    const level = specificity(range, type, subtype);
    // Equally specific ranges that disagree: the first one wins (the RFC leaves it open).
    if (level > best) {
      best = level;
      q = range.q;
    }
  }
  return q;
}

const HTML: Negotiated = Object.freeze({ type: 'text/html', acceptable: true });
const MARKDOWN: Negotiated = Object.freeze({ type: 'text/markdown', acceptable: true });
const HTML_ANYWAY: Negotiated = Object.freeze({ type: 'text/html', acceptable: false });

/**
 * Picks `text/html` or `text/markdown` for a request's `Accept` field (RFC 9110 §12.5.1): the
 * higher weight wins, where each type takes the weight of the most specific member matching it
 * (`text/markdown` beats `text/*` beats `*\/*`); `q=0` means "not acceptable"; malformed members
 * are ignored. Ties go to HTML, and so does an absent or empty field (the browser case). When the
 * client accepts neither type (`Accept: application/json`), HTML is sent anyway with
 * `acceptable: false`: RFC 9110 §12.5.1 lets a server disregard the field rather than answer
 * 406, and a page is more use than an error. Never throws.
 */
export function negotiatePage(accept: string | null | undefined): Negotiated {
  if (accept === null || accept === undefined || trimOws(accept) === '') return HTML;
  const ranges = parseAccept(accept);
  if (ranges.length === 0) return HTML; // nothing usable: as if the field were absent
  const html = qualityOf(ranges, 'text/html');
  const markdown = qualityOf(ranges, 'text/markdown');
  if (html === 0 && markdown === 0) return HTML_ANYWAY;
  return markdown > html ? MARKDOWN : HTML;
}
