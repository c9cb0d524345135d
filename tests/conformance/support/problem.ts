import { expect } from 'bun:test';

/**
 * Asserts a response is an RFC 9457 problem document with this status (and, given a code, the
 * catalog `type` URI `https://charter.dev/errors/<code>`), and returns its parsed body.
 */
export async function expectProblem(
  res: Response,
  status: number,
  code?: string,
): Promise<Record<string, unknown>> {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toBe('application/problem+json');
  const body = (await res.json()) as Record<string, unknown>;
  if (code !== undefined) expect(body.type).toBe(`https://charter.dev/errors/${code}`);
  expect(body.status).toBe(status);
  expect(typeof body.title).toBe('string');
  return body;
}
