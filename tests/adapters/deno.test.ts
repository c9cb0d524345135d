/**
 * charter/deno on real Deno (the registry's `deno` 2.9.6, offline): the behaviour suite over HTTP, the
 * client address, WebSocket routes through Deno.upgradeWebSocket, the serve handle, the "Listening"
 * line, and graceful shutdown on SIGTERM and SIGINT. Needs `bun run build` (Deno imports the dist).
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { describeBehaviour } from './behaviour/bun.ts';
import { type BehaviourTarget, behaviourChecks } from './behaviour/checks.ts';
import { type DenoSandbox, denoSandbox, spawnDeno } from './behaviour/runtimes/deno.ts';
import { rawHandshake } from './behaviour/runtimes/raw-handshake.ts';
import { readLines } from '../support/lines.ts';

const START_TIMEOUT_MS = 30_000;

interface DenoServerProcess {
  readonly url: string;
  readonly proc: ReturnType<typeof spawnDeno>;
  /** Every stdout line so far (JSON log lines, mostly). */
  readonly lines: string[];
  readonly stderr: Promise<string>;
}

/** Starts runtimes/deno-server.ts and resolves with the URL of its "Listening" line. */
async function startDenoServer(sandbox: DenoSandbox, args: string[] = []): Promise<DenoServerProcess> {
  const proc = spawnDeno(sandbox, 'deno-server.ts', ['0', ...args]);
  const lines: string[] = [];
  const stderr = new Response(proc.stderr).text();
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`Deno did not listen in time: ${lines.join('\n')}`)),
      START_TIMEOUT_MS,
    );
    void readLines(proc.stdout, (line) => {
      lines.push(line);
      if (line.includes('"msg":"Listening"')) {
        clearTimeout(timer);
        resolve((JSON.parse(line) as { url: string }).url);
      }
    }).then(async () => {
      clearTimeout(timer);
      reject(new Error(`Deno exited before listening: ${lines.join('\n')}\n${await stderr}`));
    });
  });
  return { url, proc, lines, stderr };
}

let sandbox: DenoSandbox;
let server: DenoServerProcess | undefined;
let target: BehaviourTarget | undefined;

beforeAll(async () => {
  sandbox = denoSandbox();
  server = await startDenoServer(sandbox);
  const url = server.url;
  target = { baseUrl: url, fetch: (request) => fetch(request) };
}, START_TIMEOUT_MS + 5000);

afterAll(async () => {
  server?.proc.kill('SIGKILL');
  await server?.proc.exited;
  sandbox?.dispose();
});

function running(): DenoServerProcess {
  if (server === undefined) throw new Error('the Deno server did not start');
  return server;
}

describeBehaviour('Deno (charter/deno)', () => {
  running();
  return target as BehaviourTarget;
});

describe('charter/deno on Deno', () => {
  test('logs a "Listening" line with the URL, and prints no line of its own', () => {
    const { lines, url } = running();
    const listening = lines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .find((r) => r.msg === 'Listening');
    expect(listening).toMatchObject({ level: 'info', msg: 'Listening', hostname: '127.0.0.1', url });
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    // Deno.serve's default "Listening on ..." text is replaced by the app logger's line.
    expect(lines.filter((line) => !line.startsWith('{'))).toEqual([]);
  });

  test('the client address is the connection peer (info.remoteAddr), not a forwarded header', async () => {
    const res = await fetch(`${running().url}/peer`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ address: '127.0.0.1' });
    const forged = await fetch(`${running().url}/peer`, { headers: { 'x-forwarded-for': '203.0.113.9' } });
    expect(await forged.json()).toEqual({ address: '127.0.0.1' });
  });

  test('a WebSocket route is switched by Deno: subprotocol, echo, binary, the app close code', async () => {
    const ws = new WebSocket(`${running().url.replace('http', 'ws')}/ws`, ['echo.v1']);
    ws.binaryType = 'arraybuffer';
    const received: string[] = [];
    const closed = new Promise<{ code: number; reason: string }>((resolve) => {
      ws.onclose = (event) => resolve({ code: event.code, reason: event.reason });
    });
    const next = () =>
      new Promise<string>((resolve, reject) => {
        ws.onmessage = (event) => {
          received.push(String(event.data));
          resolve(String(event.data));
        };
        ws.onerror = () => reject(new Error('WebSocket error'));
      });
    const hello = next();
    await new Promise((resolve, reject) => {
      ws.onopen = resolve;
      ws.onerror = () => reject(new Error('WebSocket failed to open'));
    });
    expect(ws.protocol).toBe('echo.v1');
    expect(await hello).toBe('hello echo.v1 127.0.0.1');
    let reply = next();
    ws.send('hi');
    expect(await reply).toBe('echo: hi');
    reply = next();
    ws.send(new Uint8Array([1, 2, 3]));
    expect(await reply).toBe('bytes: 3');
    ws.send('bye');
    expect(await closed).toEqual({ code: 1000, reason: 'bye' });
  });

  test('the 101 carries the accept key, the chosen subprotocol and the headers the App set', async () => {
    const { status, headers } = await rawHandshake(running().url, '/ws', 'other.v9, echo.v1');
    expect(status).toBe(101);
    // RFC 6455 §4.2.2 (the key of §1.3's example) and the one subprotocol the route speaks.
    expect(headers.get('sec-websocket-accept')).toBe('s3pPLMBiTxaQ9kYGzzhZRbK+xOo=');
    expect(headers.get('sec-websocket-protocol')).toBe('echo.v1');
    expect(headers.get('upgrade')?.toLowerCase()).toBe('websocket');
    // The App's secure headers travel on the acceptance.
    expect(headers.get('x-content-type-options')).toBe('nosniff');
  });

  test("a message over the route's maxPayloadLength closes with 1009", async () => {
    const ws = new WebSocket(`${running().url.replace('http', 'ws')}/ws`, ['echo.v1']);
    const closed = new Promise<number>((resolve) => {
      ws.onclose = (event) => resolve(event.code);
    });
    await new Promise((resolve) => {
      ws.onmessage = resolve; // the hello
    });
    ws.send('x'.repeat(65));
    expect(await closed).toBe(1009);
  });

  test('a WebSocket handshake the route refuses is a problem document, not an upgrade', async () => {
    const plain = await fetch(`${running().url}/ws`);
    expect(plain.status).toBe(426);
    expect(plain.headers.get('content-type')).toBe('application/problem+json');
    expect(plain.headers.get('upgrade')).toBe('websocket');
    const ws = new WebSocket(`${running().url.replace('http', 'ws')}/ws`, ['other.v9']);
    const outcome = await new Promise<string>((resolve) => {
      ws.onopen = () => resolve('open');
      ws.onerror = () => resolve('refused');
    });
    expect(outcome).toBe('refused');
  });

  test("more header fields than maxHeaderCount get the App's 431 problem, up to Deno's own cap", async () => {
    const headers = (count: number) =>
      Object.fromEntries(Array.from({ length: count }, (_, i) => [`x-field-${i}`, 'v']));
    // Well under Deno's 128 with fetch's own fields (Host, Accept...), over the App's 100.
    const guarded = await fetch(`${running().url}/items/1`, { headers: headers(105) });
    expect(guarded.status).toBe(431);
    expect(guarded.headers.get('content-type')).toBe('application/problem+json');
    expect(((await guarded.json()) as { status: number }).status).toBe(431);
    // Past Deno's cap, Deno answers by itself, bare: why serve() refuses a maxHeaderCount above it.
    const bare = await fetch(`${running().url}/items/1`, { headers: headers(140) });
    expect(bare.status).toBe(400);
    expect(await bare.text()).toBe('');
  });

  test('the behaviour checks also pass run inside Deno (in process, the typed client included)', async () => {
    const proc = spawnDeno(sandbox, 'deno-checks.ts');
    const [stdout, stderr, code] = await Promise.all([
      new Response(proc.stdout).text(),
      new Response(proc.stderr).text(),
      proc.exited,
    ]);
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    const { results } = JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as {
      results: Array<{ name: string; ok: boolean; error?: string }>;
    };
    expect(results.map((r) => r.name)).toEqual(behaviourChecks.map((check) => check.name));
    expect(results.filter((r) => !r.ok)).toEqual([]);
  }, 60_000);

  test('the serve handle: sync return, ready, close() at any time, the signal option, start failures', async () => {
    const proc = spawnDeno(sandbox, 'deno-handle.ts');
    const [stdout, stderr, code] = await Promise.all([
      new Response(proc.stdout).text(),
      new Response(proc.stderr).text(),
      proc.exited,
    ]);
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    const { results } = JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as {
      results: Array<{ name: string; ok: boolean; detail: string }>;
    };
    expect(results.map((r) => r.name)).toHaveLength(6);
    for (const result of results) expect(result).toMatchObject({ name: result.name, ok: true });
  }, 60_000);
});

describe('charter/deno graceful shutdown', () => {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    test(`${signal} lets the request in flight finish, closes WebSockets with 1001, then exits 0`, async () => {
      const own = await startDenoServer(sandbox, ['signals']);
      try {
        const ws = new WebSocket(`${own.url.replace('http', 'ws')}/ws`, ['echo.v1']);
        const wsClosed = new Promise<number>((resolve) => {
          ws.onclose = (event) => resolve(event.code);
        });
        await new Promise((resolve) => {
          ws.onmessage = resolve;
        });
        const inFlight = fetch(`${own.url}/drain`);
        // The route logs when it starts; the signal goes once the request is inside the app.
        for (let i = 0; i < 3000 && !own.lines.some((line) => line.includes('drain started')); i++)
          await Bun.sleep(10);
        expect(own.lines.some((line) => line.includes('drain started'))).toBe(true);
        own.proc.kill(signal);
        const res = await inFlight;
        expect(res.status).toBe(200);
        expect(await res.json()).toEqual({ finished: true });
        expect(await wsClosed).toBe(1001);
        expect(await own.proc.exited).toBe(0);
        const shutting = own.lines
          .map((line) => JSON.parse(line) as Record<string, unknown>)
          .find((r) => r.msg === 'Shutting down');
        expect(shutting).toMatchObject({ signal });
        // Once stopped, the port refuses connections.
        expect(
          await fetch(`${own.url}/items/1`).then(
            () => 'answered',
            () => 'refused',
          ),
        ).toBe('refused');
      } finally {
        own.proc.kill('SIGKILL');
      }
    }, 60_000);
  }
});
