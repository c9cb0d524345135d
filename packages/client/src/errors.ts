import type { SchemaIssue } from '@charter/core';

/**
 * The server answered with a status the operation does not declare (a 422 from validation, a 401
 * from an auth hook, a 500). Declared statuses resolve; these reject, so the resolved union of a
 * client method only ever holds what the contract says.
 */
export class UnexpectedStatusError extends Error {
  override readonly name = 'UnexpectedStatusError';
  readonly operationId: string;
  readonly status: number;
  readonly headers: Headers;
  /** The RFC 9457 problem (or any JSON) when the body is JSON, else its text; undefined when empty. */
  readonly body: unknown;

  constructor(operationId: string, status: number, headers: Headers, body: unknown, declared: string) {
    super(
      `${operationId}: the server answered ${status}${describeProblem(body)}, which the operation does not declare (declared: ${declared})`,
    );
    this.operationId = operationId;
    this.status = status;
    this.headers = headers;
    this.body = body;
  }
}

/** ` (title: detail)` of an RFC 9457 problem body, for messages; empty when the body says neither. */
export function describeProblem(body: unknown): string {
  if (typeof body !== 'object' || body === null) return '';
  const { title, detail } = body as { title?: unknown; detail?: unknown };
  const parts = [title, detail].filter((p): p is string => typeof p === 'string' && p.length > 0);
  return parts.length === 0 ? '' : ` (${parts.join(': ')})`;
}

/** A declared response whose body could not be read as its content type says (invalid JSON). */
export class ResponseParseError extends Error {
  override readonly name = 'ResponseParseError';
  readonly operationId: string;
  readonly status: number;

  constructor(operationId: string, status: number, message: string, cause: unknown) {
    super(`${operationId}: the ${status} response body ${message}`, { cause });
    this.operationId = operationId;
    this.status = status;
  }
}

/** With `validateResponses: true`: a declared response whose body fails that status's schema. */
export class ResponseValidationError extends Error {
  override readonly name = 'ResponseValidationError';
  readonly operationId: string;
  readonly status: number;
  readonly issues: readonly SchemaIssue[];
  /** The parsed body that failed. */
  readonly body: unknown;

  constructor(operationId: string, status: number, issues: readonly SchemaIssue[], body: unknown) {
    super(`${operationId}: the ${status} response body does not match its schema: ${formatIssues(issues)}`);
    this.operationId = operationId;
    this.status = status;
    this.issues = issues;
    this.body = body;
  }
}

/** `a.b: message; c: message`, for error messages and contract reports. */
export function formatIssues(issues: readonly SchemaIssue[]): string {
  return issues
    .slice(0, 10)
    .map((issue) => (issue.path.length === 0 ? issue.message : `${issue.path.join('.')}: ${issue.message}`))
    .join('; ')
    .concat(issues.length > 10 ? `; and ${issues.length - 10} more` : '');
}
