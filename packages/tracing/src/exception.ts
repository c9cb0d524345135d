/**
 * What a server span records about a failed request: `error.type` and the `exception` event, with the
 * message kept out of traces of a production App (the rule the App applies to 5xx problem details).
 */
import type { OtelException } from './otel-types.ts';
import { TRACE_REDACTED } from './attributes.ts';

/** `error.type` for a value thrown by a hook or handler: its class name, or `_OTHER` for a non-Error. */
export function errorTypeOf(error: unknown): string {
  if (!(error instanceof Error)) return '_OTHER';
  const ctorName = (error.constructor as { name?: unknown } | undefined)?.name;
  if (typeof ctorName === 'string' && ctorName.length > 0) return ctorName;
  return error.name.length > 0 ? error.name : 'Error';
}

/** The stack's frame lines only (`    at ...`): the first lines repeat the message, which may hold secrets. */
function framesOnly(stack: string): string | undefined {
  const frames = stack.split('\n').filter((line) => line.trimStart().startsWith('at '));
  return frames.length === 0 ? undefined : frames.join('\n');
}

/**
 * The exception to record for `error`. Outside production: name, message and stack as thrown. In
 * production: the class name, `REDACTED` as the message, and the stack's frames without the message.
 */
export function exceptionFor(error: unknown, production: boolean): OtelException {
  const name = errorTypeOf(error);
  if (!(error instanceof Error)) {
    // A thrown string or object: its text could be anything, so it is shown only outside production.
    if (production) return { name, message: TRACE_REDACTED };
    let text: string;
    try {
      text = String(error);
    } catch {
      text = typeof error;
    }
    return { name, message: text.slice(0, 1024) };
  }
  if (!production) {
    const out: OtelException = { name, message: error.message };
    if (typeof error.stack === 'string') out.stack = error.stack;
    return out;
  }
  const out: OtelException = { name, message: TRACE_REDACTED };
  const frames = typeof error.stack === 'string' ? framesOnly(error.stack) : undefined;
  if (frames !== undefined) out.stack = frames;
  return out;
}
