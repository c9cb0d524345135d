/**
 * Starting the real documentation site for black-box tests: the real content, the real App, the
 * Bun adapter on a loopback port, with the origin set to the address it listens on (so OAuth
 * issuers and resource identifiers match what clients fetch).
 */
import { join } from 'node:path';
import { type BunServer, serve } from '@charter/bun';
import type { App } from '@charter/core';
import { createSite, type SiteOptions } from '../../site/app.ts';
import { buildContent } from '../../site/content/build.ts';
import { readContentDir } from '../../site/content/read-dir.ts';
import type { ContentSite } from '../../site/content/types.ts';

export const CONTENT_DIR = join(import.meta.dir, '..', '..', 'content');

let content: Promise<ContentSite> | undefined;

/** The real content, loaded once per test process. */
export function realContent(): Promise<ContentSite> {
  content ??= readContentDir(CONTENT_DIR).then(buildContent);
  return content;
}

/** A running site. */
export interface RunningSite {
  readonly origin: string;
  readonly app: App;
  readonly server: BunServer;
  stop(): Promise<void>;
}

/** A port that was free a moment ago (the site must know its origin before it listens). */
function freePort(): number {
  const probe = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response(null) });
  const port = probe.port as number;
  probe.stop(true);
  return port;
}

/** Starts the site on 127.0.0.1; `options` override the defaults (a random token key, no logs). */
export async function startSite(options: Partial<SiteOptions> = {}): Promise<RunningSite> {
  const port = freePort();
  const origin = `http://127.0.0.1:${port}`;
  const app = createSite({
    origin,
    content: await realContent(),
    tokenKey: crypto.getRandomValues(new Uint8Array(32)),
    logger: false,
    ...options,
  });
  const server = await serve(app, { port, hostname: '127.0.0.1', signals: false });
  return { origin, app, server, stop: () => server.close(1000) };
}

/** An in-process site (no port), for tests that need no real client. */
export async function siteApp(options: Partial<SiteOptions> = {}): Promise<App> {
  return createSite({
    origin: 'http://localhost:3000',
    content: await realContent(),
    tokenKey: crypto.getRandomValues(new Uint8Array(32)),
    logger: false,
    ...options,
  });
}
