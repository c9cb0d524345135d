/** The contract report (spec "Other records": ok, checked, issues[] of { route, method, code, message }). */
import type { HttpMethod } from '@charter/core';
import { FUZZ_FINDING_CODES, FUZZ_WARNING_CODES } from './fuzz-check.ts';
import type { FuzzRequest } from './fuzz-requests.ts';
import {
  type ContractFuzzOptions,
  type FuzzReport,
  type ResolvedFuzzOptions,
  resolveFuzzOptions,
} from './fuzz.ts';

/** Every code a contract issue may carry; https://charter.dev/docs/contract-tests explains each one. */
export const CONTRACT_ISSUE_CODES = [
  'missing-operation-id',
  'duplicate-operation-id',
  'body-on-safe-method',
  'no-declared-response',
  'no-success-response',
  'params-without-schema',
  'schema-not-describable',
  'invalid-example',
  'example-undeclared-status',
  'mock-no-request',
  'mock-undeclared-status',
  'mock-invalid-response',
  // The property-based mode (option `fuzz`): answers that break the OpenAPI document...
  ...FUZZ_FINDING_CODES,
  // ...and, with `fuzz.strict`, the checks beyond it.
  ...FUZZ_WARNING_CODES,
] as const;

/** One of `CONTRACT_ISSUE_CODES`. */
export type ContractIssueCode = (typeof CONTRACT_ISSUE_CODES)[number];

/** One thing a route's contract gets wrong. */
export interface ContractIssue {
  /** The route's full path (group and plugin prefixes applied). */
  readonly route: string;
  readonly method: HttpMethod;
  readonly code: ContractIssueCode;
  readonly message: string;
  /** The property-based mode's issues: the request that shows it (`replayRequest(request)` replays it). */
  readonly request?: FuzzRequest;
}

/** What `runContractTests` resolves. */
export interface ContractReport {
  /** True when there is no issue. */
  readonly ok: boolean;
  /** How many routes were checked. */
  readonly checked: number;
  readonly issues: readonly ContractIssue[];
  /** With the option `fuzz`: what the property-based mode sent and found. */
  readonly fuzz?: FuzzReport;
}

/** Options of `runContractTests(app, options)`. */
export interface ContractTestOptions {
  /**
   * Report routes without an operationId (`missing-operation-id`); routes with
   * `openapi.exclude` never need one. Default true.
   */
  requireOperationId?: boolean;
  /** Allow `request.body` on GET, HEAD and DELETE (no `body-on-safe-method`). Default false. */
  allowBodyOnSafeMethods?: boolean;
  /**
   * The property-based mode: requests generated from each operation's schemas, sent in process, every
   * answer checked against the OpenAPI document. `true` for the defaults. Default off.
   */
  fuzz?: boolean | ContractFuzzOptions;
}

export interface ResolvedContractTestOptions {
  readonly requireOperationId: boolean;
  readonly allowBodyOnSafeMethods: boolean;
  readonly fuzz: ResolvedFuzzOptions | undefined;
}

function booleanOption(name: string, value: unknown, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (typeof value !== 'boolean') throw new TypeError(`runContractTests option ${name} must be a boolean`);
  return value;
}

/** Validates the options; throws a TypeError naming the offending one. */
export function resolveContractTestOptions(
  options: ContractTestOptions | undefined,
): ResolvedContractTestOptions {
  if (options !== undefined && (typeof options !== 'object' || options === null)) {
    throw new TypeError('runContractTests(app, options): options must be an object');
  }
  return Object.freeze({
    requireOperationId: booleanOption('requireOperationId', options?.requireOperationId, true),
    allowBodyOnSafeMethods: booleanOption('allowBodyOnSafeMethods', options?.allowBodyOnSafeMethods, false),
    fuzz:
      options?.fuzz === undefined || options.fuzz === false ? undefined : resolveFuzzOptions(options.fuzz),
  });
}

/** Collects the issues of one route. */
export class IssueSink {
  readonly issues: ContractIssue[] = [];

  add(
    route: { readonly path: string; readonly method: HttpMethod },
    code: ContractIssueCode,
    message: string,
  ): void {
    this.issues.push(Object.freeze({ route: route.path, method: route.method, code, message }));
  }
}
