/**
 * `bun run site`: until the documentation site lands, this serves the example app so the
 * command works on a fresh machine. PORT and HOST override the defaults (3000, 127.0.0.1).
 */
import { serve } from '@charter/bun';
import { createExampleApp } from '../examples/todo-app.ts';

const app = createExampleApp();
const server = await serve(app, {
  port: Number(process.env.PORT ?? 3000),
  hostname: process.env.HOST ?? '127.0.0.1',
});
app.logger.info('Charter example app listening', { url: server.url, routes: app.introspect().length });
