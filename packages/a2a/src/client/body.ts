/**
 * Reading an A2A answer safely: a byte cap enforced while streaming (a `Content-Length` is a claim, not
 * a limit), a JSON media-type check (A2A 1.0 §3: `application/json`; v1.0.1 also names
 * `application/a2a+json`), and strict UTF-8 decoding (RFC 8259 §8.1).
 */
import { A2aClientError } from './errors.ts';

/** Media types accepted as JSON bodies, compared without parameters, case-insensitively (RFC 9110 §8.3.1). */
const JSON_MEDIA_TYPES = new Set(['application/json', 'application/a2a+json']);

/**
 * True when a `Content-Type` names JSON: `application/json` or `application/a2a+json`, with an optional
 * `charset` parameter that must then be UTF-8 (RFC 8259 §8.1: JSON between systems is UTF-8).
 */
export function isJsonContentType(header: string | null): boolean {
  if (header === null) return false;
  const [essence = '', ...params] = header.split(';');
  if (!JSON_MEDIA_TYPES.has(essence.trim().toLowerCase())) return false;
  for (const param of params) {
    const eq = param.indexOf('=');
    if (eq === -1) continue;
    if (param.slice(0, eq).trim().toLowerCase() !== 'charset') continue;
    let value = param
      .slice(eq + 1)
      .trim()
      .toLowerCase();
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    if (value !== 'utf-8' && value !== 'utf8') return false;
  }
  return true;
}

/** Rejects when `signal` aborts, so a fetch or a read that ignores its signal cannot outlive the timeout. */
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

function tooLarge(maxBytes: number, status: number): A2aClientError {
  return new A2aClientError(`A2A response body exceeds maxResponseBytes (${maxBytes} bytes)`, {
    reason: 'too-large',
    status,
  });
}

/**
 * Reads the whole body, refusing it (and cancelling the stream, so the connection stops) as soon as it
 * passes `maxBytes`. A declared `Content-Length` above the cap is refused before reading.
 */
export async function readBodyLimited(
  response: Response,
  maxBytes: number,
  signal: AbortSignal,
): Promise<Uint8Array> {
  const declared = response.headers.get('content-length');
  if (declared !== null && /^\d+$/.test(declared.trim()) && Number(declared.trim()) > maxBytes) {
    response.body?.cancel().catch(() => {});
    throw tooLarge(maxBytes, response.status);
  }
  if (response.body === null) return new Uint8Array(0);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await untilAborted(reader.read(), signal);
      if (done) break;
      total += value.byteLength;
      if (total > maxBytes) throw tooLarge(maxBytes, response.status);
      chunks.push(value);
    }
  } catch (error) {
    reader.cancel().catch(() => {});
    throw error;
  }
  if (chunks.length === 1) return chunks[0] as Uint8Array;
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/** Parses a UTF-8 JSON body; throws a `SyntaxError` or `TypeError` (invalid UTF-8) for bad input. */
export function parseJsonBytes(bytes: Uint8Array): unknown {
  // fatal: a byte sequence that is not UTF-8 is an error, not U+FFFD (RFC 8259 §8.1). A BOM is skipped.
  return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
}
