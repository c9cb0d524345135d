/**
 * Matching URIs against resource templates: RFC 6570 level 1 (simple string expansion, §3.2.2)
 * only. Each `{name}` stands for one non-empty run of characters without `/`, percent-decoded on
 * the way out, and never a traversal (see `isSafeSegment`). Level 2+ operators (`+ # . / ; ? &`) are refused when the template is registered,
 * rather than half-supported.
 */

type Part = { readonly literal: string } | { readonly variable: string };

/** A compiled template: its parts and the variable names in order. */
export interface CompiledUriTemplate {
  readonly template: string;
  readonly variables: readonly string[];
  /**
   * The template with every expression written `{}`: two templates of one shape match exactly the
   * same URIs (literals hold no braces, so the shape is unambiguous).
   */
  readonly shape: string;
  /** The variables of `uri`, or undefined when it does not match. */
  match(uri: string): Record<string, string> | undefined;
}

const VARIABLE_NAME = /^[A-Za-z0-9_]+$/;

/** Compiles a level-1 template; throws a TypeError starting with `where` when it is not one. */
export function compileUriTemplate(template: string, where: string): CompiledUriTemplate {
  if (typeof template !== 'string' || template.length === 0) {
    throw new TypeError(`${where}: uriTemplate must be a non-empty string`);
  }
  const parts: Part[] = [];
  let i = 0;
  while (i < template.length) {
    const open = template.indexOf('{', i);
    const literalEnd = open === -1 ? template.length : open;
    if (template.slice(i, literalEnd).includes('}')) {
      throw new TypeError(`${where}: uriTemplate ${JSON.stringify(template)} has a "}" without "{"`);
    }
    if (literalEnd > i) parts.push({ literal: template.slice(i, literalEnd) });
    if (open === -1) break;
    const close = template.indexOf('}', open);
    if (close === -1)
      throw new TypeError(`${where}: uriTemplate ${JSON.stringify(template)} has an unclosed "{"`);
    const name = template.slice(open + 1, close);
    if (!VARIABLE_NAME.test(name)) {
      throw new TypeError(
        `${where}: uriTemplate ${JSON.stringify(template)} has the expression {${name}}; only simple {name} ` +
          'expressions (RFC 6570 level 1, letters, digits and _) are supported',
      );
    }
    const previous = parts.at(-1);
    if (previous !== undefined && 'variable' in previous) {
      throw new TypeError(
        `${where}: uriTemplate ${JSON.stringify(template)} has two expressions in a row; they could not be told apart`,
      );
    }
    parts.push({ variable: name });
    i = close + 1;
  }
  const variables = parts.flatMap((part) => ('variable' in part ? [part.variable] : []));
  if (new Set(variables).size !== variables.length) {
    throw new TypeError(`${where}: uriTemplate ${JSON.stringify(template)} repeats a variable`);
  }
  return Object.freeze({
    template,
    variables: Object.freeze(variables),
    shape: parts.map((part) => ('variable' in part ? '{}' : part.literal)).join(''),
    match: (uri: string) => matchParts(parts, uri),
  });
}

/**
 * A decoded value is one path segment: never `.` or `..`, and no `/`, `\\` or control character
 * once decoded (`%2F`, `%5C`, `%00`), so a handler that maps it onto files cannot be walked out of
 * its directory.
 */
function isSafeSegment(value: string): boolean {
  if (value === '.' || value === '..') return false;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c < 0x20 || c === 0x7f || c === 0x2f || c === 0x5c) return false;
  }
  return true;
}

function matchParts(parts: readonly Part[], uri: string): Record<string, string> | undefined {
  const values: Record<string, string> = {};
  let at = 0;
  for (let p = 0; p < parts.length; p++) {
    const part = parts[p] as Part;
    if ('literal' in part) {
      if (!uri.startsWith(part.literal, at)) return undefined;
      at += part.literal.length;
      continue;
    }
    // A variable runs to the next literal, or to the end of the URI.
    const next = parts[p + 1] as { literal: string } | undefined;
    // The template's last literal is anchored at the end of the URI (`{name}.txt` matches
    // `a.txt.txt` with name `a.txt`); an inner one is found at its first occurrence.
    const last = p + 2 === parts.length;
    const end =
      next === undefined
        ? uri.length
        : last
          ? uri.endsWith(next.literal) && uri.length - next.literal.length >= at
            ? uri.length - next.literal.length
            : -1
          : uri.indexOf(next.literal, at);
    if (end === -1 || end === at) return undefined;
    const raw = uri.slice(at, end);
    if (raw.includes('/')) return undefined;
    let value: string;
    try {
      value = decodeURIComponent(raw);
    } catch {
      return undefined;
    }
    if (!isSafeSegment(value)) return undefined;
    values[part.variable] = value;
    at = end;
  }
  return at === uri.length ? values : undefined;
}
