/**
 * `charter diff`: what changed between two OpenAPI 3.x documents, and which changes break an existing
 * client. Breaking: a removed operation, a new required parameter or request field, a parameter that
 * became required, a removed request or response media type, a removed response status, a response
 * field removed or no longer always present, a changed type, a narrowed enum or constraint on input, a
 * widened enum on output, a request variant (`oneOf`/`anyOf`) removed or a response variant added, an
 * operation that now requires authentication.
 */
import { type Direction, deref, diffSchemas, type RefResolver, refResolver } from './diff-schema.ts';

/** One difference between the two documents. */
export interface ApiChange {
  readonly breaking: boolean;
  /** Stable identifier, e.g. `operation-removed`, `required-parameter-added`, `type-changed`. */
  readonly code: string;
  /** `GET /users/{id}` (the new document's path, or the old one's for a removed operation). */
  readonly operation: string;
  /** Where inside the operation: `query.limit`, `request body (application/json).name`, `response 200`... */
  readonly at: string;
  readonly message: string;
}

export interface ApiDiff {
  readonly breaking: readonly ApiChange[];
  readonly nonBreaking: readonly ApiChange[];
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

type Obj = Record<string, unknown>;
const asObj = (value: unknown): Obj =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Obj) : {};

/** Throws a TypeError when `value` is not an OpenAPI 3.x document (an object with `openapi: "3..."`). */
export function assertOpenAPIDocument(value: unknown, name: string): asserts value is Obj {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new TypeError(`${name} is not an OpenAPI document (not a JSON object)`);
  }
  const version = (value as Obj).openapi;
  if (typeof version !== 'string' || !version.startsWith('3.')) {
    throw new TypeError(
      `${name} is not an OpenAPI 3 document (its "openapi" field is ${JSON.stringify(version)})`,
    );
  }
}

interface Operation {
  readonly method: string;
  readonly path: string;
  readonly operation: Obj;
  readonly pathItem: Obj;
}

/** `/users/{id}` and `/users/{userId}` are the same operation: parameter names are not part of the key. */
const templateKey = (path: string): string => path.replace(/\{[^}]*\}/g, '{}');

function operationsOf(document: Obj): Map<string, Operation> {
  const out = new Map<string, Operation>();
  for (const [path, rawItem] of Object.entries(asObj(document.paths))) {
    const pathItem = asObj(rawItem);
    for (const method of METHODS) {
      if (pathItem[method] === undefined) continue;
      out.set(`${method.toUpperCase()} ${templateKey(path)}`, {
        method: method.toUpperCase(),
        path,
        operation: asObj(pathItem[method]),
        pathItem,
      });
    }
  }
  return out;
}

interface Parameter {
  readonly name: string;
  readonly in: string;
  readonly required: boolean;
  readonly schema: unknown;
}

/** Path-item parameters overridden by the operation's own (OpenAPI 3.1 §4.8.9), `$ref`s followed. */
function parametersOf(op: Operation, resolve: RefResolver): Map<string, Parameter> {
  const out = new Map<string, Parameter>();
  const pathNames = [...op.path.matchAll(/\{([^}]*)\}/g)].map((m) => m[1]);
  for (const list of [op.pathItem.parameters, op.operation.parameters]) {
    if (!Array.isArray(list)) continue;
    for (const raw of list) {
      const param = asObj(deref(raw, resolve));
      if (typeof param.name !== 'string' || typeof param.in !== 'string') continue;
      // Path parameters are matched by position (their names are free); header names ignore case.
      const name =
        param.in === 'path'
          ? `#${pathNames.indexOf(param.name)}`
          : param.in === 'header'
            ? param.name.toLowerCase()
            : param.name;
      out.set(`${param.in}:${name}`, {
        name: param.name,
        in: param.in,
        required: param.required === true || param.in === 'path',
        schema: param.schema,
      });
    }
  }
  return out;
}

/** `security` of the operation, else the document's; true when a request without credentials is allowed. */
function allowsAnonymous(op: Operation, document: Obj): boolean {
  const security = op.operation.security ?? document.security;
  if (!Array.isArray(security) || security.length === 0) return true;
  return security.some((requirement) => Object.keys(asObj(requirement)).length === 0);
}

class Collector {
  readonly changes: ApiChange[] = [];
  constructor(readonly operation: string) {}
  add(breaking: boolean, code: string, at: string, message: string): void {
    this.changes.push({ breaking, code, operation: this.operation, at, message });
  }
}

function diffContent(
  out: Collector,
  before: unknown,
  after: unknown,
  direction: Direction,
  label: string,
  refs: { oldRef: RefResolver; newRef: RefResolver },
): void {
  const oldContent = asObj(before);
  const newContent = asObj(after);
  for (const [mediaType, oldMedia] of Object.entries(oldContent)) {
    if (!Object.hasOwn(newContent, mediaType)) {
      out.add(
        true,
        'media-type-removed',
        `${label} (${mediaType})`,
        `${mediaType} is no longer ${direction === 'request' ? 'accepted' : 'returned'}`,
      );
      continue;
    }
    const at = `${label} (${mediaType})`;
    for (const change of diffSchemas(asObj(oldMedia).schema, asObj(newContent[mediaType]).schema, {
      direction,
      at: '',
      ...refs,
    })) {
      out.add(change.breaking, change.code, change.at === '' ? at : `${at}.${change.at}`, change.message);
    }
  }
  for (const mediaType of Object.keys(newContent)) {
    if (!Object.hasOwn(oldContent, mediaType)) {
      out.add(
        false,
        'media-type-added',
        `${label} (${mediaType})`,
        `${mediaType} is now ${direction === 'request' ? 'accepted' : 'returned'}`,
      );
    }
  }
}

function diffOperation(
  out: Collector,
  before: Operation,
  after: Operation,
  docs: { old: Obj; new: Obj; oldRef: RefResolver; newRef: RefResolver },
): void {
  const refs = { oldRef: docs.oldRef, newRef: docs.newRef };
  // Parameters.
  const oldParams = parametersOf(before, docs.oldRef);
  const newParams = parametersOf(after, docs.newRef);
  for (const [key, param] of newParams) {
    const old = oldParams.get(key);
    const at = `${param.in}.${param.name}`;
    if (old === undefined) {
      if (param.required) out.add(true, 'required-parameter-added', at, 'new required parameter');
      else out.add(false, 'optional-parameter-added', at, 'new optional parameter');
      continue;
    }
    if (param.required && !old.required) out.add(true, 'parameter-became-required', at, 'is now required');
    for (const change of diffSchemas(old.schema, param.schema, { direction: 'request', at, ...refs })) {
      out.add(change.breaking, change.code, change.at, change.message);
    }
  }
  for (const [key, param] of oldParams) {
    if (!newParams.has(key))
      out.add(false, 'parameter-removed', `${param.in}.${param.name}`, 'parameter removed (ignored if sent)');
  }

  // Request body.
  const oldBody = asObj(deref(before.operation.requestBody, docs.oldRef));
  const newBody = asObj(deref(after.operation.requestBody, docs.newRef));
  const hadBody = before.operation.requestBody !== undefined;
  const hasBody = after.operation.requestBody !== undefined;
  if (hasBody && newBody.required === true && (!hadBody || oldBody.required !== true)) {
    out.add(
      true,
      hadBody ? 'request-body-became-required' : 'required-request-body-added',
      'request body',
      'a request body is now required',
    );
  }
  if (hadBody && !hasBody)
    out.add(true, 'request-body-removed', 'request body', 'the request body is no longer accepted');
  if (hadBody && hasBody) diffContent(out, oldBody.content, newBody.content, 'request', 'request body', refs);

  // Responses.
  const oldResponses = asObj(before.operation.responses);
  const newResponses = asObj(after.operation.responses);
  for (const [status, oldResponse] of Object.entries(oldResponses)) {
    if (!Object.hasOwn(newResponses, status)) {
      out.add(
        true,
        'response-status-removed',
        `response ${status}`,
        `status ${status} is no longer declared`,
      );
      continue;
    }
    diffContent(
      out,
      asObj(deref(oldResponse, docs.oldRef)).content,
      asObj(deref(newResponses[status], docs.newRef)).content,
      'response',
      `response ${status}`,
      refs,
    );
  }
  for (const status of Object.keys(newResponses)) {
    if (!Object.hasOwn(oldResponses, status))
      out.add(false, 'response-status-added', `response ${status}`, `status ${status} is newly declared`);
  }

  // Authentication.
  if (allowsAnonymous(before, docs.old) && !allowsAnonymous(after, docs.new)) {
    out.add(true, 'authentication-required', 'security', 'now requires authentication');
  }
}

/** The changes from `before` to `after` (both OpenAPI 3.x documents), breaking ones first, each sorted by operation. */
export function diffOpenAPI(before: unknown, after: unknown): ApiDiff {
  assertOpenAPIDocument(before, 'the old document');
  assertOpenAPIDocument(after, 'the new document');
  const docs = { old: before, new: after, oldRef: refResolver(before), newRef: refResolver(after) };
  const oldOps = operationsOf(before);
  const newOps = operationsOf(after);
  const changes: ApiChange[] = [];
  for (const [key, op] of oldOps) {
    const next = newOps.get(key);
    const name = `${op.method} ${(next ?? op).path}`;
    if (next === undefined) {
      changes.push({
        breaking: true,
        code: 'operation-removed',
        operation: name,
        at: '',
        message: 'operation removed',
      });
      continue;
    }
    const out = new Collector(name);
    diffOperation(out, op, next, docs);
    changes.push(...out.changes);
  }
  for (const [key, op] of newOps) {
    if (!oldOps.has(key)) {
      changes.push({
        breaking: false,
        code: 'operation-added',
        operation: `${op.method} ${op.path}`,
        at: '',
        message: 'operation added',
      });
    }
  }
  return {
    breaking: changes.filter((c) => c.breaking),
    nonBreaking: changes.filter((c) => !c.breaking),
  };
}
