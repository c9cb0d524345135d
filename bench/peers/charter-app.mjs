/**
 * The Charter app of the peers benchmark, the same on Bun (`charter-bun.ts`) and Node
 * (`charter-node.mjs`): `new App({ logger: false })` from the built `charter` package (what users
 * install), default options otherwise (secure defaults on, response validation on), with zod or arktype
 * schemas on the params, the body and every 200 response. The params schema asks for an integer and
 * Charter converts the path text itself (planned from the schema's JSON Schema), so no coercing schema is
 * needed. Unknown paths: Charter's problem+json 404.
 *
 * The package is loaded from CHARTER_DIST (a directory with the built `dist/*.js`; `bench/peers.ts` passes
 * a snapshot of packages/charter/dist, so a rebuild during a run cannot change it), else from
 * packages/charter/dist itself. Plain JavaScript, so Node runs it without type stripping.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * Imports `file` (`index.js`, `bun.js`, `node.js`) of the built charter package, as its exports map
 * gives it to this runtime: on Bun, `dist/bun/<file>` (the `bun` condition: bytecode libs), elsewhere
 * `dist/<file>`.
 */
export function charterModule(file) {
  const dir = process.env.CHARTER_DIST;
  const path = typeof Bun === 'undefined' ? file : `bun/${file}`;
  const url =
    dir === undefined || dir === ''
      ? new URL(`../../packages/charter/dist/${path}`, import.meta.url).href
      : pathToFileURL(join(dir, path)).href;
  return import(url);
}

async function schemas(validator) {
  if (validator === 'zod') {
    const { z } = await import('zod');
    return {
      Static: z.object({ message: z.string() }),
      UserParams: z.object({ id: z.number().int() }),
      User: z.object({ id: z.number().int(), name: z.string() }),
      Echo: z.object({ name: z.string().min(1), age: z.number().int().min(0), tags: z.array(z.string()) }),
    };
  }
  if (validator === 'arktype') {
    const { type } = await import('arktype');
    return {
      Static: type({ message: 'string' }),
      UserParams: type({ id: 'number.integer' }),
      User: type({ id: 'number.integer', name: 'string' }),
      Echo: type({ name: 'string >= 1', age: 'number.integer >= 0', tags: 'string[]' }),
    };
  }
  throw new Error(`unknown validator ${validator}: zod or arktype`);
}

/** The app, built with `App` from the charter package and the schemas of `validator`. */
export async function charterApp(App, validator) {
  const s = await schemas(validator);
  const app = new App({ logger: false });
  app.get('/static', { responses: { 200: { body: s.Static } } }, () => ({
    status: 200,
    body: { message: 'Hello, World!' },
  }));
  app.get(
    '/users/:id',
    { request: { params: s.UserParams }, responses: { 200: { body: s.User } } },
    (ctx) => ({ status: 200, body: { id: ctx.params.id, name: `user ${ctx.params.id}` } }),
  );
  app.post('/echo', { request: { body: s.Echo }, responses: { 200: { body: s.Echo } } }, (ctx) => ({
    status: 200,
    body: ctx.body,
  }));
  return app;
}
