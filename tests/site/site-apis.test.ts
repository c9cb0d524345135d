/**
 * The site's machine surfaces that the site assembles itself (site.md "Endpoints", "Errors",
 * "Limits", "Versioning"): the API index and its version header, the `/api` alias, the OpenAPI
 * document (checked by outside validators), the RFC 9727 catalog, problem documents with `code`
 * and `hint`, the shared rate limit (parsed by an RFC 9651 parser), and the 404s of unmatched paths.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import LinkHeader from 'http-link-header';
import { parseItem, parseList } from 'structured-headers';
import { lifecycle } from '../../site/api/lifecycle.ts';
import { type RunningSite, siteApp, startSite } from './support.ts';

const ORIGIN = 'http://localhost:3000';
const REDOCLY_CLI = join(import.meta.dir, '..', '..', 'node_modules', '@redocly', 'cli', 'bin', 'cli.js');

async function problem(response: Response, status: number, code: string): Promise<Record<string, unknown>> {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toBe('application/problem+json');
  const body = (await response.json()) as Record<string, unknown>;
  expect(body.status).toBe(status);
  expect(body.code).toBe(code);
  expect(typeof body.hint).toBe('string');
  expect(String(body.hint).length).toBeGreaterThan(10);
  return body;
}

/** The RateLimit fields of a response, parsed as RFC 9651 lists. */
function rateLimitOf(response: Response): {
  remaining: number;
  reset: number;
  quota: number;
  window: number;
} {
  const limit = parseList(response.headers.get('ratelimit') ?? '');
  const policy = parseList(response.headers.get('ratelimit-policy') ?? '');
  expect(limit).toHaveLength(1);
  expect(policy).toHaveLength(1);
  const [name, params] = limit[0] as [unknown, Map<string, unknown>];
  const [policyName, policyParams] = policy[0] as [unknown, Map<string, unknown>];
  // A quoted sf-string, not a token (clients.md §5).
  expect(name).toBe('default');
  expect(policyName).toBe('default');
  return {
    remaining: params.get('r') as number,
    reset: params.get('t') as number,
    quota: policyParams.get('q') as number,
    window: policyParams.get('w') as number,
  };
}

describe('GET /api/v1', () => {
  test('answers the index with API-Version: 1, the RateLimit fields and the whole versioning policy', async () => {
    const app = await siteApp();
    const res = await app.request('/api/v1');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.headers.get('api-version')).toBe('1');
    expect(rateLimitOf(res)).toEqual({ remaining: 119, reset: 60, quota: 120, window: 60 });
    expect(res.headers.get('ratelimit-limit')).toBe('120');
    expect(res.headers.get('ratelimit-remaining')).toBe('119');
    expect(res.headers.get('ratelimit-reset')).toBe('60');
    const index = (await res.json()) as {
      versioning: ReturnType<typeof lifecycle> & { acceptedVersions: string[] };
      endpoints: { method: string; path: string; rateLimited: boolean; authentication: string }[];
    };
    const { acceptedVersions, ...policy } = index.versioning;
    expect(policy).toEqual(JSON.parse(JSON.stringify(lifecycle(ORIGIN))));
    expect(acceptedVersions).toEqual(['1', 'v1', '1.0', '1.0.0']);
    const surfaces = Object.fromEntries(policy.surfaces.map((s) => [s.id, s]));
    expect(surfaces['api-v1']).toMatchObject({ status: 'current', successor: null, sunsetAt: null });
    expect(surfaces['docs-md']).toMatchObject({ status: 'deprecated', successor: '/md', sunsetAt: null });
    expect(surfaces['docs-md']?.deprecatedAt).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(surfaces.md).toMatchObject({ status: 'current', successor: null });
    expect(surfaces['api-alias']).toMatchObject({ status: 'current', successor: '/api/v1', path: '/api' });
    const listed = new Set(index.endpoints.map((e) => `${e.method} ${e.path}`));
    for (const endpoint of [
      'GET /api/v1',
      'GET /api',
      'GET /openapi.json',
      'GET /.well-known/api-catalog',
      'GET /.well-known/mcp/server-card.json',
      'GET /.well-known/oauth-authorization-server',
      'GET /.well-known/oauth-protected-resource',
      'GET /.well-known/oauth-protected-resource/{resource}',
      'POST /oauth/token',
      'GET /oauth/authorize',
      'POST /oauth/introspect',
      'POST /mcp',
      'GET /llms.txt',
      'GET /md/{path}',
      'GET /docs-md/{path}',
    ]) {
      expect(listed.has(endpoint)).toBe(true);
    }
    const mcp = index.endpoints.find((e) => e.method === 'POST' && e.path === '/mcp');
    expect(mcp).toMatchObject({ rateLimited: true, authentication: 'optional-bearer' });
    const alias = index.endpoints.find((e) => e.path === '/api');
    expect(alias).toMatchObject({ rateLimited: false, authentication: 'none' });
  });

  test('accepts the pinned versions 1, v1, 1.0 and 1.0.0', async () => {
    const app = await siteApp();
    for (const version of ['1', 'v1', '1.0', '1.0.0', ' 1 ']) {
      const res = await app.request('/api/v1', { headers: { 'api-version': version } });
      expect(res.status).toBe(200);
      expect(res.headers.get('api-version')).toBe('1');
    }
  });

  test('refuses any other pinned version with 400 unsupported_api_version, never another major', async () => {
    const app = await siteApp();
    for (const version of ['2', 'v2', '1.1', '0', '2.0.0', '', 'latest', '1, 2', '1.0.0.0', 'V1']) {
      const res = await app.request('/api/v1', { headers: { 'api-version': version } });
      const body = await problem(res, 400, 'unsupported_api_version');
      expect(res.headers.get('api-version')).toBe('1');
      expect(body.supported).toEqual(['1', 'v1', '1.0', '1.0.0']);
    }
  });

  test('quotes a hostile pinned version back inert and bounded', async () => {
    const app = await siteApp();
    const res = await app.request('/api/v1', { headers: { 'api-version': `9${'x'.repeat(500)}` } });
    const body = await problem(res, 400, 'unsupported_api_version');
    expect(String(body.detail).length).toBeLessThan(200);
  });

  test('other methods are 405 problems with Allow and code method_not_allowed', async () => {
    const app = await siteApp();
    const res = await app.request('/api/v1', { method: 'POST' });
    await problem(res, 405, 'method_not_allowed');
    expect(res.headers.get('allow')).toContain('GET');
  });
});

describe('GET /api', () => {
  test('redirects permanently to /api/v1 with API-Version and the successor and latest links', async () => {
    const res = await (await siteApp()).request('/api');
    expect(res.status).toBe(308);
    expect(res.headers.get('location')).toBe(`${ORIGIN}/api/v1`);
    expect(res.headers.get('api-version')).toBe('1');
    const links = LinkHeader.parse(res.headers.get('link') ?? '');
    expect(links.get('rel', 'successor-version').map((l) => l.uri)).toEqual([`${ORIGIN}/api/v1`]);
    expect(links.get('rel', 'latest-version').map((l) => l.uri)).toEqual([`${ORIGIN}/api/v1`]);
    expect(res.headers.get('ratelimit')).toBeNull();
  });
});

describe('GET /openapi.json', () => {
  async function document(): Promise<Record<string, any>> {
    const res = await (await siteApp()).request('/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.headers.get('api-version')).toBe('1');
    expect(res.headers.get('ratelimit-policy')).toBe('"default";q=120;w=60');
    return (await res.json()) as Record<string, any>;
  }

  test('is an OpenAPI 3.1 document the schema validator accepts', async () => {
    const validator = new Validator();
    const result = await validator.validate(await document());
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  test('Redocly lint (recommended rules) reports no error', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'charter-site-redocly-'));
    try {
      const file = join(dir, 'openapi.json');
      writeFileSync(file, JSON.stringify(await document()));
      const run = Bun.spawnSync(
        [process.execPath, REDOCLY_CLI, 'lint', file, '--extends=recommended', '--format=json'],
        {
          cwd: dir,
          env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
        },
      );
      const report = JSON.parse(run.stdout.toString()) as {
        totals: { errors: number };
        problems: Array<{ ruleId: string; message: string; severity: string }>;
      };
      expect(
        report.problems.filter((p) => p.severity === 'error').map((p) => `${p.ruleId}: ${p.message}`),
      ).toEqual([]);
      expect(report.totals.errors).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);

  test('carries x-api-lifecycle exactly as the lifecycle table, and the origin as its server', async () => {
    const doc = await document();
    expect(doc.openapi).toBe('3.1.1');
    expect(doc['x-api-lifecycle']).toEqual(JSON.parse(JSON.stringify(lifecycle(ORIGIN))));
    expect(doc['x-api-lifecycle']).toMatchObject({
      current: '1',
      path: '/api/v1',
      header: 'API-Version',
      sunsetNoticeDays: 180,
      signals: { linkRelations: ['deprecation', 'sunset', 'successor-version', 'latest-version'] },
    });
    expect(doc.servers).toEqual([{ url: ORIGIN }]);
  });

  test('declares the optional bearer scheme with scope docs:read on the JSON, Markdown and /mcp routes', async () => {
    const doc = await document();
    expect(doc.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    for (const [path, verb] of [
      ['/mcp', 'post'],
      ['/api/v1', 'get'],
      ['/md/{path}', 'get'],
      ['/llms.txt', 'get'],
    ] as const) {
      expect(doc.paths[path][verb].security).toEqual([{}, { bearer: ['docs:read'] }]);
    }
    expect(doc.paths['/oauth/token'].post.security).toEqual([]);
  });

  test('documents 429 and the RateLimit headers on exactly the limited endpoints', async () => {
    const doc = await document();
    const limited = [
      ['/api/v1', 'get'],
      ['/openapi.json', 'get'],
      ['/.well-known/mcp/server-card.json', 'get'],
      ['/.well-known/oauth-protected-resource/{resource}', 'get'],
      ['/oauth/token', 'post'],
      ['/oauth/authorize', 'get'],
      ['/oauth/introspect', 'post'],
      ['/mcp', 'post'],
      ['/llms.txt', 'get'],
      ['/md/{path}', 'get'],
      ['/docs-md/{path}', 'get'],
    ] as const;
    for (const [path, verb] of limited) {
      const responses = doc.paths[path][verb].responses;
      expect(Object.keys(responses['429'].headers)).toContain('Retry-After');
      // /oauth/authorize has no success response (site.md: it always answers 400).
      const ok = responses['200'] ?? responses['400'];
      expect(Object.keys(ok.headers)).toEqual(
        expect.arrayContaining([
          'RateLimit',
          'RateLimit-Policy',
          'RateLimit-Limit',
          'RateLimit-Remaining',
          'RateLimit-Reset',
          'API-Version',
        ]),
      );
    }
    expect(doc.paths['/api'].get.responses['429']).toBeUndefined();
    expect(doc.paths['/.well-known/api-catalog'].get.responses['429']).toBeUndefined();
  });

  test('every documented operation has an operationId and is not an HTML page', async () => {
    const doc = await document();
    for (const [path, item] of Object.entries(
      doc.paths as Record<string, Record<string, { operationId?: string }>>,
    )) {
      expect(path.startsWith('/assets')).toBe(false);
      for (const operation of Object.values(item)) expect(typeof operation.operationId).toBe('string');
    }
    expect(doc.paths['/']).toBeUndefined();
  });
});

describe('GET /.well-known/api-catalog', () => {
  test('is an RFC 9264 linkset pointing at the OpenAPI document and the tool server', async () => {
    const res = await (await siteApp()).request('/.well-known/api-catalog');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe(
      'application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"',
    );
    expect(res.headers.get('link')).toBe(`<${ORIGIN}/.well-known/api-catalog>; rel="api-catalog"`);
    const body = (await res.json()) as { linkset: Array<Record<string, unknown>> };
    for (const context of body.linkset) {
      expect(typeof context.anchor).toBe('string');
      for (const [relation, targets] of Object.entries(context)) {
        if (relation === 'anchor') continue;
        expect(Array.isArray(targets)).toBe(true);
        for (const target of targets as Array<{ href: unknown }>)
          expect(URL.canParse(String(target.href))).toBe(true);
      }
    }
    const links = body.linkset.flatMap((c) =>
      Object.entries(c).flatMap(([rel, t]) =>
        rel === 'anchor' ? [] : (t as { href: string }[]).map((x) => `${rel} ${x.href}`),
      ),
    );
    expect(links).toContain(`service-desc ${ORIGIN}/openapi.json`);
    expect(links).toContain(`item ${ORIGIN}/mcp`);
    expect(links).toContain(`service-desc ${ORIGIN}/.well-known/mcp/server-card.json`);
  });

  test('HEAD answers with the RFC 9727 Link header and no body', async () => {
    const res = await (await siteApp()).request('/.well-known/api-catalog', { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(res.headers.get('link')).toBe(`<${ORIGIN}/.well-known/api-catalog>; rel="api-catalog"`);
    expect(await res.text()).toBe('');
  });
});

describe('problem documents', () => {
  test('an unknown JSON path is a 404 problem with code not_found and a hint', async () => {
    const res = await (await siteApp()).request('/api/v2', { headers: { accept: 'application/json' } });
    await problem(res, 404, 'not_found');
  });

  test('an unknown path asked for as HTML gets the HTML not-found page under the page CSP', async () => {
    const res = await (await siteApp()).request('/nowhere', { headers: { accept: 'text/html,*/*;q=0.8' } });
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('content-security-policy')).toContain("style-src 'self'");
    expect(await res.text()).toContain('<html');
  });

  test('an unknown .md path gets the Markdown not-found body with recovery links', async () => {
    const res = await (await siteApp()).request('/nowhere.md');
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    const text = await res.text();
    for (const entry of ['/llms.txt', '/md/index', '/api/v1']) expect(text).toContain(entry);
  });

  test('an unknown .md path near a page names that page first among the closest pages', async () => {
    const res = await (await siteApp()).request('/docs/rout-and-hooks.md');
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(res.headers.get('vary')).toBe('Accept');
    const text = await res.text();
    const closest = text.slice(text.indexOf('## Closest pages'));
    expect(closest.split('\n').filter((line) => line.startsWith('- ['))).toHaveLength(5);
    expect(closest.split('\n')[2]).toMatch(
      /^- \[[^\]]+\]\(http:\/\/localhost:3000\/md\/docs\/routes-and-hooks\)/,
    );
  });

  test('a hostile 2 000-character .md path is answered like its first characters, quoted back cut', async () => {
    const app = await siteApp();
    const tail = 'routes-and-hooks-'.repeat(120).slice(0, 2000);
    const res = await app.request(`/docs/${tail}.md`);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    const text = await res.text();
    // The request is quoted back cut (with an ellipsis); the suggestions are those of its start.
    expect(text).toContain('…');
    expect(text.length).toBeLessThan(3000);
    const closest = (body: string) => body.slice(body.indexOf('## Closest pages'));
    const short = await (await app.request(`/docs/${tail.slice(0, 60)}.md`)).text();
    expect(closest(text)).toBe(closest(short));
  });
});

describe('rate limits', () => {
  test('the quota is shared by the limited endpoints; past it, 429 with Retry-After and remaining 0', async () => {
    const app = await siteApp({ rateLimit: { max: 3, windowMs: 60_000 } });
    expect((await app.request('/api/v1')).status).toBe(200);
    expect((await app.request('/llms.txt')).status).toBe(200);
    const third = await app.request('/openapi.json');
    expect(rateLimitOf(third).remaining).toBe(0);
    const limited = await app.request('/md/index');
    const body = await problem(limited, 429, 'rate_limited');
    expect(body.type).toBe('https://charter.dev/errors/too-many-requests');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited.headers.get('ratelimit-remaining')).toBe('0');
    expect(rateLimitOf(limited).remaining).toBe(0);
    expect(limited.headers.get('api-version')).toBe('1');
  });

  test('unlimited endpoints keep answering when the quota is spent', async () => {
    const app = await siteApp({ rateLimit: { max: 1, windowMs: 60_000 } });
    await app.request('/api/v1');
    expect((await app.request('/api/v1')).status).toBe(429);
    expect((await app.request('/api')).status).toBe(308);
    expect((await app.request('/.well-known/api-catalog')).status).toBe(200);
    expect((await app.request('/.well-known/oauth-authorization-server')).status).toBe(200);
  });
});

describe('the real server, through the network', () => {
  let site: RunningSite;
  beforeAll(async () => {
    site = await startSite();
  });
  afterAll(() => site.stop());

  test('the 121st request in a window is refused with 429, and the fields count down to it', async () => {
    let last: Response | undefined;
    for (let i = 1; i <= 120; i++) {
      last = await fetch(`${site.origin}/api/v1`);
      expect(last.status).toBe(200);
      await last.arrayBuffer();
    }
    expect(rateLimitOf(last as Response).remaining).toBe(0);
    const refused = await fetch(`${site.origin}/llms.txt`);
    await problem(refused, 429, 'rate_limited');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.headers.get('ratelimit-remaining')).toBe('0');
  });
});

describe('the deprecated /docs-md surface', () => {
  test('sends an RFC 9745 Deprecation date an RFC 9651 parser reads, no Sunset, and the three relations', async () => {
    const app = await siteApp();
    for (const path of ['/docs-md/routes-and-hooks', '/docs-md/no-such-page']) {
      const res = await app.request(path);
      expect(res.status).toBe(path.endsWith('no-such-page') ? 404 : 200);
      expect(res.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
      const [date] = parseItem(res.headers.get('deprecation') ?? '');
      expect(date).toBeInstanceOf(Date);
      expect((date as Date).toISOString()).toBe('2026-06-01T00:00:00.000Z');
      expect(res.headers.get('sunset')).toBeNull();
      const links = LinkHeader.parse(res.headers.get('link') ?? '');
      for (const rel of ['deprecation', 'successor-version', 'latest-version'])
        expect(links.has('rel', rel)).toBe(true);
    }
  });
});

describe('cross-origin reads', () => {
  test('public GET documents may be read by a script on any origin, with the useful headers exposed', async () => {
    const app = await siteApp();
    for (const path of ['/api/v1', '/openapi.json', '/.well-known/api-catalog', '/llms.txt', '/md/index']) {
      const res = await app.request(path, { headers: { origin: 'https://agent.example' } });
      expect(res.status).toBe(200);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(res.headers.get('access-control-allow-credentials')).toBeNull();
      expect(res.headers.get('access-control-expose-headers')).toContain('ratelimit-remaining');
    }
  });

  test('a preflight asking to send a token or a pinned version is allowed on the public documents', async () => {
    const app = await siteApp();
    for (const path of ['/api/v1', '/md/docs/jwt', '/llms.txt', '/openapi.json']) {
      const res = await app.request(path, {
        method: 'OPTIONS',
        headers: {
          origin: 'https://agent.example',
          'access-control-request-method': 'GET',
          'access-control-request-headers': 'authorization, api-version',
        },
      });
      expect(res.status).toBe(204);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(res.headers.get('access-control-allow-methods')).toContain('GET');
      expect(res.headers.get('access-control-allow-headers')).toContain('authorization');
      expect(res.headers.get('access-control-allow-headers')).toContain('api-version');
    }
  });

  test('a preflight for the token endpoint, or for a method the documents do not allow, is not granted', async () => {
    const app = await siteApp();
    const token = await app.request('/oauth/token', {
      method: 'OPTIONS',
      headers: { origin: 'https://agent.example', 'access-control-request-method': 'POST' },
    });
    expect(token.headers.get('access-control-allow-origin')).toBeNull();
    const put = await app.request('/api/v1', {
      method: 'OPTIONS',
      headers: { origin: 'https://agent.example', 'access-control-request-method': 'PUT' },
    });
    expect(put.headers.get('access-control-allow-methods') ?? '').not.toContain('PUT');
  });

  test('the token endpoint and the tool server are not opened to other origins', async () => {
    const app = await siteApp();
    const token = await app.request('/oauth/token', {
      method: 'POST',
      headers: { origin: 'https://agent.example', 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials',
    });
    expect(token.status).toBe(403);
    expect(token.headers.get('access-control-allow-origin')).toBeNull();
    const mcp = await app.request('/mcp', {
      method: 'POST',
      headers: { origin: 'https://agent.example', 'content-type': 'application/json' },
      body: '{"jsonrpc":"2.0","id":1,"method":"ping"}',
    });
    expect(mcp.status).toBe(403);
    expect(mcp.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('review: the answers no handler writes', () => {
  test('unknown machine paths are problem documents whatever the Accept, with API-Version under /api', async () => {
    const app = await siteApp();
    for (const accept of ['*/*', 'application/json, */*;q=0.8', 'text/html']) {
      const res = await app.request('/api/v2', { headers: { accept } });
      await problem(res, 404, 'not_found');
      expect(res.headers.get('api-version')).toBe('1');
    }
    const wellKnown = await app.request('/.well-known/nothing', { headers: { accept: 'text/html' } });
    await problem(wellKnown, 404, 'not_found');
  });

  test('an unknown page for a client that does not name text/html is a problem, not the HTML page', async () => {
    await problem(
      await (await siteApp()).request('/nowhere', { headers: { accept: '*/*' } }),
      404,
      'not_found',
    );
  });

  test('another method on /api/v1 is a 405 that still echoes API-Version', async () => {
    const res = await (await siteApp()).request('/api/v1', { method: 'DELETE' });
    await problem(res, 405, 'method_not_allowed');
    expect(res.headers.get('api-version')).toBe('1');
  });

  test('GET /mcp and DELETE /mcp are 405s naming POST and OPTIONS, as OPTIONS does (issue 19)', async () => {
    const app = await siteApp();
    const get = await app.request('/mcp', { headers: { accept: 'application/json, text/event-stream' } });
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST, OPTIONS');
    expect(get.headers.get('content-type')).toBe('application/problem+json');
    expect(await get.json()).toMatchObject({ status: 405, transport: 'streamable-http' });
    const del = await app.request('/mcp', { method: 'DELETE' });
    expect(del.status).toBe(405);
    expect(del.headers.get('content-type')).toBe('application/problem+json');
    expect(del.headers.get('allow')).toBe('POST, OPTIONS');
    expect(await del.json()).toMatchObject({
      status: 405,
      detail: 'DELETE is not supported here: send JSON-RPC requests with POST',
    });
    const options = await app.request('/mcp', { method: 'OPTIONS' });
    expect(options.status).toBe(204);
    expect(options.headers.get('allow')).toBe('POST, OPTIONS');
  });

  test('the /docs-md refusals carry Deprecation and the Link relations too (site.md rule 4)', async () => {
    const app = await siteApp({ rateLimit: { max: 1, windowMs: 60_000 } });
    const denied = await app.request('/docs-md/jwt', { headers: { authorization: 'Bearer forged' } });
    await problem(denied, 401, 'invalid_token');
    const limited = await app.request('/docs-md/jwt');
    await problem(limited, 429, 'rate_limited');
    for (const res of [denied, limited]) {
      expect(parseItem(res.headers.get('deprecation') ?? '')[0]).toBeInstanceOf(Date);
      const links = LinkHeader.parse(res.headers.get('link') ?? '');
      for (const rel of ['deprecation', 'successor-version', 'latest-version'])
        expect(links.has('rel', rel)).toBe(true);
    }
  });

  test('a bad token on the .md and Accept forms of a page is refused as on /md', async () => {
    const app = await siteApp();
    const headers = { authorization: 'Bearer forged' };
    await problem(await app.request('/docs/jwt.md', { headers }), 401, 'invalid_token');
    await problem(
      await app.request('/docs/jwt', { headers: { ...headers, accept: 'text/markdown' } }),
      401,
      'invalid_token',
    );
    expect((await app.request('/docs/jwt.md')).status).toBe(200);
  });

  test('the OpenAPI document describes problems with code and hint, and the counters as integers', async () => {
    const doc = (await (await (await siteApp()).request('/openapi.json')).json()) as Record<string, any>;
    const schema = doc.components.schemas.ProblemDetails;
    expect(schema.required).toEqual(expect.arrayContaining(['code', 'hint', 'status', 'title', 'type']));
    const limited = doc.paths['/api/v1'].get.responses['429'];
    const resolve = (schema: { $ref?: string }) =>
      schema.$ref === undefined ? schema : doc.components.schemas[schema.$ref.split('/').pop() as string];
    expect(resolve(limited.headers['Retry-After'].schema)).toMatchObject({ type: 'integer' });
    expect(resolve(limited.headers['RateLimit-Remaining'].schema)).toMatchObject({ type: 'integer' });
    expect(resolve(limited.headers.RateLimit.schema)).toMatchObject({ type: 'string' });
    expect(Object.keys(doc.components.schemas).filter((name) => name.includes('RateLimit'))).toEqual([]);
  });

  test('the server card names the site icon', async () => {
    const card = (await (await (await siteApp()).request('/.well-known/mcp/server-card.json')).json()) as {
      iconUrl: string;
    };
    expect(card.iconUrl).toMatch(/^http:\/\/localhost:3000\/assets\/favicon\.[0-9a-f]{8}\.svg$/);
  });
});
