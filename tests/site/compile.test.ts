/**
 * `bun run site:compile` builds one executable with the content built and embedded. The test builds
 * it, starts it from an empty directory elsewhere (so nothing can be read from the checkout), and
 * fetches a page, a Markdown page, `/llms.txt` and `/mcp` from it, checks that pages, Markdown, the
 * not-found answers and the machine documents are the very bytes the site built from source
 * answers; then stops it with SIGTERM and expects a clean exit.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSite } from '../../site/app.ts';
import { buildContent } from '../../site/content/build.ts';
import { readContentDir } from '../../site/content/read-dir.ts';

const ROOT = join(import.meta.dir, '..', '..');

let dir: string;
let binary: string;
let child: ReturnType<typeof Bun.spawn> | undefined;
let origin: string;

function freePort(): number {
  const probe = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response(null) });
  const port = probe.port as number;
  probe.stop(true);
  return port;
}

/** Reads the child's stdout until a line contains `needle`, or fails after `ms`. */
async function waitForLine(stream: ReadableStream<Uint8Array>, needle: string, ms: number): Promise<string> {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let seen = '';
  const deadline = Date.now() + ms;
  try {
    while (Date.now() < deadline) {
      const chunk = await Promise.race([
        reader.read(),
        new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), deadline - Date.now())),
      ]);
      if (chunk === undefined || chunk.done) break;
      seen += decoder.decode(chunk.value, { stream: true });
      const line = seen.split('\n').find((l) => l.includes(needle));
      if (line !== undefined) return line;
    }
  } finally {
    reader.releaseLock();
  }
  throw new Error(`the site did not log "${needle}" within ${ms} ms; it printed:\n${seen}`);
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'charter-site-bin-'));
  binary = join(dir, 'charter-site');
  const build = Bun.spawnSync([process.execPath, 'run', 'scripts/site-compile.ts', binary], { cwd: ROOT });
  if (build.exitCode !== 0) throw new Error(`site:compile failed:\n${build.stderr.toString()}`);
  const port = freePort();
  origin = `http://127.0.0.1:${port}`;
  const runDir = mkdtempSync(join(tmpdir(), 'charter-site-run-'));
  child = Bun.spawn([binary], {
    cwd: runDir,
    env: { PATH: process.env.PATH ?? '', PORT: String(port), SITE_ORIGIN: origin, HOST: '127.0.0.1' },
    stdout: 'pipe',
    stderr: 'pipe',
  });
  await waitForLine(child.stdout as ReadableStream<Uint8Array>, 'listening', 20_000);
}, 120_000);

afterAll(() => {
  child?.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

describe('the compiled site', () => {
  test('is one executable file', () => {
    const stat = statSync(binary);
    expect(stat.isFile()).toBe(true);
    expect(stat.mode & 0o111).not.toBe(0);
  });

  test('serves an HTML page from the embedded content', async () => {
    const res = await fetch(`${origin}/docs/routes-and-hooks`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = await res.text();
    expect(html).toContain('<link rel="alternate" type="text/markdown"');
    const css = html.match(/href="(\/assets\/site\.[0-9a-f]+\.css)"/)?.[1];
    expect(css).toBeDefined();
    const style = await fetch(origin + css);
    expect(style.status).toBe(200);
    expect(style.headers.get('content-type')).toContain('text/css');
  });

  test('serves a Markdown page and /llms.txt', async () => {
    const md = await fetch(`${origin}/md/docs/routes-and-hooks`);
    expect(md.status).toBe(200);
    expect(md.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(await md.text()).toStartWith('# ');
    const llms = await fetch(`${origin}/llms.txt`);
    expect(llms.status).toBe(200);
    const text = await llms.text();
    expect(text).toStartWith('# Charter');
    expect(text).toContain(`${origin}/docs/routes-and-hooks.md`);
  });

  test('serves the docs tool server at /mcp', async () => {
    const res = await fetch(`${origin}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-06-18',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { result: { tools: { name: string }[] } };
    expect(body.result.tools.map((t) => t.name).sort()).toEqual(['get_doc', 'list_docs', 'search_docs']);
  });

  test('issues a token, accepts it on a page and refuses a forged one (the JWT code loads on first use)', async () => {
    const issued = await fetch(`${origin}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials&scope=docs%3Aread',
    });
    expect(issued.status).toBe(200);
    const { access_token: token } = (await issued.json()) as { access_token: string };
    expect(token.split('.')).toHaveLength(3);
    const accepted = await fetch(`${origin}/changelog.md`, { headers: { authorization: `Bearer ${token}` } });
    expect(accepted.status).toBe(200);
    expect(accepted.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    const forged = `${token.slice(0, token.lastIndexOf('.'))}.${'A'.repeat(43)}`;
    const refused = await fetch(`${origin}/changelog.md`, { headers: { authorization: `Bearer ${forged}` } });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toContain('error="invalid_token"');
    expect(refused.headers.get('content-type')).toBe('application/problem+json');
  });

  test('answers as the site built from source does', async () => {
    const source = createSite({
      origin,
      content: buildContent(await readContentDir(join(ROOT, 'content'))),
      tokenKey: crypto.getRandomValues(new Uint8Array(32)),
      logger: false,
    });
    const paths = [
      '/',
      '/changelog',
      '/docs',
      '/search?q=route',
      '/docs/routes-and-hooks',
      '/docs/routes-and-hooks.md',
      '/md/docs/jwt',
      '/docs-md/jwt',
      '/llms.txt',
      '/errors/not-found',
      '/docs/nope',
      '/nope.md',
      '/openapi.json',
      '/api/v1',
      '/.well-known/api-catalog',
      '/.well-known/mcp/server-card.json',
    ];
    for (const path of paths) {
      for (const accept of ['text/html', 'text/markdown', '*/*']) {
        const init = { headers: { accept } };
        const [binary, built] = await Promise.all([fetch(origin + path, init), source.request(path, init)]);
        const label = `${path} (Accept: ${accept})`;
        expect([
          label,
          binary.status,
          binary.headers.get('content-type'),
          binary.headers.get('etag'),
        ]).toEqual([label, built.status, built.headers.get('content-type'), built.headers.get('etag')]);
        expect(await binary.text()).toBe(await built.text());
      }
    }
  });

  test('stops gracefully on SIGTERM', async () => {
    child?.kill('SIGTERM');
    expect(await child?.exited).toBe(0);
  });
});
