/**
 * Runs on Deno (see ../../deno.test.ts): checks the handle `serve` from `charter/deno` returns, then
 * prints one JSON line `{ results: [{ name, ok, detail }] }` for the Bun test to assert on.
 */
import { App } from 'charter';
import { DENO_MAX_HEADER_FIELDS, serve } from 'charter/deno';
import { z } from 'zod';

interface Result {
  name: string;
  ok: boolean;
  detail: string;
}
const results: Result[] = [];

async function check(name: string, run: () => Promise<string>): Promise<void> {
  try {
    results.push({ name, ok: true, detail: await run() });
  } catch (error) {
    results.push({ name, ok: false, detail: error instanceof Error ? error.message : String(error) });
  }
}

function assert(condition: boolean, message: string): void {
  if (!condition) throw new Error(message);
}

function smallApp(): App {
  const app = new App({ logger: false, behindProxy: 'none' });
  app.get('/ok', { responses: { 200: { body: z.object({ ok: z.boolean() }) } } }, () => ({
    status: 200,
    body: { ok: true },
  }));
  return app;
}

async function refused(url: string): Promise<boolean> {
  try {
    const res = await fetch(url);
    await res.body?.cancel();
    return false;
  } catch {
    return true;
  }
}

await check('the handle is returned at once; port throws until it listens', async () => {
  const handle = serve(smallApp(), { port: 0, signals: false });
  let message = '';
  try {
    void handle.port;
  } catch (error) {
    message = (error as Error).message;
  }
  assert(message.includes('await serve(...) or handle.ready'), `port before listening: ${message}`);
  const server = await handle;
  assert(server.port > 0 && handle.port === server.port, 'port after listening');
  assert(server.url === `http://127.0.0.1:${server.port}`, `url ${server.url}`);
  const res = await fetch(`${server.url}/ok`);
  assert(res.status === 200, `status ${res.status}`);
  await res.body?.cancel();
  await handle.close();
  assert(await refused(`${server.url}/ok`), 'still answering after close()');
  return server.url;
});

await check('close() before the server listens waits for the start, then stops it', async () => {
  const handle = serve(smallApp(), { port: 0, signals: false });
  await handle.close();
  const server = await handle.ready;
  assert(await refused(`${server.url}/ok`), 'still answering');
  return 'closed';
});

await check('aborting the signal option stops the server and shuts the app down', async () => {
  const controller = new AbortController();
  const app = smallApp();
  const server = await serve(app, { port: 0, signals: false, signal: controller.signal });
  controller.abort();
  for (let i = 0; i < 200 && app.state !== 'closed'; i++) await new Promise((r) => setTimeout(r, 10));
  assert(app.state === 'closed', `app state ${app.state}`);
  assert(await refused(`${server.url}/ok`), 'still answering');
  return app.state;
});

await check('a busy port rejects ready with the runtime error', async () => {
  const first = await serve(smallApp(), { port: 0, signals: false });
  const second = serve(smallApp(), { port: first.port, signals: false });
  let message = '';
  try {
    await second.ready;
  } catch (error) {
    message = (error as Error).name;
  }
  await first.close();
  assert(message === 'AddrInUse', `error: ${message}`);
  return message;
});

await check('invalid options reject ready with a TypeError naming the option', async () => {
  const names: string[] = [];
  for (const options of [{ port: -1 }, { port: 1.5 }, { hostname: '' }, { shutdownTimeoutMs: -5 }]) {
    try {
      await serve(smallApp(), { signals: false, ...options }).ready;
      names.push('no error');
    } catch (error) {
      names.push(`${(error as Error).name}: ${(error as Error).message}`);
    }
  }
  assert(
    names.every((n) => n.startsWith('TypeError: serve(): ')),
    names.join(' | '),
  );
  return names.join(' | ');
});

await check('an App whose header-count guard Deno cannot honour is refused at serve', async () => {
  const messages: string[] = [];
  for (const maxHeaderCount of [DENO_MAX_HEADER_FIELDS + 1, 0]) {
    const app = new App({ logger: false, behindProxy: 'none', maxHeaderCount });
    try {
      await serve(app, { port: 0, signals: false }).ready;
      messages.push('no error');
    } catch (error) {
      messages.push(`${(error as Error).name}: ${(error as Error).message}`);
    }
  }
  assert(
    messages.every(
      (m) =>
        m.startsWith('RangeError: charter/deno: maxHeaderCount') &&
        m.includes('set maxHeaderCount to 128 or less'),
    ),
    messages.join(' | '),
  );
  const fits = await serve(new App({ logger: false, behindProxy: 'none', maxHeaderCount: 128 }), {
    port: 0,
    signals: false,
  });
  await fits.close();
  return messages.join(' | ');
});

console.log(JSON.stringify({ results }));
