// The `accept` allowlist of fileField: media types compared as RFC 9110 §8.3.1 says (type and subtype
// case-insensitive, parameters not part of the comparison) and filename extensions (`.png`).

/** The parsed allowlist: media types (exact or `type/*`) and lower-case extensions with their dot. */
export interface AcceptList {
  /** Exact media types, lower case, without parameters. */
  readonly types: readonly string[];
  /** `type/*` wildcards, as the lower-case prefix `type/`. */
  readonly wildcards: readonly string[];
  /** Extensions, lower case, each starting with a dot (`.png`, `.tar.gz`). */
  readonly extensions: readonly string[];
}

// RFC 9110 §5.6.2: tchar = "!" / "#" / "$" / "%" / "&" / "'" / "*" / "+" / "-" / "." / "^" / "_" / "`" / "|"
// / "~" / DIGIT / ALPHA.
const TCHAR_SYMBOLS = "!#$%&'*+-.^_`|~";

function isToken(text: string): boolean {
  if (text.length === 0) return false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const alnum = (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
    if (!alnum && !TCHAR_SYMBOLS.includes(text[i] as string)) return false;
  }
  return true;
}

/** Whether a character is a C0 or C1 control character or DEL (never part of a file name). */
export function isControlCode(code: number): boolean {
  return code < 0x20 || (code >= 0x7f && code <= 0x9f);
}

function parseExtension(entry: string): string {
  const ext = entry.toLowerCase();
  let bad = ext.length < 2 || ext.endsWith('.');
  for (let i = 1; i < ext.length && !bad; i++) {
    const c = ext.charCodeAt(i);
    bad = isControlCode(c) || c === 0x2f || c === 0x5c || c === 0x20;
  }
  if (bad) {
    throw new TypeError(`fileField: accept entry "${entry}" is not a file extension like ".png"`);
  }
  return ext;
}

/**
 * Checks an `accept` option and sorts its entries. Throws a TypeError naming the entry when it is neither
 * `type/subtype`, `type/*` nor `.ext`, or carries parameters (they take no part in the comparison).
 */
export function parseAcceptList(accept: unknown): AcceptList {
  if (!Array.isArray(accept) || accept.length === 0) {
    throw new TypeError('fileField: accept must be a non-empty array of media types or extensions');
  }
  const types: string[] = [];
  const wildcards: string[] = [];
  const extensions: string[] = [];
  for (const entry of accept as unknown[]) {
    if (typeof entry !== 'string') throw new TypeError('fileField: every accept entry must be a string');
    if (entry.startsWith('.')) {
      extensions.push(parseExtension(entry));
      continue;
    }
    const lower = entry.trim().toLowerCase();
    if (lower.includes(';')) {
      throw new TypeError(
        `fileField: accept entry "${entry}" has parameters; media types are compared without them (RFC 9110 §8.3.1)`,
      );
    }
    const slash = lower.indexOf('/');
    const top = lower.slice(0, slash);
    const sub = lower.slice(slash + 1);
    if (slash < 0 || !isToken(top) || top === '*' || !isToken(sub) || sub.includes('/')) {
      throw new TypeError(
        `fileField: accept entry "${entry}" is not a media type ("image/png", "image/*") or an extension (".png")`,
      );
    }
    if (sub === '*') wildcards.push(`${top}/`);
    else if (sub.includes('*'))
      throw new TypeError(`fileField: accept entry "${entry}" has a partial wildcard`);
    else types.push(lower);
  }
  return Object.freeze({
    types: Object.freeze(types),
    wildcards: Object.freeze(wildcards),
    extensions: Object.freeze(extensions),
  });
}

/** The essence of a declared media type: lower case, parameters and surrounding whitespace dropped. */
export function mediaTypeEssence(type: string): string {
  const semi = type.indexOf(';');
  return (semi < 0 ? type : type.slice(0, semi)).trim().toLowerCase();
}

/** Whether a declared media type is in the list's media types; an empty type matches nothing. */
export function acceptsType(list: AcceptList, declared: string): boolean {
  const essence = mediaTypeEssence(declared);
  if (essence.length === 0) return false;
  if (list.types.includes(essence)) return true;
  return list.wildcards.some((prefix) => essence.startsWith(prefix) && essence.length > prefix.length);
}

/** Whether a file name ends with one of the list's extensions (case-insensitive). */
export function acceptsExtension(list: AcceptList, filename: string): boolean {
  const lower = filename.toLowerCase();
  // `.png` alone is a hidden file named "png" with no extension, not a PNG.
  return list.extensions.some((ext) => lower.length > ext.length && lower.endsWith(ext));
}

/**
 * Why a file fails the list, or undefined when it passes. When the list names media types, the declared
 * type must match one; when it names extensions, the file name must end with one. Both are the client's
 * claims (see magicBytes for a look at the content).
 */
export function acceptIssue(list: AcceptList, declared: string, filename: string): string | undefined {
  const wantsType = list.types.length + list.wildcards.length > 0;
  if (wantsType && !acceptsType(list, declared)) {
    // The declared type is not echoed: it is client text, and the accepted list says enough.
    const allowed = [...list.types, ...list.wildcards.map((w) => `${w}*`)].join(', ');
    const what =
      mediaTypeEssence(declared).length === 0 ? 'has no media type' : 'has a media type not accepted';
    return `The file ${what}; accepted: ${allowed}`;
  }
  if (list.extensions.length > 0 && !acceptsExtension(list, filename)) {
    return `The file name does not end with an accepted extension: ${list.extensions.join(', ')}`;
  }
  return undefined;
}
