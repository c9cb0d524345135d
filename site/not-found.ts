/**
 * Paths no route matches get the 404 their client can read: a browser (its Accept names
 * `text/html`) the site's HTML not-found page, an agent asking for Markdown (a `.md` path, or
 * `text/markdown` preferred) the Markdown one with recovery links (site.md Errors rule 3), and
 * everyone else, and every path of the machine surfaces (`/api`, `/.well-known`, `/oauth`, `/mcp`),
 * the problem document. Matched routes answer their own 404s.
 */
import { type Hooks, isHttpError } from '@charter/core';
import type { ContentSite } from './content/types.ts';
import { PAGE_CSP, renderNotFoundDocument } from './html/index.ts';
import { negotiatePage, parseAccept } from './pages/negotiate.ts';
import { markdownNotFound } from './pages/not-found.ts';

/** Options of `notFoundFallback`. */
export interface NotFoundFallbackOptions {
  readonly content: ContentSite;
  readonly origin: string;
}

const MAX_PATH = 256;

/** The machine surfaces: their 404s are always problem documents (site.md Errors rule 1). */
const MACHINE_PREFIXES = ['/api', '/.well-known', '/oauth', '/mcp'];

function isMachinePath(path: string): boolean {
  if (path.startsWith('/openapi.')) return true;
  return MACHINE_PREFIXES.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
}

/** True when the client names `text/html` itself (a browser), not merely through a wildcard range. */
function namesHtml(accept: string): boolean {
  return parseAccept(accept).some(
    (range) => range.type === 'text' && range.subtype === 'html' && range.q > 0,
  );
}

function decodedPath(request: Request): string {
  let path = new URL(request.url).pathname.slice(0, MAX_PATH * 3);
  try {
    path = decodeURIComponent(path);
  } catch {
    // A malformed escape is shown as sent.
  }
  return path.slice(0, MAX_PATH);
}

/** The onError hook answering unmatched paths in HTML or Markdown when the client prefers it. */
export function notFoundFallback(options: NotFoundFallbackOptions): Hooks {
  const { content, origin } = options;
  return {
    onError(error, ctx, request) {
      if (ctx !== undefined || !isHttpError(error) || error.status !== 404) return;
      if (request.method !== 'GET' && request.method !== 'HEAD') return;
      const path = decodedPath(request);
      if (isMachinePath(path)) return;
      const accept = request.headers.get('accept');
      const wantsMarkdown =
        path.endsWith('.md') || (accept !== null && negotiatePage(accept).type === 'text/markdown');
      const headers = { vary: 'Accept', 'cache-control': 'no-cache' };
      if (wantsMarkdown) {
        const pagePath = path.replace(/^\/(md\/)?/, '').replace(/\.md$/, '');
        const body = markdownNotFound(content, origin, { requested: path, pagePath });
        return new Response(request.method === 'HEAD' ? null : body, {
          status: 404,
          headers: { ...headers, 'content-type': 'text/markdown; charset=utf-8' },
        });
      }
      if (accept !== null && namesHtml(accept)) {
        const body = renderNotFoundDocument(content, { origin, path });
        return new Response(request.method === 'HEAD' ? null : body, {
          status: 404,
          headers: {
            ...headers,
            'content-type': 'text/html; charset=utf-8',
            'content-security-policy': PAGE_CSP,
          },
        });
      }
    },
  };
}
