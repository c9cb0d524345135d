/**
 * A handler that breaks its route's response contract: an undeclared status, a body its schema
 * refuses, a result that is not `{ status, body?, headers? }`, a header no field can carry, a raw
 * success Response the route did not acknowledge. It is the server's bug, so the client gets a 500
 * (its detail redacted in production, like every internal error), and the developer gets an
 * error-level log line naming the route, the status and the schema issues, in every environment:
 * without it, a production 500 says nothing and nothing says why.
 */
import { InternalError } from '../errors/index.ts';
import type { Logger } from '../logger/index.ts';

/** One reason the answer broke the contract: where (a dotted path into the body, or empty) and what. */
export interface ContractIssue {
  readonly path: string;
  readonly message: string;
}

/** A 500 for a handler answer that breaks the route's declared responses. */
export class ResponseContractError extends InternalError {
  /** `GET /users/:id`: the route as declared. */
  readonly route: string;
  /** The status the handler answered, when it gave one. */
  readonly answeredStatus: number | undefined;
  readonly issues: readonly ContractIssue[];

  constructor(options: {
    readonly method: string;
    readonly path: string;
    readonly status?: number;
    readonly issues: readonly ContractIssue[];
    readonly detail: string;
  }) {
    super(options.detail);
    this.name = 'ResponseContractError';
    this.route = `${options.method} ${options.path}`;
    this.answeredStatus = options.status;
    this.issues = Object.freeze([...options.issues]);
  }
}

/** True for the error a broken response contract raises. */
export function isResponseContractError(error: unknown): error is ResponseContractError {
  return error instanceof ResponseContractError;
}

/** At most this many issues go into one log line; a body can break a schema in thousands of places. */
const MAX_LOGGED_ISSUES = 20;

/** The error-level line for a broken contract: route, status and issues, never the body itself. */
export function logContractViolation(logger: Logger, error: ResponseContractError): void {
  logger.error('Response contract violation', {
    route: error.route,
    status: error.answeredStatus,
    issues: error.issues
      .slice(0, MAX_LOGGED_ISSUES)
      .map((issue) => (issue.path === '' ? issue.message : `${issue.path}: ${issue.message}`)),
    ...(error.issues.length > MAX_LOGGED_ISSUES
      ? { moreIssues: error.issues.length - MAX_LOGGED_ISSUES }
      : {}),
    detail: error.detail,
  });
}
