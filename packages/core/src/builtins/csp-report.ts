import type { Scope } from '../app/scope.ts';
import { BadRequestError, UnsupportedMediaTypeError } from '../errors/index.ts';
import { mediaType } from '../pipeline/body.ts';
import { readBodyLimited, safeJsonParse } from '../security/index.ts';
import { withHookTraits } from '../types/index.ts';

/**
 * A receiver for Content Security Policy violation reports, in both formats browsers send:
 *   - CSP Level 2/3 `report-uri`: `application/csp-report`, `{ "csp-report": { "document-uri", ... } }`;
 *   - the Reporting API (`report-to`): `application/reports+json`, an array of
 *     `{ type: "csp-violation", url, body: { documentURL, effectiveDirective, ... } }`.
 * Each violation is normalised, truncated and logged as a warning; the answer is 204.
 */
export interface CspReportRouteOptions {
  /** Default `/csp-report`. */
  path?: string;
  /** Default `receiveCspReport`. */
  operationId?: string;
  /** Largest report body, in bytes; default 65536 (a report is a few hundred bytes). */
  maxBodyBytes?: number;
  /** Most violations logged per minute; the rest are counted and summarised; default 100. */
  maxLoggedPerMinute?: number;
  /** Called with every violation (after normalisation), e.g. to count them in metrics. */
  onReport?: (violation: CspViolation) => void;
}

/** One CSP violation, the same whichever format carried it. Strings are cut at 512 characters. */
export interface CspViolation {
  documentUrl?: string;
  directive?: string;
  blockedUrl?: string;
  sourceFile?: string;
  line?: number;
  column?: number;
  disposition?: string;
  sample?: string;
  statusCode?: number;
}

const ACCEPTED = ['application/csp-report', 'application/reports+json', 'application/json'];
const MAX_TEXT = 512;
// A Reporting API batch holds a few reports; more in one body is not a browser.
const MAX_REPORTS_PER_BODY = 100;

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value.slice(0, MAX_TEXT) : undefined;
}

function integer(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : undefined;
}

function compact(violation: CspViolation): CspViolation {
  return Object.fromEntries(Object.entries(violation).filter(([, v]) => v !== undefined)) as CspViolation;
}

/** CSP Level 3 §5.3 (`report-uri`, hyphenated keys). */
function fromLegacy(report: Record<string, unknown>): CspViolation {
  return compact({
    documentUrl: text(report['document-uri']),
    directive: text(report['effective-directive']) ?? text(report['violated-directive']),
    blockedUrl: text(report['blocked-uri']),
    sourceFile: text(report['source-file']),
    line: integer(report['line-number']),
    column: integer(report['column-number']),
    disposition: text(report.disposition),
    sample: text(report['script-sample']),
    statusCode: integer(report['status-code']),
  });
}

/** CSP Level 3 §5.2 via the Reporting API (camel-case keys in `body`). */
function fromReportingApi(body: Record<string, unknown>): CspViolation {
  return compact({
    documentUrl: text(body.documentURL),
    directive: text(body.effectiveDirective),
    blockedUrl: text(body.blockedURL),
    sourceFile: text(body.sourceFile),
    line: integer(body.lineNumber),
    column: integer(body.columnNumber),
    disposition: text(body.disposition),
    sample: text(body.sample),
    statusCode: integer(body.statusCode),
  });
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The violations in a parsed report body; throws 400 when it is neither format. */
export function parseCspReports(payload: unknown): CspViolation[] {
  if (isRecord(payload) && isRecord(payload['csp-report'])) return [fromLegacy(payload['csp-report'])];
  if (Array.isArray(payload) && payload.length > 0 && payload.length <= MAX_REPORTS_PER_BODY) {
    const violations: CspViolation[] = [];
    for (const entry of payload) {
      if (!isRecord(entry) || !isRecord(entry.body)) {
        throw new BadRequestError('Every entry of a reports+json body needs a "type" and a "body" object');
      }
      // Other report types (deprecation, intervention...) may share the endpoint: ignored.
      if (entry.type === 'csp-violation') violations.push(fromReportingApi(entry.body));
    }
    return violations;
  }
  throw new BadRequestError(
    'Not a CSP report: expected {"csp-report": {...}} or a Reporting API array of at most ' +
      `${MAX_REPORTS_PER_BODY} reports`,
  );
}

function positive(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1) {
    throw new RangeError(`cspReportRoute: ${name} must be a positive integer, got ${String(value)}`);
  }
  return value;
}

export function registerCspReportRoute(scope: Scope, options: CspReportRouteOptions = {}): void {
  const maxBodyBytes = positive('maxBodyBytes', options.maxBodyBytes, 64 * 1024);
  const maxLogged = positive('maxLoggedPerMinute', options.maxLoggedPerMinute, 100);
  const logger = scope.registry.logger;
  let windowStart = 0;
  let logged = 0;
  let suppressed = 0;

  const record = (violation: CspViolation): void => {
    options.onReport?.(violation);
    const now = Date.now();
    if (now - windowStart >= 60_000) {
      if (suppressed > 0) logger.warn('CSP violations not logged (rate cap)', { count: suppressed });
      windowStart = now;
      logged = 0;
      suppressed = 0;
    }
    // A page stuck in a loop, or someone posting junk, must not flood the logs.
    if (logged >= maxLogged) {
      suppressed++;
      return;
    }
    logged++;
    logger.warn('CSP violation', { ...violation });
  };

  scope.route({
    method: 'POST',
    path: options.path ?? '/csp-report',
    operationId: options.operationId ?? 'receiveCspReport',
    summary: 'Receive Content Security Policy violation reports',
    tags: ['security'],
    // Browsers post reports from the pages' origins: the cross-origin guard admits any of them
    // (no credentials are involved; the route only logs).
    hooks: withHookTraits({}, { cors: { allowsOrigin: () => true, anyOrigin: true, credentials: false } }),
    responses: { 204: { description: 'Report received' } },
    handler: async (ctx) => {
      const type = mediaType(ctx.request.headers.get('content-type'));
      if (type === undefined || !ACCEPTED.includes(type)) {
        throw new UnsupportedMediaTypeError(`CSP reports are accepted as ${ACCEPTED.join(', ')}`);
      }
      const bytes = await readBodyLimited(ctx.request, maxBodyBytes);
      for (const violation of parseCspReports(safeJsonParse(bytes))) record(violation);
      return { status: 204 };
    },
  });
}
