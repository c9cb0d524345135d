import { describe, expect, test } from 'bun:test';
import { App } from '../app/index.ts';
import type { Logger } from '../logger/index.ts';
import { handleWithoutWebSockets } from './without-sockets.ts';

const handshake = {
  upgrade: 'websocket',
  connection: 'Upgrade',
  'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
  'sec-websocket-version': '13',
};

function recordingLogger(lines: string[]): Logger {
  const at = (level: string) => (msg: string) => void lines.push(`${level}: ${msg}`);
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

describe('handleWithoutWebSockets', () => {
  test("answers with the App's response", async () => {
    const app = new App({ logger: false });
    app.get('/hi', { responses: { 204: {} } }, () => ({ status: 204 }));
    const res = await handleWithoutWebSockets(app, new Request('http://x.test/hi'), 'Test Platform');
    expect(res.status).toBe(204);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });

  test('a handshake the App accepted is a 501 problem naming the platform, without the 101 headers', async () => {
    const app = new App({ logger: false });
    app.ws('/live', { message() {} });
    const res = await handleWithoutWebSockets(
      app,
      new Request('http://x.test/live', { headers: handshake }),
      'Test Platform',
    );
    expect(res.status).toBe(501);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect(res.headers.get('sec-websocket-accept')).toBeNull();
    expect(((await res.json()) as { detail: string }).detail).toBe(
      'WebSocket upgrades are not supported on Test Platform',
    );
  });

  test('an App that throws instead of answering: a redacted 500, logged', async () => {
    const lines: string[] = [];
    const app = new App({ logger: recordingLogger(lines) });
    const broken = Object.assign(Object.create(app) as App, {
      handle: () => {
        throw new Error('secret internals');
      },
    });
    const res = await handleWithoutWebSockets(broken, new Request('http://x.test/'), 'Test Platform');
    expect(res.status).toBe(500);
    expect(await res.text()).not.toContain('secret internals');
    expect(lines).toContain('error: The app threw instead of answering');
  });
});
