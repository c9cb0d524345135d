// The `Link` header field of RFC 8288 §3: `<uri-reference>; rel="relation-types"; title="..."`, links
// separated by commas. Everything is checked before it is written: a value that could end the URI, the
// quoted string or the header line early is refused, never escaped.

/** One link of a `Link` header. */
export interface LinkEntry {
  /** The target: an absolute URL, or a reference relative to the request URL (RFC 3986 §4.1). */
  readonly url: string | URL;
  /**
   * One or more relation types separated by spaces (RFC 8288 §3.3): registered names such as `next`
   * (lower case, §3.3) or absolute URIs (extension relation types, §2.1.2).
   */
  readonly rel: string;
  /** A human-readable label; non-ASCII text is sent as `title*` (RFC 8187). */
  readonly title?: string | undefined;
}

function isControl(code: number): boolean {
  return code <= 0x1f || code === 0x7f;
}

/** The URI-reference text, or a TypeError saying which character cannot go inside `<` `>`. */
function checkUrl(url: unknown, index: number): string {
  let text: string;
  if (url instanceof URL) text = url.href;
  else if (typeof url === 'string') text = url;
  else throw new TypeError(`buildLinkHeader: links[${index}].url must be a string or a URL`);
  if (text === '') throw new TypeError(`buildLinkHeader: links[${index}].url must not be empty`);
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    // RFC 3986 §2: a URI holds printable ASCII only, never whitespace; `<` and `>` would end the
    // reference early (RFC 8288 §3) and a control character could split the header line.
    let what: string | undefined;
    if (isControl(code)) what = 'a control character';
    else if (code === 0x20) what = 'a space';
    else if (code === 0x3c || code === 0x3e) what = `\`${text[i]}\``;
    else if (code > 0x7e) what = 'a non-ASCII character (percent-encode it, as new URL(...).href does)';
    if (what !== undefined) {
      throw new TypeError(`buildLinkHeader: links[${index}].url contains ${what} at position ${i + 1}`);
    }
  }
  return text;
}

function isLowerAlpha(code: number): boolean {
  return code >= 0x61 && code <= 0x7a;
}

function isAlpha(code: number): boolean {
  return isLowerAlpha(code) || (code >= 0x41 && code <= 0x5a);
}

function isDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}

// RFC 8288 §3.3: reg-rel-type = LOALPHA *( LOALPHA / DIGIT / "." / "-" ).
function isRegisteredName(type: string): boolean {
  if (!isLowerAlpha(type.charCodeAt(0))) return false;
  for (let i = 1; i < type.length; i++) {
    const code = type.charCodeAt(i);
    if (!isLowerAlpha(code) && !isDigit(code) && code !== 0x2e && code !== 0x2d) return false;
  }
  return true;
}

// RFC 8288 §2.1.2: an extension relation type is a URI (RFC 3986 §3: scheme ":" ...). Inside the
// quoted rel value it must also hold no quote, backslash, control, space or non-ASCII character.
function isExtensionType(type: string): boolean {
  const colon = type.indexOf(':');
  if (colon < 1 || colon === type.length - 1 || !isAlpha(type.charCodeAt(0))) return false;
  for (let i = 1; i < colon; i++) {
    const code = type.charCodeAt(i);
    // scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )
    if (!isAlpha(code) && !isDigit(code) && code !== 0x2b && code !== 0x2d && code !== 0x2e) return false;
  }
  for (let i = colon + 1; i < type.length; i++) {
    const code = type.charCodeAt(i);
    if (code <= 0x20 || code >= 0x7f || code === 0x22 || code === 0x5c || code === 0x3c || code === 0x3e) {
      return false;
    }
  }
  return true;
}

/** The relation types, checked: single spaces between them, each a registered name or an absolute URI. */
function checkRel(rel: unknown, index: number): string {
  const where = `buildLinkHeader: links[${index}].rel`;
  if (typeof rel !== 'string') throw new TypeError(`${where} must be a string`);
  if (rel === '') throw new TypeError(`${where} must not be empty`);
  for (let i = 0; i < rel.length; i++) {
    const code = rel.charCodeAt(i);
    if (code === 0x22 || code === 0x5c)
      throw new TypeError(`${where} must not contain a quote or a backslash`);
    if (isControl(code)) throw new TypeError(`${where} must not contain a control character`);
  }
  // relation-types = relation-type *( 1*SP relation-type ): no space at either end.
  if (rel.startsWith(' ') || rel.endsWith(' '))
    throw new TypeError(`${where} must not start or end with a space`);
  const types = rel.split(' ').filter((type) => type !== '');
  for (const type of types) {
    if (!isRegisteredName(type) && !isExtensionType(type)) {
      throw new TypeError(
        `${where}: ${JSON.stringify(type)} is neither a relation name (lower-case letters, digits, "." and "-", ` +
          'starting with a letter, RFC 8288 §3.3) nor an absolute URI',
      );
    }
  }
  return types.join(' ');
}

// RFC 8187 §3.2.1: attr-char = ALPHA / DIGIT / "!" / "#" / "$" / "&" / "+" / "-" / "." / "^" / "_" / "`" / "|" / "~".
const ATTR_PUNCTUATION = new Set('!#$&+-.^_`|~');
const utf8 = new TextEncoder();

/** `UTF-8''` followed by the percent-encoded UTF-8 bytes (RFC 8187 §3.2, no language tag). */
function extValue(text: string): string {
  let out = "UTF-8''";
  for (const byte of utf8.encode(text)) {
    const char = String.fromCharCode(byte);
    if (byte < 0x80 && (isAlpha(byte) || isDigit(byte) || ATTR_PUNCTUATION.has(char))) out += char;
    else out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** `; title="..."` for ASCII text, `; title*=UTF-8''...` otherwise (RFC 8288 §3.4.1 with RFC 8187). */
function titleParam(title: unknown, index: number): string {
  const where = `buildLinkHeader: links[${index}].title`;
  if (typeof title !== 'string') throw new TypeError(`${where} must be a string`);
  let ascii = true;
  for (let i = 0; i < title.length; i++) {
    const code = title.charCodeAt(i);
    if (code === 0x22 || code === 0x5c)
      throw new TypeError(`${where} must not contain a quote or a backslash`);
    if (isControl(code)) throw new TypeError(`${where} must not contain a control character`);
    if (code >= 0xd800 && code <= 0xdfff) {
      // A lone surrogate has no UTF-8 form; a pair is one character and is fine.
      const next = title.charCodeAt(i + 1);
      if (code > 0xdbff || !(next >= 0xdc00 && next <= 0xdfff)) {
        throw new TypeError(`${where} contains a lone surrogate, which has no UTF-8 encoding`);
      }
      i++;
    }
    if (code > 0x7e) ascii = false;
  }
  return ascii ? `; title="${title}"` : `; title*=${extValue(title)}`;
}

/**
 * Serializes links as an RFC 8288 `Link` header value: `<url>; rel="next"; title="..."`, joined with
 * `, ` (an empty list gives an empty string). Throws a TypeError for a URL with a control character,
 * whitespace, `<`, `>` or non-ASCII text; a rel or title with a quote, backslash or control character;
 * and a rel that is not a space-separated list of relation names or absolute URIs.
 * @example buildLinkHeader([{ url: 'https://api.example/items?cursor=abc', rel: 'next' }])
 */
export function buildLinkHeader(entries: readonly LinkEntry[]): string {
  if (!Array.isArray(entries)) throw new TypeError('buildLinkHeader: the links must be an array');
  return entries
    .map((entry: unknown, index) => {
      if (typeof entry !== 'object' || entry === null) {
        throw new TypeError(`buildLinkHeader: links[${index}] must be an object with url and rel`);
      }
      const { url, rel, title } = entry as LinkEntry;
      const link = `<${checkUrl(url, index)}>; rel="${checkRel(rel, index)}"`;
      return title === undefined ? link : link + titleParam(title, index);
    })
    .join(', ');
}
