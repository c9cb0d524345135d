/** `htmlResponse(html, options?)`: an HTML page with its Content-Security-Policy and safe caching headers. */
import {
  DOCS_CSP_OPTION_KEYS,
  type DocsContentSecurityPolicyOptions,
  docsContentSecurityPolicy,
} from './csp.ts';
import { hasControlCharacter } from './html.ts';

/** Options of `htmlResponse`: the policy options, or a whole policy of your own. */
export interface HtmlResponseOptions extends DocsContentSecurityPolicyOptions {
  /**
   * A complete Content-Security-Policy value that replaces the computed one (the other policy
   * options are then ignored); default: `docsContentSecurityPolicy(options)`.
   */
  contentSecurityPolicy?: string;
}

/**
 * A 200 `text/html; charset=utf-8` response with the page's CSP and: `x-content-type-options:
 * nosniff`; `cache-control: no-store`, because a page carrying a nonce must never be served twice
 * (a cached nonce is a known nonce, CSP3 §2.3.1) and docs change with every deploy;
 * `referrer-policy: no-referrer`, so the CDN serving the assets and any origin the UI calls does
 * not learn the docs URL (W3C Referrer Policy §3.1).
 */
export function htmlResponse(html: string, options: HtmlResponseOptions = {}): Response {
  if (typeof html !== 'string') throw new TypeError('htmlResponse takes the page HTML as a string');
  if (typeof options !== 'object' || options === null)
    throw new TypeError('htmlResponse options must be an object');
  const { contentSecurityPolicy, ...policyOptions } = options;
  for (const key of Object.keys(policyOptions)) {
    if (!DOCS_CSP_OPTION_KEYS.includes(key)) throw new TypeError(`htmlResponse has no option "${key}"`);
  }
  let policy: string;
  if (contentSecurityPolicy === undefined) policy = docsContentSecurityPolicy(policyOptions);
  else if (
    typeof contentSecurityPolicy !== 'string' ||
    contentSecurityPolicy.trim() === '' ||
    hasControlCharacter(contentSecurityPolicy)
  ) {
    throw new TypeError('contentSecurityPolicy must be a non-empty policy string without control characters');
  } else policy = contentSecurityPolicy;
  return new Response(html, {
    status: 200,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': policy,
      'x-content-type-options': 'nosniff',
      'cache-control': 'no-store',
      'referrer-policy': 'no-referrer',
    },
  });
}
