import { describe, expect, test } from 'bun:test';
import { SSE_CONTENT_TYPE, sseResponse } from './sse-response.ts';

describe('sseResponse', () => {
  test('answers 200 text/event-stream; charset=utf-8, no-cache, x-accel-buffering: no, no length', async () => {
    const response = sseResponse([{ event: 'greeting', data: 'hi' }], { keepAliveMs: 0 });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe(SSE_CONTENT_TYPE);
    expect(SSE_CONTENT_TYPE).toBe('text/event-stream; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('no-cache');
    expect(response.headers.get('x-accel-buffering')).toBe('no');
    expect(response.headers.get('content-length')).toBeNull();
    expect(await response.text()).toBe(':\n\nevent: greeting\ndata: hi\n\n');
  });

  test('adds the given headers and lets them override a default; cookies add up', () => {
    const headers = new Headers({ 'cache-control': 'no-store', 'x-stream': 'ticks' });
    headers.append('set-cookie', 'a=1');
    headers.append('set-cookie', 'b=2');
    const response = sseResponse([], { headers, status: 201 });
    expect(response.status).toBe(201);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('x-stream')).toBe('ticks');
    expect(response.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
    void response.body?.cancel();
  });

  test('passes the stream options on: an aborted signal gives an empty body', async () => {
    expect(await sseResponse([{ data: 'x' }], { signal: AbortSignal.abort() }).text()).toBe('');
  });

  test('refuses a status that cannot carry a stream', () => {
    for (const status of [100, 199, 204, 205, 304, 600, 200.5]) {
      expect(() => sseResponse([], { status })).toThrow(RangeError);
    }
    expect(() => sseResponse([], { status: '200' as unknown as number })).toThrow(
      /sseResponse: status must be a number/,
    );
  });

  test('refuses a content-length header and invalid headers', () => {
    expect(() => sseResponse([], { headers: { 'Content-Length': '10' } })).toThrow(
      /sseResponse: headers must not set content-length/,
    );
    expect(() => sseResponse([], { headers: { 'bad name': 'x' } })).toThrow(
      /sseResponse: headers must be a valid/,
    );
  });

  test('a content-type may restate text/event-stream; another media type or a coding is refused', () => {
    const restated = sseResponse([], { headers: { 'content-type': 'Text/Event-Stream' } });
    expect(restated.headers.get('content-type')).toBe('Text/Event-Stream');
    void restated.body?.cancel();
    expect(() => sseResponse([], { headers: { 'content-type': 'application/json' } })).toThrow(
      /sseResponse: headers set content-type to "application\/json", but the body is text\/event-stream/,
    );
    expect(() => sseResponse([], { headers: { 'content-encoding': 'gzip' } })).toThrow(
      /sseResponse: headers must not set content-encoding/,
    );
    expect(() => sseResponse([], { headers: { 'transfer-encoding': 'chunked' } })).toThrow(
      /sseResponse: headers must not set transfer-encoding/,
    );
  });

  test('refuses bad stream options, naming sseResponse', () => {
    expect(() => sseResponse([], { keepAliveMs: -5 })).toThrow(/sseResponse: keepAliveMs/);
    expect(() => sseResponse([], { onError: true as unknown as () => void })).toThrow(/sseResponse: onError/);
  });
});
