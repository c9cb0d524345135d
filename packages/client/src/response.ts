/**
 * Reads the Response of one call: declared statuses resolve with a parsed body, others reject
 * with an UnexpectedStatusError carrying the (problem) body.
 */
import { flattenIssues, type ResponseSpec } from '@charter/core';
import { ResponseParseError, ResponseValidationError, UnexpectedStatusError } from './errors.ts';
import { isJsonMediaType, mediaType } from './media-type.ts';
import type { ClientResponse } from './types.ts';

// RFC 9110 §15.3.5 (204), §15.3.6 (205), §15.4.5 (304): never any content, whatever is declared.
export const NO_CONTENT_STATUSES: ReadonlySet<number> = new Set([204, 205, 304]);

/** What the client knows of an operation's responses. */
export interface ResponseTarget {
  readonly operationId: string;
  readonly method: string;
  readonly responses: Readonly<Record<string, ResponseSpec | undefined>>;
  /** `200, 404`: the declared statuses, for messages. */
  readonly declared: string;
}

/** Whether a response has no content: an answer to HEAD (RFC 9110 §9.3.2) or a no-content status. */
export function hasNoContent(method: string, status: number): boolean {
  return method === 'HEAD' || NO_CONTENT_STATUSES.has(status);
}

async function discard(response: Response): Promise<void> {
  // Releases the connection without reading what a broken server might send anyway.
  await response.body?.cancel().catch(() => {});
}

/** A declared response's body: JSON, text, or a Blob (undefined when there is none). */
async function readDeclaredBody(target: ResponseTarget, response: Response): Promise<unknown> {
  if (hasNoContent(target.method, response.status)) {
    await discard(response);
    return undefined;
  }
  const type = mediaType(response.headers.get('content-type'));
  if (isJsonMediaType(type)) {
    const text = await response.text();
    try {
      return JSON.parse(text);
    } catch (error) {
      throw new ResponseParseError(
        target.operationId,
        response.status,
        `is not valid JSON although its content type is ${type}`,
        error,
      );
    }
  }
  if (type?.startsWith('text/')) return response.text();
  const blob = await response.blob();
  return type === undefined && blob.size === 0 ? undefined : blob;
}

/** An undeclared response's body, for the error: JSON when it parses, else text; undefined when empty. */
export async function readLooseBody(method: string, response: Response): Promise<unknown> {
  if (hasNoContent(method, response.status)) {
    await discard(response);
    return undefined;
  }
  const text = await response.text().catch(() => '');
  if (text === '') return undefined;
  if (isJsonMediaType(mediaType(response.headers.get('content-type')))) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}

/** The resolved value of a call, or the error it rejects with. */
export async function readResponse(
  target: ResponseTarget,
  response: Response,
  validateResponses: boolean,
): Promise<ClientResponse> {
  const status = response.status;
  const spec = Object.hasOwn(target.responses, status) ? target.responses[status] : undefined;
  if (spec === undefined) {
    const body = await readLooseBody(target.method, response);
    throw new UnexpectedStatusError(target.operationId, status, response.headers, body, target.declared);
  }
  const body = await readDeclaredBody(target, response);
  const schema = spec.body;
  // A Blob is binary content: it has no JSON form for a schema to check.
  if (
    validateResponses &&
    schema !== undefined &&
    !hasNoContent(target.method, status) &&
    !(body instanceof Blob)
  ) {
    const result = await schema['~standard'].validate(body);
    if (result.issues !== undefined) {
      throw new ResponseValidationError(target.operationId, status, flattenIssues(result.issues), body);
    }
  }
  return { status, body, headers: response.headers };
}
