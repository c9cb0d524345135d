/**
 * `toLambdaStreamHandler(app)`: response streaming (Function URLs with invoke mode RESPONSE_STREAM,
 * REST APIs with response transfer mode STREAM). The Node.js runtime provides the `awslambda` global:
 * `awslambda.streamifyResponse(handler)` marks a handler that gets a writable `responseStream`, and
 * `awslambda.HttpResponseStream.from(responseStream, metadata)` writes the status and headers before
 * the body ("Writing response streaming-enabled Lambda functions", Lambda Developer Guide). The body is
 * written chunk by chunk as the App's Response produces it, so SSE and NDJSON routes stream.
 */
import type { App, Logger } from '@charter/core';
import type { LambdaContext, LambdaHttpEvent } from './events.ts';
import { answerEvent } from './handler.ts';
import { assertLambdaServable, type LambdaHandlerOptions, resolveLambdaOptions } from './options.ts';
import { eventSource } from './request.ts';
import { multiMap, responseFields, singleMap } from './response.ts';

/** The writable stream the runtime passes to a streaming handler (a Node.js Writable). */
export interface LambdaResponseStream {
  write(chunk: Uint8Array): boolean;
  end(callback?: () => void): unknown;
  destroy?(error?: Error): unknown;
  on(event: 'close', listener: () => void): unknown;
  once(event: 'drain' | 'close', listener: () => void): unknown;
  removeListener(event: 'drain' | 'close', listener: () => void): unknown;
  readonly writableFinished?: boolean;
  readonly destroyed?: boolean;
}

/** The prelude `HttpResponseStream.from` writes: the status and headers, before the body. */
export interface LambdaStreamMetadata {
  statusCode: number;
  headers: Record<string, string>;
  /** Function URLs: each one a Set-Cookie field. */
  cookies?: string[];
  /** REST APIs (payload 1.0 shape). */
  multiValueHeaders?: Record<string, string[]>;
}

/** What `streamifyResponse` returns: the function to export as the handler. */
export type LambdaStreamHandler = (event: LambdaHttpEvent, ...rest: never[]) => unknown;

/** The `awslambda` global of the Lambda Node.js runtime, as far as this adapter uses it. */
export interface AwsLambdaGlobal {
  streamifyResponse(
    handler: (
      event: LambdaHttpEvent,
      responseStream: LambdaResponseStream,
      context: LambdaContext,
    ) => Promise<void>,
  ): LambdaStreamHandler;
  HttpResponseStream: {
    from(responseStream: LambdaResponseStream, metadata: LambdaStreamMetadata): LambdaResponseStream;
  };
}

function runtimeGlobal(): AwsLambdaGlobal {
  const candidate = (globalThis as { awslambda?: Partial<AwsLambdaGlobal> }).awslambda;
  if (
    candidate === undefined ||
    typeof candidate.streamifyResponse !== 'function' ||
    typeof candidate.HttpResponseStream?.from !== 'function'
  ) {
    throw new Error(
      'toLambdaStreamHandler: the awslambda global (streamifyResponse, HttpResponseStream.from) is missing. ' +
        'It is provided by the AWS Lambda Node.js runtime; elsewhere use toLambdaHandler, which buffers the response.',
    );
  }
  return candidate as AwsLambdaGlobal;
}

/** Waits until the stream takes more (`drain`) or is gone (`close`). */
function drained(stream: LambdaResponseStream): Promise<void> {
  // A stream already destroyed will not emit `close` again.
  if (stream.destroyed === true) return Promise.resolve();
  return new Promise((resolve) => {
    const done = (): void => {
      stream.removeListener('drain', done);
      stream.removeListener('close', done);
      resolve();
    };
    stream.once('drain', done);
    stream.once('close', done);
  });
}

/** Copies the body to the stream as it comes, respecting backpressure; stops when the client leaves. */
async function pipeBody(
  response: Response,
  stream: LambdaResponseStream,
  signal: AbortSignal,
  logger: Logger,
): Promise<void> {
  const body = response.body;
  if (body === null) return;
  const reader = body.getReader();
  // Cancelling runs the source's `cancel`: an SSE or NDJSON generator stops producing.
  const stop = (): void => void reader.cancel(signal.reason).catch(() => {});
  signal.addEventListener('abort', stop, { once: true });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done || signal.aborted) return;
      if (!stream.write(value)) await drained(stream);
    }
  } catch (error) {
    if (signal.aborted) return;
    logger.error('The response body failed while streaming', { status: response.status, error });
    // Part of the body is out: ending the stream in error is the only way to say it is incomplete.
    stream.destroy?.(error instanceof Error ? error : new Error(String(error)));
    throw error;
  } finally {
    signal.removeEventListener('abort', stop);
  }
}

/**
 * A streaming Lambda handler for an App: `export const handler = toLambdaStreamHandler(app)`, on a
 * function whose Function URL has invoke mode RESPONSE_STREAM (or a REST API method with response
 * transfer mode STREAM). Status and headers go out first, then the body chunk by chunk. Throws at once
 * outside the Lambda Node.js runtime (no `awslambda` global) and for an App Lambda cannot serve.
 */
export function toLambdaStreamHandler(app: App, options?: LambdaHandlerOptions): LambdaStreamHandler {
  const { basePath } = resolveLambdaOptions(options);
  assertLambdaServable(app, 'toLambdaStreamHandler');
  const awslambda = runtimeGlobal();
  return awslambda.streamifyResponse(async (event, responseStream, context) => {
    const source = eventSource(event);
    const controller = new AbortController();
    let finished = false;
    responseStream.on('close', () => {
      // Closed before the body ended: the client went away (or the function timed out).
      if (!finished)
        controller.abort(
          new DOMException('The client disconnected before the response was complete', 'AbortError'),
        );
    });
    const { response, method } = await answerEvent(
      app,
      event,
      source,
      context ?? {},
      basePath,
      controller.signal,
    );
    if (controller.signal.aborted) {
      // The client left while the App worked: nobody will read this answer.
      finished = true;
      response.body?.cancel(controller.signal.reason).catch(() => {});
      return;
    }
    const { fields, cookies } = responseFields(response);
    const statusCode = response.status;
    const metadata: LambdaStreamMetadata =
      source === 'api-gateway-v1'
        ? { statusCode, headers: {}, multiValueHeaders: multiMap(fields, cookies) }
        : { statusCode, headers: singleMap(fields), cookies };
    const stream = awslambda.HttpResponseStream.from(responseStream, metadata);
    if (method === 'HEAD') response.body?.cancel().catch(() => {});
    else await pipeBody(response, stream, controller.signal, app.logger);
    finished = true;
    if (stream.destroyed === true || stream.writableFinished === true) return;
    await new Promise<void>((resolve) => {
      stream.end(resolve);
    });
  });
}
