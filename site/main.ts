/**
 * `bun run site`: serves Charter's documentation site with the Bun adapter. Settings come from the
 * environment (see `config.ts`); it stops gracefully on SIGINT/SIGTERM, draining in-flight requests.
 */
import { serve } from '@charter/bun';
import { createJsonLogger } from '@charter/core';
import { createSite } from './app.ts';
import { siteConfigFromEnv } from './config.ts';
import { EMBEDDED, loadContent } from './content/embedded.ts';
import { resolveTokenKey } from './oauth/key.ts';

/**
 * The default JSON lines, written through the console: Bun writes those natively, where the first
 * `process.stdout.write` builds Node's stream machinery (about 30 ms of CPU at start, measured in
 * the compiled site: bench/site-binary.ts). `%s`: the line is printed as it is, never as a format.
 */
const logger = createJsonLogger({
  write: (line, level) => (level === 'error' ? console.error('%s', line) : console.log('%s', line)),
});

/** A setting or the content is wrong: say so in one line and exit, rather than print a stack. */
function refuse(error: unknown): never {
  console.error(`charter-site: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}

const config = (() => {
  try {
    return siteConfigFromEnv(process.env);
  } catch (error) {
    return refuse(error);
  }
})();
const content = await (async () => {
  try {
    // The executable holds the content built when it was compiled (and ignores the directory);
    // from source, it is read and built now.
    return await loadContent(config.contentDir ?? new URL('../content', import.meta.url).pathname);
  } catch (error) {
    return refuse(error);
  }
})();
const key = (() => {
  try {
    return resolveTokenKey({ secret: config.tokenSecret, production: config.production });
  } catch (error) {
    return refuse(error);
  }
})();
// With REDIS_URL, replicas behind one address share one quota per client (scaling.md).
// Loaded only then: a single process never loads the Redis stores.
const quota =
  config.redisUrl === undefined
    ? undefined
    : (await import('./quota.ts')).sharedQuotaStore({ url: config.redisUrl, logger: () => app.logger });
const app = createSite({
  origin: config.origin,
  content,
  logger,
  tokenKey: key.key,
  production: config.production,
  behindProxy: config.behindProxy,
  rateLimitStore: quota?.store,
});
if (quota !== undefined) app.onClose(() => quota.close());
if (key.generated) {
  app.logger.warn(
    config.redisUrl === undefined
      ? 'SITE_TOKEN_SECRET is not set: tokens are signed with a random key and die with this process'
      : 'SITE_TOKEN_SECRET is not set: tokens are signed with a random key, die with this process and fail on the other replicas',
  );
}
// No banner: the site says where it listens in its own log line below, as JSON, on a terminal too
// (and deciding whether to print one asks the terminal, at every start).
const server = await serve(app, { port: config.port, hostname: config.hostname, banner: false });
// The compiled executable starts with the JIT reluctant (scripts/site-compile.ts, STARTUP_JIT_POLICY):
// from here on the code that runs is the code that serves, which should tier up as usual.
Bun.unsafe.setJITPolicy(1);
app.logger.info('Charter documentation site listening', {
  url: server.url,
  origin: config.origin,
  pages: content.pages.length,
  embedded: EMBEDDED,
  quota: quota === undefined ? 'memory' : 'redis',
});
