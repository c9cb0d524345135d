import { describe, expect, test } from 'bun:test';
import { siteConfigFromEnv } from './config.ts';

describe('siteConfigFromEnv', () => {
  test('defaults: port 3000 on 127.0.0.1, origin http://localhost:3000, development, no proxy', () => {
    expect(siteConfigFromEnv({})).toEqual({
      port: 3000,
      hostname: '127.0.0.1',
      origin: 'http://localhost:3000',
      production: false,
      tokenSecret: undefined,
      behindProxy: 'none',
      contentDir: undefined,
      redisUrl: undefined,
    });
  });

  test('REDIS_URL: a redis:// or rediss:// URL; blank is unset; anything else is refused without echoing it', () => {
    expect(siteConfigFromEnv({ REDIS_URL: 'redis://127.0.0.1:6379' }).redisUrl).toBe(
      'redis://127.0.0.1:6379',
    );
    expect(siteConfigFromEnv({ REDIS_URL: ' rediss://:pw@cache.internal:6380/2 ' }).redisUrl).toBe(
      'rediss://:pw@cache.internal:6380/2',
    );
    expect(siteConfigFromEnv({ REDIS_URL: '  ' }).redisUrl).toBeUndefined();
    expect(() => siteConfigFromEnv({ REDIS_URL: 'http://secret@cache:6379' })).toThrow(
      'REDIS_URL must be a redis:// or rediss:// URL, got a http: URL',
    );
    expect(() => siteConfigFromEnv({ REDIS_URL: 'not a url with secret' })).toThrow(
      /^REDIS_URL must be a redis:\/\/ or rediss:\/\/ URL$/,
    );
  });

  test('the default origin follows PORT; SITE_ORIGIN wins and is normalised to an origin', () => {
    expect(siteConfigFromEnv({ PORT: '8080' }).origin).toBe('http://localhost:8080');
    expect(siteConfigFromEnv({ PORT: '8080', SITE_ORIGIN: 'HTTPS://Docs.Example:443' }).origin).toBe(
      'https://docs.example',
    );
  });

  test('reads HOST, NODE_ENV, SITE_TOKEN_SECRET, SITE_BEHIND_PROXY and SITE_CONTENT_DIR', () => {
    const config = siteConfigFromEnv({
      HOST: '0.0.0.0',
      NODE_ENV: 'production',
      SITE_ORIGIN: 'https://charter.dev',
      SITE_TOKEN_SECRET: 'abc',
      SITE_BEHIND_PROXY: '2',
      SITE_CONTENT_DIR: '/srv/content',
    });
    expect(config).toMatchObject({
      hostname: '0.0.0.0',
      production: true,
      tokenSecret: 'abc',
      behindProxy: { hops: 2 },
      contentDir: '/srv/content',
    });
    expect(siteConfigFromEnv({ SITE_BEHIND_PROXY: 'loopback' }).behindProxy).toBe('loopback');
  });

  test('refuses a bad PORT, origin or proxy setting, naming the variable', () => {
    for (const PORT of ['-1', '65536', '3.5', 'http', '3000x']) {
      expect(() => siteConfigFromEnv({ PORT })).toThrow(/PORT/);
    }
    for (const SITE_ORIGIN of [
      'localhost:3000',
      'ftp://x.example',
      'https://x.example/docs',
      'https://x.example/?q',
    ]) {
      expect(() => siteConfigFromEnv({ SITE_ORIGIN })).toThrow(/SITE_ORIGIN/);
    }
    for (const SITE_BEHIND_PROXY of ['all', '0', '11', 'yes']) {
      expect(() => siteConfigFromEnv({ SITE_BEHIND_PROXY })).toThrow(/SITE_BEHIND_PROXY/);
    }
  });

  test('refuses a plain-http public origin in production, where tokens travel to it', () => {
    expect(() => siteConfigFromEnv({ NODE_ENV: 'production', SITE_ORIGIN: 'http://docs.example' })).toThrow(
      /https in production/,
    );
    expect(
      siteConfigFromEnv({ NODE_ENV: 'production', SITE_ORIGIN: 'http://127.0.0.1:3000' }).production,
    ).toBe(true);
  });
});
