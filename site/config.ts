/**
 * The site's settings, from the environment (`bun run site`, the compiled executable):
 *
 * | variable            | meaning                                                        | default                   |
 * | ------------------- | -------------------------------------------------------------- | ------------------------- |
 * | `PORT`              | TCP port                                                       | 3000                      |
 * | `HOST`              | interface to listen on                                         | 127.0.0.1                 |
 * | `SITE_ORIGIN`       | public origin: links, OAuth issuer, resource identifiers       | `http://localhost:<PORT>` |
 * | `NODE_ENV`          | `production` turns on redaction and the boot guards            | development               |
 * | `SITE_TOKEN_SECRET` | base64url key (32+ bytes) that signs access tokens             | random (development only) |
 * | `SITE_BEHIND_PROXY` | `none`, `loopback`, or a hop count: which proxies to believe   | none                      |
 * | `SITE_CONTENT_DIR`  | the Markdown content                                           | `content/` of the checkout |
 * | `REDIS_URL`         | `redis://` or `rediss://` URL: replicas share the quota there   | unset: quota per process  |
 */
import { resolveSiteOrigin } from './oauth/resources.ts';

/** The settings `main.ts` starts the site with. */
export interface SiteConfig {
  readonly port: number;
  readonly hostname: string;
  readonly origin: string;
  readonly production: boolean;
  readonly tokenSecret: string | undefined;
  readonly behindProxy: 'none' | 'loopback' | { readonly hops: number };
  readonly contentDir: string | undefined;
  /** Where the replicas keep the shared quota (`REDIS_URL`); undefined: each process counts alone. */
  readonly redisUrl: string | undefined;
}

type Env = Readonly<Record<string, string | undefined>>;

function port(value: string | undefined): number {
  if (value === undefined || value === '') return 3000;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65_535 || !/^\d+$/.test(value)) {
    throw new RangeError(`PORT must be an integer from 0 to 65535, got ${JSON.stringify(value)}`);
  }
  return n;
}

function behindProxy(value: string | undefined): SiteConfig['behindProxy'] {
  if (value === undefined || value === '' || value === 'none') return 'none';
  if (value === 'loopback') return 'loopback';
  const hops = Number(value);
  if (/^\d+$/.test(value) && hops >= 1 && hops <= 10) return { hops };
  throw new TypeError(
    `SITE_BEHIND_PROXY must be none, loopback or a hop count from 1 to 10, got ${JSON.stringify(value)}`,
  );
}

function redisUrl(value: string | undefined): string | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw new TypeError('REDIS_URL must be a redis:// or rediss:// URL');
  }
  // The value is not echoed: it may carry a password.
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:') {
    throw new TypeError(`REDIS_URL must be a redis:// or rediss:// URL, got a ${url.protocol} URL`);
  }
  return url.href;
}

/** Reads and checks the settings; throws an error naming the variable when one is wrong. */
export function siteConfigFromEnv(env: Env): SiteConfig {
  const listenPort = port(env.PORT);
  const origin = resolveSiteOrigin(env.SITE_ORIGIN || `http://localhost:${listenPort}`, 'SITE_ORIGIN');
  const production = env.NODE_ENV === 'production';
  if (production && new URL(origin).protocol !== 'https:') {
    const host = new URL(origin).hostname;
    if (host !== 'localhost' && host !== '127.0.0.1' && host !== '[::1]') {
      throw new TypeError(`SITE_ORIGIN must be https in production (tokens travel to it), got ${origin}`);
    }
  }
  return {
    port: listenPort,
    hostname: env.HOST || '127.0.0.1',
    origin,
    production,
    tokenSecret: env.SITE_TOKEN_SECRET || undefined,
    behindProxy: behindProxy(env.SITE_BEHIND_PROXY),
    contentDir: env.SITE_CONTENT_DIR || undefined,
    redisUrl: redisUrl(env.REDIS_URL),
  };
}
