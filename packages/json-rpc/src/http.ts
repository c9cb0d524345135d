/**
 * The HTTP side of a JSON-RPC endpoint, shared by the tool-server (MCP) and agent (A2A) modules: the
 * request's media type, the bounded body read, and the problem documents for both refusals.
 */
import {
  type HttpError,
  httpError,
  isHttpError,
  readBodyLimited,
  UnsupportedMediaTypeError,
} from '@charter/core';

/**
 * Whether a Content-Type names one of `accepted` (lower-case media types), parameters allowed
 * (RFC 9110 §8.3.1: the type and subtype are case-insensitive).
 */
export function hasJsonRpcMediaType(value: string | null, accepted: readonly string[]): boolean {
  if (value === null) return false;
  const semi = value.indexOf(';');
  return accepted.includes((semi === -1 ? value : value.slice(0, semi)).trim().toLowerCase());
}

/** 415 for a body of any other media type (or none); the value is quoted at most 100 characters long. */
export function unsupportedJsonRpcMediaType(value: string | null): HttpError {
  return new UnsupportedMediaTypeError(
    value === null
      ? 'A JSON-RPC request needs Content-Type: application/json'
      : `Content-Type ${JSON.stringify(value.slice(0, 100))} is not accepted: send application/json`,
  );
}

/** Reads the body within `limit` bytes; the 413 (or a 400 for a broken upload) comes back as an HttpError. */
export async function readJsonRpcBody(request: Request, limit: number): Promise<Uint8Array | HttpError> {
  try {
    return await readBodyLimited(request, limit);
  } catch (error) {
    if (isHttpError(error)) return error;
    return httpError({ status: 400, detail: 'The request body could not be read' });
  }
}
