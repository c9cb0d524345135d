/** `bun examples/sse.ts`: event streams read over a real connection. */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { type RunningExample, startExample } from './support.ts';

describe('examples/sse.ts', () => {
  let example: RunningExample;
  beforeAll(async () => {
    example = await startExample('sse.ts');
  });
  afterAll(() => example?.stop());

  test('prints its URL and the requests to try', () => {
    expect(example.output()).toContain(`SSE example listening on ${example.url}`);
    expect(example.output()).toContain(`curl -N ${example.url}/clock`);
  });

  test('GET /countdown?from=3 is the whole stream: 3, 2, 1, then done', async () => {
    const response = await fetch(`${example.url}/countdown?from=3`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toStartWith('text/event-stream');
    const text = await response.text();
    expect(text).toContain('id: 3\ndata: 3\n\n');
    expect(text).toContain('id: 1\ndata: 1\n\n');
    expect(text).toContain('event: done\ndata: liftoff\n\n');
    expect(text.indexOf('data: 3')).toBeLessThan(text.indexOf('data: 2'));
  });

  test('Last-Event-ID resumes after the last event seen; a bad one is a 422 problem', async () => {
    const resumed = await fetch(`${example.url}/countdown?from=3`, { headers: { 'last-event-id': '2' } });
    expect(resumed.status).toBe(200);
    const text = await resumed.text();
    expect(text).not.toContain('data: 3');
    expect(text).not.toContain('data: 2');
    expect(text).toContain('id: 1\ndata: 1\n\n');

    const bad = await fetch(`${example.url}/countdown?from=3`, { headers: { 'last-event-id': 'x' } });
    expect(bad.status).toBe(422);
    const tooMany = await fetch(`${example.url}/countdown?from=1000`);
    expect(tooMany.status).toBe(422);
    expect(((await tooMany.json()) as { detail: string }).detail).toContain('query.from');
  });

  test('GET /clock streams tick events as they happen', async () => {
    const controller = new AbortController();
    const response = await fetch(`${example.url}/clock`, { signal: controller.signal });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toStartWith('text/event-stream');
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let text = '';
    while (!text.includes('event: tick')) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
    controller.abort();
    expect(text).toMatch(/event: tick\nid: 1\ndata: \{"now":"\d{4}-\d\d-\d\dT/);
  });

  test('GET / is the page, its script from /clock.js', async () => {
    const page = await fetch(`${example.url}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("connect-src 'self'");
    expect(await page.text()).toContain('<script src="/clock.js" type="module"></script>');
    const script = await fetch(`${example.url}/clock.js`);
    expect(await script.text()).toContain("new EventSource('/clock')");
  });
});
