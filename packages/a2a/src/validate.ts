/**
 * Shape checks of A2A 1.0 request params (ProtoJSON of `lf.a2a.v1` messages). Each problem becomes a
 * google.rpc.BadRequest field violation of a -32602 error. Unknown fields are ignored (A2A 1.0 §3).
 */
import { A2A_LIST_TASKS_PAGE_SIZE } from './constants.ts';
import { type A2aFieldViolation, invalidParams } from './errors.ts';
import type { A2aMessage, A2aTaskState } from './types.ts';

/** Longest id (messageId, contextId, taskId) accepted from a client. */
export const A2A_MAX_ID_LENGTH = 256;

const STATES: ReadonlySet<string> = new Set([
  'TASK_STATE_SUBMITTED',
  'TASK_STATE_WORKING',
  'TASK_STATE_INPUT_REQUIRED',
  'TASK_STATE_AUTH_REQUIRED',
  'TASK_STATE_COMPLETED',
  'TASK_STATE_FAILED',
  'TASK_STATE_CANCELED',
  'TASK_STATE_REJECTED',
]);

/** One problem of a part: the path below the part and what is wrong. */
export interface PartProblem {
  readonly field: string;
  readonly description: string;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const CONTENT_KEYS = ['text', 'raw', 'url', 'data'] as const;

/** Why a value is not an A2A 1.0 Part, or undefined when it is one. */
export function partProblem(part: unknown): PartProblem | undefined {
  if (!isPlainObject(part)) return { field: '', description: 'must be an object' };
  const present = CONTENT_KEYS.filter((key) => Object.hasOwn(part, key) && part[key] !== undefined);
  // `kind` was the 0.3 discriminator; 1.0 picks the type from the one content member (oneof).
  if (present.length !== 1) {
    return {
      field: '',
      description: 'must have exactly one of text, raw, url, data (A2A 1.0 parts have no "kind")',
    };
  }
  const key = present[0] as (typeof CONTENT_KEYS)[number];
  if (key !== 'data' && typeof part[key] !== 'string')
    return { field: `.${key}`, description: 'must be a string' };
  if (key === 'raw' && !isBase64(part.raw as string)) return { field: '.raw', description: 'must be base64' };
  for (const name of ['mediaType', 'filename'] as const) {
    if (part[name] !== undefined && typeof part[name] !== 'string')
      return { field: `.${name}`, description: 'must be a string' };
  }
  if (part.metadata !== undefined && !isPlainObject(part.metadata))
    return { field: '.metadata', description: 'must be an object' };
  return undefined;
}

/** Standard or URL-safe base64, padding optional (ProtoJSON accepts both alphabets for bytes). */
function isBase64(value: string): boolean {
  let end = value.length;
  while (end > 0 && value[end - 1] === '=') end--;
  if (value.length - end > 2) return false;
  for (let i = 0; i < end; i++) {
    const c = value.charCodeAt(i);
    const ok =
      (c >= 65 && c <= 90) ||
      (c >= 97 && c <= 122) ||
      (c >= 48 && c <= 57) ||
      c === 43 ||
      c === 47 ||
      c === 45 ||
      c === 95;
    if (!ok) return false;
  }
  return end % 4 !== 1;
}

/** Collects violations so one -32602 can name every bad field. */
export class Violations {
  readonly list: A2aFieldViolation[] = [];

  add(field: string, description: string): void {
    this.list.push({ field, description });
  }

  /** Throws -32602 when anything was added. */
  throwIfAny(): void {
    if (this.list.length > 0) throw invalidParams(this.list);
  }

  id(field: string, value: unknown, required: boolean): void {
    if (value === undefined && !required) return;
    if (typeof value !== 'string' || value.length === 0 || value.length > A2A_MAX_ID_LENGTH) {
      this.add(field, `must be a string of 1 to ${A2A_MAX_ID_LENGTH} characters`);
    }
  }

  stringArray(field: string, value: unknown): void {
    if (value !== undefined && (!Array.isArray(value) || value.some((item) => typeof item !== 'string')))
      this.add(field, 'must be an array of strings');
  }

  object(field: string, value: unknown): void {
    if (value !== undefined && !isPlainObject(value)) this.add(field, 'must be an object');
  }

  boolean(field: string, value: unknown): void {
    if (value !== undefined && typeof value !== 'boolean') this.add(field, 'must be a boolean');
  }

  /** A non-negative integer (`historyLength`). */
  count(field: string, value: unknown): void {
    if (value !== undefined && (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0))
      this.add(field, 'must be a non-negative integer');
  }
}

/** Checks params are an object (JSON-RPC allows arrays; A2A methods take one request message). */
export function paramsObject(params: unknown): Record<string, unknown> {
  if (params === undefined) return {};
  if (!isPlainObject(params)) throw invalidParams([{ field: 'params', description: 'must be an object' }]);
  return params;
}

/** Validates a client message (role must be ROLE_USER: the client speaks as the user). */
export function checkMessage(v: Violations, field: string, value: unknown): value is A2aMessage {
  if (!isPlainObject(value)) {
    v.add(field, 'is required and must be a Message object');
    return false;
  }
  const before = v.list.length;
  v.id(`${field}.messageId`, value.messageId, true);
  if (value.role !== 'ROLE_USER') v.add(`${field}.role`, 'must be "ROLE_USER"');
  if (!Array.isArray(value.parts) || value.parts.length === 0) {
    v.add(`${field}.parts`, 'must be a non-empty array of parts');
  } else {
    value.parts.forEach((part, i) => {
      const problem = partProblem(part);
      if (problem !== undefined) v.add(`${field}.parts[${i}]${problem.field}`, problem.description);
    });
  }
  v.id(`${field}.contextId`, value.contextId, false);
  v.id(`${field}.taskId`, value.taskId, false);
  v.object(`${field}.metadata`, value.metadata);
  v.stringArray(`${field}.extensions`, value.extensions);
  v.stringArray(`${field}.referenceTaskIds`, value.referenceTaskIds);
  return v.list.length === before;
}

/** A `status` filter: a TaskState name, or TASK_STATE_UNSPECIFIED / absent for none. */
export function checkStateFilter(v: Violations, field: string, value: unknown): A2aTaskState | undefined {
  if (value === undefined || value === 'TASK_STATE_UNSPECIFIED') return undefined;
  if (typeof value !== 'string' || !STATES.has(value)) {
    v.add(field, 'must be a TaskState name such as "TASK_STATE_COMPLETED"');
    return undefined;
  }
  return value as A2aTaskState;
}

/** A ListTasks pageSize: default 50, 1..100 (A2A 1.0 ListTasksRequest). */
export function checkPageSize(v: Violations, field: string, value: unknown): number {
  if (value === undefined) return A2A_LIST_TASKS_PAGE_SIZE.default;
  if (
    typeof value !== 'number' ||
    !Number.isSafeInteger(value) ||
    value < A2A_LIST_TASKS_PAGE_SIZE.min ||
    value > A2A_LIST_TASKS_PAGE_SIZE.max
  ) {
    v.add(
      field,
      `must be an integer from ${A2A_LIST_TASKS_PAGE_SIZE.min} to ${A2A_LIST_TASKS_PAGE_SIZE.max}`,
    );
  }
  return value as number;
}

/** An RFC 3339 timestamp (ProtoJSON google.protobuf.Timestamp) as epoch ms. */
export function checkTimestamp(v: Violations, field: string, value: unknown): number | undefined {
  if (value === undefined) return undefined;
  // RFC 3339 §5.6 date-time: a full date, "T", a time and a zone; Date.parse alone accepts far more.
  const ms =
    typeof value === 'string' && /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,9})?(Z|[+-]\d\d:\d\d)$/i.test(value)
      ? Date.parse(value)
      : Number.NaN;
  if (Number.isNaN(ms)) {
    v.add(field, 'must be an RFC 3339 timestamp such as "2026-01-02T03:04:05.000Z"');
    return undefined;
  }
  return ms;
}
