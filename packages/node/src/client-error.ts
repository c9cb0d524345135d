/**
 * Node's `clientError` event: the parser or a server timeout gave up on a connection before (or while)
 * a request reached the app. Node's default answer is a bare status line; this one writes a complete
 * problem+json response, then closes the connection.
 */
import type { ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { App, HttpError } from '@charter/core';
import {
  BadRequestError,
  PayloadTooLargeError,
  RequestHeaderFieldsTooLargeError,
  RequestTimeoutError,
} from '@charter/core';
import { markEndedByServer, pathOf } from './handler.ts';
import { rawProblemResponse } from './problem.ts';

/** How long a refused client gets to read the answer before its socket is destroyed anyway. */
const LINGER_MS = 1000;

/** The response a parser/timeout error deserves; undefined when there is nobody to answer. */
function errorFor(code: string | undefined, inFlight: boolean): HttpError | undefined {
  switch (code) {
    // Node's maxHeaderSize (16 KiB by default), or Bun's maxHeadersCount: RFC 6585 §5.
    case 'HPE_HEADER_OVERFLOW':
      return new RequestHeaderFieldsTooLargeError(
        'The request header section is larger than the server accepts',
      );
    // server.headersTimeout / server.requestTimeout: RFC 9110 §15.5.9.
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new RequestTimeoutError(
        inFlight
          ? 'The request body was not received in time'
          : 'The request headers were not received in time',
      );
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return new PayloadTooLargeError('The chunk extensions of the request body are too large');
    // The peer is gone (reset, or it half-closed mid-request): there is no one to answer.
    case 'ECONNRESET':
    case 'EPIPE':
    case 'HPE_INVALID_EOF_STATE':
      return undefined;
    default:
      return new BadRequestError(
        `The request is not valid HTTP/1.1${code === undefined ? '' : ` (${code})`}`,
      );
  }
}

/**
 * Builds the `clientError` listener. `inFlight(socket)` returns the ServerResponse the app is still
 * writing on that socket, if any: a body that times out after the request reached the app.
 */
export function createClientErrorHandler(
  app: App,
  inFlight: (socket: Duplex) => ServerResponse | undefined,
): (error: Error, socket: Duplex) => void {
  return (error, socket) => {
    const code = (error as { code?: string }).code;
    const res = inFlight(socket);
    const answer = errorFor(code, res !== undefined);
    // Like Node's own handler: write only if nothing of an in-flight response is on the wire yet.
    if (answer === undefined || !socket.writable || res?.headersSent === true) {
      app.logger.debug('Dropped a connection after a client error', { code, message: error.message });
      socket.destroy();
      return;
    }
    if (res !== undefined) markEndedByServer(res, answer.status);
    app.logger.info('Refused a request the HTTP parser or a server timeout rejected', {
      status: answer.status,
      code,
      ...(res === undefined ? {} : { method: res.req?.method, path: pathOf(res.req?.url) }),
    });
    const linger = setTimeout(() => socket.destroy(), LINGER_MS);
    linger.unref();
    socket.end(rawProblemResponse(answer, app.options.production), () => {
      clearTimeout(linger);
      socket.destroy();
    });
  };
}
