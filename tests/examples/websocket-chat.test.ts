/** `bun examples/websocket-chat.ts`: two real WebSocket clients in one room. */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { type RunningExample, startExample } from './support.ts';

interface Line {
  from: string;
  text: string;
}

/** A connected client that records every message it receives. */
async function join(
  url: string,
  name: string,
): Promise<{ socket: WebSocket; lines: Line[]; next(): Promise<Line> }> {
  const socket = new WebSocket(`${url.replace('http', 'ws')}/chat?name=${name}`);
  const lines: Line[] = [];
  const waiting: Array<(line: Line) => void> = [];
  let read = 0;
  socket.addEventListener('message', (event) => {
    lines.push(JSON.parse(String(event.data)) as Line);
    waiting.shift()?.(lines[read++] as Line);
  });
  await new Promise<void>((resolve, reject) => {
    socket.addEventListener('open', () => resolve(), { once: true });
    socket.addEventListener('error', () => reject(new Error('the socket did not open')), { once: true });
  });
  const next = (): Promise<Line> =>
    read < lines.length
      ? Promise.resolve(lines[read++] as Line)
      : new Promise((resolve) => waiting.push(resolve));
  return { socket, lines, next };
}

describe('examples/websocket-chat.ts', () => {
  let example: RunningExample;
  beforeAll(async () => {
    example = await startExample('websocket-chat.ts');
  });
  afterAll(() => example?.stop());

  test('prints its URL and what to try', () => {
    expect(example.output()).toContain(`Chat example listening on ${example.url}`);
    expect(example.output()).toContain(`${example.url.replace('http', 'ws')}/chat?name=ada`);
  });

  test('GET / is the page, its script comes from /chat.js under a policy with no inline script', async () => {
    const page = await fetch(`${example.url}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(await page.text()).toContain('<script src="/chat.js" type="module"></script>');
    const script = await fetch(`${example.url}/chat.js`);
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(await script.text()).toContain('textContent');
  });

  test('a message from one member reaches both; a leaving member is announced', async () => {
    const ada = await join(example.url, 'ada');
    expect(await ada.next()).toEqual({ from: 'server', text: 'welcome, ada' });
    expect(await ada.next()).toEqual({ from: 'server', text: 'ada joined' });
    const bob = await join(example.url, 'bob');
    expect(await bob.next()).toEqual({ from: 'server', text: 'welcome, bob' });
    expect(await ada.next()).toEqual({ from: 'server', text: 'bob joined' });
    expect(await bob.next()).toEqual({ from: 'server', text: 'bob joined' });

    ada.socket.send('  hello, bob  ');
    expect(await ada.next()).toEqual({ from: 'ada', text: 'hello, bob' });
    expect(await bob.next()).toEqual({ from: 'ada', text: 'hello, bob' });

    bob.socket.close();
    expect(await ada.next()).toEqual({ from: 'server', text: 'bob left' });
    ada.socket.close();
  });

  test('a bad name becomes a guest name; a cross-origin browser handshake is refused (403)', async () => {
    const guest = await join(example.url, '<script>');
    expect((await guest.next()).text).toMatch(/^welcome, guest-\d+$/);
    guest.socket.close();

    const refused = await fetch(`${example.url}/chat`, {
      headers: {
        origin: 'https://evil.example',
        upgrade: 'websocket',
        connection: 'Upgrade',
        'sec-websocket-version': '13',
        'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
      },
    });
    expect(refused.status).toBe(403);
    expect(refused.headers.get('content-type')).toStartWith('application/problem+json');
  });
});
