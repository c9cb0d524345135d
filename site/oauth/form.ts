/**
 * Reads the `application/x-www-form-urlencoded` body of an OAuth endpoint (RFC 6749 §3.2, RFC 7662
 * §2.1). The route declares no body schema, so the pipeline's 415 never answers: a wrong media type
 * is an OAuth `invalid_request` (RFC 6749 §5.2 governs these endpoints). The body is still bounded by
 * the App's body limit, which the request handed to a handler enforces (a 413 problem past it).
 */
import { type OAuthErrorResult, oauthError } from './oauth-error.ts';

/** The parameters of a form, after the RFC 6749 §3.2 rules. */
export interface OAuthForm {
  /** Parameters that may appear once, by name: only the names the endpoint knows. */
  readonly single: ReadonlyMap<string, string>;
  /** Parameters that may repeat (`resource`, RFC 8707 §2), by name, in order. */
  readonly multi: ReadonlyMap<string, readonly string[]>;
}

/** What an endpoint reads: the names it knows, and which of them may repeat. */
export interface OAuthFormSpec {
  readonly known: readonly string[];
  readonly repeatable?: readonly string[];
  /**
   * Names whose empty value is kept instead of counting as absent, for the endpoint to refuse:
   * `resource`, which RFC 8707 §2 requires to be an absolute URI. Dropping an empty one would widen
   * the token's audience to the whole origin, the opposite of what a client asking for a resource meant.
   */
  readonly keepEmpty?: readonly string[];
}

const FORM_TYPE = 'application/x-www-form-urlencoded';
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Whether a Content-Type is the form media type with, at most, a UTF-8 charset (RFC 6749 Appendix B). */
function isFormContentType(header: string | null): boolean {
  if (header === null) return false;
  const [essence = '', ...params] = header.split(';');
  if (essence.trim().toLowerCase() !== FORM_TYPE) return false;
  for (const param of params) {
    const eq = param.indexOf('=');
    const name = (eq < 0 ? param : param.slice(0, eq)).trim().toLowerCase();
    if (name !== 'charset') continue;
    const value =
      eq < 0
        ? ''
        : param
            .slice(eq + 1)
            .trim()
            .toLowerCase();
    if (value !== 'utf-8' && value !== '"utf-8"') return false;
  }
  return true;
}

/**
 * The form parameters of `request`, or the OAuth error to answer:
 * - a Content-Type other than `application/x-www-form-urlencoded` (UTF-8): `invalid_request`;
 * - a body that is not UTF-8: `invalid_request`;
 * - a known parameter that is not repeatable given twice: `invalid_request` (RFC 6749 §3.2).
 * Empty values count as absent (RFC 6749 §3.2), except for the names in `spec.keepEmpty`; unknown
 * parameters are ignored (RFC 6749 §3.2).
 * A body over the App's limit rejects with its 413 HttpError, which the pipeline renders.
 */
export async function readOAuthForm(
  request: Request,
  spec: OAuthFormSpec,
): Promise<OAuthForm | OAuthErrorResult> {
  if (!isFormContentType(request.headers.get('content-type'))) {
    return oauthError(
      'invalid_request',
      'The request body must be application/x-www-form-urlencoded in UTF-8 (RFC 6749 section 3.2).',
    );
  }
  const bytes = new Uint8Array(await request.arrayBuffer());
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return oauthError('invalid_request', 'The request body is not valid UTF-8.');
  }
  const known = new Set(spec.known);
  const repeatable = new Set(spec.repeatable ?? []);
  const keepEmpty = new Set(spec.keepEmpty ?? []);
  const single = new Map<string, string>();
  const multi = new Map<string, string[]>();
  for (const [name, value] of new URLSearchParams(text)) {
    if ((value === '' && !keepEmpty.has(name)) || !known.has(name)) continue;
    if (repeatable.has(name)) {
      const list = multi.get(name) ?? [];
      list.push(value);
      multi.set(name, list);
      continue;
    }
    if (single.has(name)) {
      // `name` is one of the endpoint's own parameter names, never client text.
      return oauthError(
        'invalid_request',
        `The parameter ${name} is given more than once (RFC 6749 section 3.2).`,
      );
    }
    single.set(name, value);
  }
  return { single, multi };
}

/** Whether a value read by `readOAuthForm` is an error to answer. */
export function isOAuthErrorResult(value: OAuthForm | OAuthErrorResult): value is OAuthErrorResult {
  return 'status' in value;
}
