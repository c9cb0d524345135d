/**
 * A front end calling the API through the typed client (`charter/client`): the server serves the
 * to-do API (examples/typed-client/api.ts), a small HTML page, and the page's script, bundled from
 * examples/typed-client/browser.ts with `Bun.build` when the server starts. The browser's client is
 * made from the same App definition as the server, so a change to a route's schema is a compile
 * error in the page's code. Run it with `bun examples/typed-client.ts` (PORT, default 3000; HOST,
 * default 127.0.0.1) and open the page.
 */
import { join } from 'node:path';
import { serve } from 'charter/bun';
import { createTodoApi } from './typed-client/api.ts';

const PAGE = `<!doctype html>
<html lang="en">
<meta charset="utf-8">
<title>To-dos</title>
<h1>To-dos</h1>
<form id="new"><input id="title" maxlength="200" required> <button>Add</button></form>
<ul id="todos"></ul>
<p><output id="status"></output></p>
<script src="/app.js" type="module"></script>
`;

/** Bundles the page's script for browsers (ESM, minified), once. */
export async function buildBrowserScript(): Promise<string> {
  const result = await Bun.build({
    entrypoints: [join(import.meta.dir, 'typed-client', 'browser.ts')],
    target: 'browser',
    format: 'esm',
    minify: true,
  });
  const [output] = result.outputs;
  if (!result.success || output === undefined) {
    throw new Error(`the page's script did not build:\n${result.logs.map(String).join('\n')}`);
  }
  return output.text();
}

/** The API plus the page and its script. */
export async function createTypedClientApp() {
  const script = await buildBrowserScript();
  return createTodoApi()
    .get(
      '/',
      { operationId: 'page', responses: { 200: { contentType: 'text/html; charset=utf-8' } } },
      () => ({
        status: 200,
        body: PAGE,
        // Scripts from this origin only, no inline script; fetch back to this origin only.
        headers: {
          'content-security-policy':
            "default-src 'none'; script-src 'self'; connect-src 'self'; base-uri 'none'",
        },
      }),
    )
    .get(
      '/app.js',
      { operationId: 'script', responses: { 200: { contentType: 'text/javascript; charset=utf-8' } } },
      () => ({ status: 200, body: script }),
    );
}

if (import.meta.main) {
  const server = await serve(await createTypedClientApp(), {
    port: Number(process.env.PORT ?? 3000),
    hostname: process.env.HOST ?? '127.0.0.1',
  });
  const url = server.url;
  console.log(`Typed client example listening on ${url}
Try:
  open ${url}/                 # add to-dos and tick them off; the page calls the API through the typed client
  curl ${url}/api/todos`);
}
