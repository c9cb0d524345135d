/**
 * The versioning and deprecation policy of the site's JSON APIs (site.md "Versioning" and the
 * lifecycle table): published as `x-api-lifecycle` in the OpenAPI document and as `versioning` in
 * the API index, from this one definition, so the two can never disagree.
 */

/** The current major of the JSON APIs. */
export const API_MAJOR = '1';
/** The versioned path of the current major. */
export const API_PATH = '/api/v1';
/** The version header, echoed on every JSON API response and accepted on requests to `/api/v1`. */
export const API_VERSION_HEADER = 'API-Version';
/** Minimum notice before a surface is retired. */
export const SUNSET_NOTICE_DAYS = 180;
/** When `/docs-md` was deprecated in favour of `/md` (sent as `Deprecation: @<seconds>`). */
export const DOCS_MD_DEPRECATED_AT = '2026-06-01';
/** The page that states the policy. */
export const POLICY_PAGE = '/docs/versioning';

/** One surface of the lifecycle table. */
export interface Surface {
  readonly id: string;
  readonly path: string;
  readonly url: string;
  readonly status: 'current' | 'deprecated';
  /** `YYYY-MM-DD`, or null while current. */
  readonly deprecatedAt: string | null;
  /** `YYYY-MM-DD`, or null while no retirement is scheduled. */
  readonly sunsetAt: string | null;
  /** The path that replaces it, or null. */
  readonly successor: string | null;
  readonly summary: string;
}

/** The `x-api-lifecycle` object (site.md "Lifecycle description"). */
export interface Lifecycle {
  readonly current: string;
  readonly path: string;
  readonly header: string;
  readonly documentation: string;
  readonly sunsetNoticeDays: number;
  readonly signals: {
    readonly deprecationHeader: 'Deprecation';
    readonly deprecationHeaderFormat: string;
    readonly sunsetHeader: 'Sunset';
    readonly sunsetHeaderFormat: string;
    readonly linkRelations: readonly string[];
  };
  readonly surfaces: readonly Surface[];
}

/** The policy for a site served at `origin`. */
export function lifecycle(origin: string): Lifecycle {
  const surface = (s: Omit<Surface, 'url'>): Surface => ({ ...s, url: origin + s.path });
  return {
    current: API_MAJOR,
    path: API_PATH,
    header: API_VERSION_HEADER,
    documentation: origin + POLICY_PAGE,
    sunsetNoticeDays: SUNSET_NOTICE_DAYS,
    signals: {
      deprecationHeader: 'Deprecation',
      deprecationHeaderFormat: 'RFC 9745 structured-field Date (@<unix_seconds>)',
      sunsetHeader: 'Sunset',
      sunsetHeaderFormat: 'RFC 8594 IMF-fixdate',
      linkRelations: ['deprecation', 'sunset', 'successor-version', 'latest-version'],
    },
    surfaces: [
      surface({
        id: 'api-v1',
        path: API_PATH,
        status: 'current',
        deprecatedAt: null,
        sunsetAt: null,
        successor: null,
        summary: 'Version 1 of the JSON APIs: the catalog of machine endpoints and the versioning policy.',
      }),
      surface({
        id: 'docs-md',
        path: '/docs-md',
        status: 'deprecated',
        deprecatedAt: DOCS_MD_DEPRECATED_AT,
        sunsetAt: null,
        successor: '/md',
        summary:
          'The first Markdown surface, for guides only. Use /md; a sunset date will be announced at least 180 days ahead.',
      }),
      surface({
        id: 'md',
        path: '/md',
        status: 'current',
        deprecatedAt: null,
        sunsetAt: null,
        successor: null,
        summary: 'Every public page as Markdown: /md/<page path>.',
      }),
      surface({
        id: 'api-alias',
        path: '/api',
        status: 'current',
        deprecatedAt: null,
        sunsetAt: null,
        successor: API_PATH,
        summary: 'Unversioned alias: a permanent redirect to the current major.',
      }),
    ],
  };
}

/** A `YYYY-MM-DD` date as RFC 9745's structured-field Date: `@<unix seconds>` (RFC 9651 §3.3.7). */
export function structuredDate(day: string): string {
  return `@${Math.floor(Date.parse(`${day}T00:00:00Z`) / 1000)}`;
}
