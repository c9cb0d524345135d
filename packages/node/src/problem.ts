/**
 * Problem documents (RFC 9457) the adapter answers on its own, before or outside the app: as a Web
 * Response for the request path, and as raw HTTP/1.1 bytes for a bare socket (parser errors, timeouts).
 */
import { Buffer } from 'node:buffer';
import { http } from './node-http.ts';
import type { HttpError } from '@charter/core';
import { PROBLEM_CONTENT_TYPE, renderError } from '@charter/core';

/**
 * The problem response for an error, closing the connection (RFC 9112 §9.6): the adapter answers
 * itself only for requests it will not serve, so the client gets a clean slate.
 */
export function problemResponse(error: unknown, production: boolean): Response {
  const { response } = renderError(error, production);
  response.headers.set('connection', 'close');
  return response;
}

/**
 * A complete HTTP/1.1 response for a socket Node has not attached a ServerResponse to. Date is sent as
 * RFC 9110 §6.6.1 asks of an origin server with a clock; the connection is closed after it.
 */
export function rawProblemResponse(error: HttpError, production: boolean): string {
  const body = JSON.stringify(error.toProblem(production));
  const reason = http.STATUS_CODES[error.status] ?? error.title;
  return (
    `HTTP/1.1 ${error.status} ${reason}\r\n` +
    `Date: ${new Date().toUTCString()}\r\n` +
    `Content-Type: ${PROBLEM_CONTENT_TYPE}\r\n` +
    `Content-Length: ${Buffer.byteLength(body)}\r\n` +
    'Connection: close\r\n' +
    '\r\n' +
    body
  );
}
