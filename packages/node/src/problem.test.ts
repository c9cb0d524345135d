import { describe, expect, test } from 'bun:test';
import { InternalError, RequestTimeoutError } from '@charter/core';
import { problemResponse, rawProblemResponse } from './problem.ts';

describe('charter/node problem answers', () => {
  test('a raw problem response is a complete HTTP/1.1 message that closes the connection', () => {
    const raw = rawProblemResponse(new RequestTimeoutError('Too slow — really'), false);
    const [head = '', body = ''] = raw.split('\r\n\r\n');
    const lines = head.split('\r\n');
    expect(lines[0]).toBe('HTTP/1.1 408 Request Timeout');
    expect(lines).toContain('Content-Type: application/problem+json');
    expect(lines).toContain('Connection: close');
    expect(lines.some((l) => /^Date: \w{3}, \d{2} \w{3} \d{4} \d{2}:\d{2}:\d{2} GMT$/.test(l))).toBe(true);
    // Content-Length counts bytes, not UTF-16 units (the em dash is 3 bytes).
    expect(lines).toContain(`Content-Length: ${new TextEncoder().encode(body).byteLength}`);
    expect(JSON.parse(body)).toEqual({
      type: 'https://charter.dev/errors/request-timeout',
      title: 'Request Timeout',
      status: 408,
      detail: 'Too slow — really',
    });
  });

  test('production redacts internal detail, in raw and Response answers alike', async () => {
    const error = new InternalError('secret internals');
    expect(rawProblemResponse(error, true)).not.toContain('secret internals');
    const response = problemResponse(error, true);
    expect(response.status).toBe(500);
    expect(response.headers.get('connection')).toBe('close');
    expect(await response.text()).not.toContain('secret internals');
  });
});
