import { expect } from 'bun:test';

/** Asserts a response's status, its Content-Type (default `application/json`) and its parsed JSON body. */
export async function expectJson(
  res: Response,
  status: number,
  body: unknown,
  contentType = 'application/json',
): Promise<void> {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toBe(contentType);
  expect(await res.json()).toEqual(body);
}
