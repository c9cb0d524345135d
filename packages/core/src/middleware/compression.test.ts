import { describe, expect, test } from 'bun:test';
import { type } from 'arktype';
import fc from 'fast-check';
import { App } from '../app/index.ts';
import {
  type ContentCoding,
  compression,
  isCompressibleMediaType,
  negotiateContentCoding,
  resolveCompressionOptions,
  supportedContentCodings,
} from './compression.ts';

const TEXT = 'The quick brown fox jumps over the lazy dog. '.repeat(100);
const Body = type({ text: 'string' });

function buildApp(hooks = compression()): App {
  const app = new App({ logger: false });
  app.use(hooks);
  app.get('/big', { responses: { 200: { body: Body } } }, () => ({
    status: 200 as const,
    body: { text: TEXT },
  }));
  app.get('/small', { responses: { 200: { body: Body } } }, () => ({
    status: 200 as const,
    body: { text: 'hi' },
  }));
  return app;
}

function raw(body: BodyInit | null, init: ResponseInit): () => Response {
  return () => new Response(body, init);
}

async function decode(res: Response, coding: string): Promise<string> {
  const format = coding === 'br' ? 'brotli' : coding;
  const stream = (res.body as ReadableStream<Uint8Array>).pipeThrough(
    new DecompressionStream(format as CompressionFormat) as unknown as ReadableWritablePair<
      Uint8Array,
      Uint8Array
    >,
  );
  return new Response(stream).text();
}

describe('compression: negotiation', () => {
  test('Bun offers zstd, br, gzip and deflate', () => {
    expect(supportedContentCodings()).toEqual(['zstd', 'br', 'gzip', 'deflate']);
  });

  test('compresses with gzip when only gzip is accepted, and the bytes decode to the original body', async () => {
    const res = await buildApp().request('/big', { headers: { 'accept-encoding': 'gzip' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect(res.headers.get('content-length')).toBeNull();
    expect(res.headers.get('vary')).toBe('Accept-Encoding');
    expect(res.headers.get('content-type')).toBe('application/json');
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect(bytes.byteLength).toBeLessThan(TEXT.length);
    expect(JSON.parse(new TextDecoder().decode(Bun.gunzipSync(bytes)))).toEqual({ text: TEXT });
  });

  test('prefers zstd, then br, then gzip when the client weighs them equally', async () => {
    const app = buildApp();
    const zstd = await app.request('/big', { headers: { 'accept-encoding': 'gzip, deflate, br, zstd' } });
    expect(zstd.headers.get('content-encoding')).toBe('zstd');
    const bytes = new Uint8Array(await zstd.arrayBuffer());
    expect(JSON.parse(new TextDecoder().decode(Bun.zstdDecompressSync(bytes)))).toEqual({ text: TEXT });
    const br = await app.request('/big', { headers: { 'accept-encoding': 'gzip, br' } });
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(JSON.parse(await decode(br, 'br'))).toEqual({ text: TEXT });
  });

  test('follows the client q-values over the server order', async () => {
    const res = await buildApp().request('/big', {
      headers: { 'accept-encoding': 'zstd;q=0.2, gzip;q=0.9' },
    });
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect(JSON.parse(await decode(res, 'gzip'))).toEqual({ text: TEXT });
  });

  test('uses the configured order and codings', async () => {
    const app = buildApp(compression({ encodings: ['deflate', 'gzip'] }));
    const res = await app.request('/big', { headers: { 'accept-encoding': 'zstd, br, gzip, deflate' } });
    expect(res.headers.get('content-encoding')).toBe('deflate');
    expect(JSON.parse(await decode(res, 'deflate'))).toEqual({ text: TEXT });
  });

  test('sends identity, with Vary, when the client accepts no offered coding', async () => {
    const app = buildApp();
    for (const header of ['identity', 'gzip;q=0, br;q=0, zstd;q=0', 'compress', '']) {
      const res = await app.request('/big', { headers: { 'accept-encoding': header } });
      expect(res.headers.get('content-encoding')).toBeNull();
      expect(res.headers.get('vary')).toBe('Accept-Encoding');
      expect(await res.json()).toEqual({ text: TEXT });
    }
  });

  test('sends identity, with Vary, when the request has no Accept-Encoding', async () => {
    const res = await buildApp().request('/big');
    expect(res.headers.get('content-encoding')).toBeNull();
    expect(res.headers.get('vary')).toBe('Accept-Encoding');
    expect(await res.json()).toEqual({ text: TEXT });
  });

  test('negotiateContentCoding applies *, identity and q=0 as RFC 9110 §12.5.3 says', () => {
    const offered: ContentCoding[] = ['zstd', 'br', 'gzip'];
    expect(negotiateContentCoding('*', offered)).toBe('zstd');
    expect(negotiateContentCoding('*, zstd;q=0', offered)).toBe('br');
    expect(negotiateContentCoding('x-gzip', offered)).toBe('gzip');
    expect(negotiateContentCoding('GZIP;Q=0.5', offered)).toBe('gzip');
    expect(negotiateContentCoding('gzip;q=0.5, identity', offered)).toBeUndefined();
    expect(negotiateContentCoding('gzip;q=0.5, identity;q=0.5', offered)).toBe('gzip');
    expect(negotiateContentCoding('gzip;q=2', offered)).toBeUndefined();
    expect(negotiateContentCoding('gzip;q=0.1234', offered)).toBeUndefined();
    expect(negotiateContentCoding(null, offered)).toBeUndefined();
    expect(negotiateContentCoding('gzip', [])).toBeUndefined();
  });

  test('never picks a coding the client refused or the server does not offer (property)', () => {
    const coding = fc.constantFrom('zstd', 'br', 'gzip', 'deflate', 'identity', '*', 'compress', 'x-gzip');
    const q = fc.constantFrom('', ';q=0', ';q=0.5', ';q=1', ';q=0.001', ';q=1.000', ';q=bad');
    const header = fc.array(fc.tuple(coding, q), { maxLength: 6 });
    fc.assert(
      fc.property(
        header,
        fc.subarray(['zstd', 'br', 'gzip', 'deflate'] as ContentCoding[]),
        (pairs, offered) => {
          const text = pairs.map(([c, w]) => c + w).join(', ');
          const chosen = negotiateContentCoding(text, offered);
          if (chosen === undefined) return;
          expect(offered).toContain(chosen);
          const own = pairs.find(([c]) => c === chosen || (chosen === 'gzip' && c === 'x-gzip'));
          if (own !== undefined) expect(own[1]).not.toBe(';q=0');
          else expect(pairs.some(([c, w]) => c === '*' && w !== ';q=0' && w !== ';q=bad')).toBe(true);
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('compression: what is skipped', () => {
  test('leaves a body below the threshold alone but still sets Vary', async () => {
    const res = await buildApp().request('/small', { headers: { 'accept-encoding': 'gzip' } });
    expect(res.headers.get('content-encoding')).toBeNull();
    expect(res.headers.get('vary')).toBe('Accept-Encoding');
    expect(await res.json()).toEqual({ text: 'hi' });
  });

  test('uses Content-Length to judge the threshold when the response has one', async () => {
    const app = new App({ logger: false });
    app.use(compression({ threshold: 100 }));
    const ok = { acknowledgeNoResponseBodySchema: true, responses: { 200: { description: 'text' } } };
    app.get(
      '/short',
      ok,
      raw('a'.repeat(99), { headers: { 'content-type': 'text/plain', 'content-length': '99' } }),
    );
    app.get(
      '/long',
      ok,
      raw('a'.repeat(100), { headers: { 'content-type': 'text/plain', 'content-length': '100' } }),
    );
    const short = await app.request('/short', { headers: { 'accept-encoding': 'gzip' } });
    expect(short.headers.get('content-encoding')).toBeNull();
    expect(await short.text()).toBe('a'.repeat(99));
    const long = await app.request('/long', { headers: { 'accept-encoding': 'gzip' } });
    expect(long.headers.get('content-encoding')).toBe('gzip');
    expect(long.headers.get('content-length')).toBeNull();
    expect(await decode(long, 'gzip')).toBe('a'.repeat(100));
  });

  test('compresses a stream of unknown size that reaches the threshold, chunk boundaries and all', async () => {
    const app = new App({ logger: false });
    app.use(compression({ threshold: 1024 }));
    const chunks = Array.from({ length: 50 }, (_, i) => `chunk ${i} `.repeat(10));
    app.get(
      '/stream',
      { acknowledgeNoResponseBodySchema: true, responses: { 200: { description: 's' } } },
      () => {
        const stream = new ReadableStream<Uint8Array>({
          start(controller) {
            for (const chunk of chunks) controller.enqueue(new TextEncoder().encode(chunk));
            controller.close();
          },
        });
        return new Response(stream, { headers: { 'content-type': 'text/plain; charset=utf-8' } });
      },
    );
    const res = await app.request('/stream', { headers: { 'accept-encoding': 'gzip' } });
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect(await decode(res, 'gzip')).toBe(chunks.join(''));
  });

  test('leaves a response that already has a Content-Encoding untouched, Vary included', async () => {
    const app = new App({ logger: false });
    app.use(compression({ threshold: 0 }));
    const gz = Bun.gzipSync(new TextEncoder().encode(TEXT));
    app.get(
      '/pre',
      { acknowledgeNoResponseBodySchema: true, responses: { 200: { description: 'gz' } } },
      raw(gz, { headers: { 'content-type': 'text/plain', 'content-encoding': 'gzip' } }),
    );
    const res = await app.request('/pre', { headers: { 'accept-encoding': 'zstd, gzip' } });
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect(res.headers.get('vary')).toBeNull();
    expect(new TextDecoder().decode(Bun.gunzipSync(new Uint8Array(await res.arrayBuffer())))).toBe(TEXT);
  });

  test('respects Cache-Control: no-transform', async () => {
    const app = new App({ logger: false });
    app.use(compression({ threshold: 0 }));
    app.get(
      '/nt',
      { acknowledgeNoResponseBodySchema: true, responses: { 200: { description: 'nt' } } },
      raw(TEXT, { headers: { 'content-type': 'text/plain', 'cache-control': 'public, No-Transform' } }),
    );
    const res = await app.request('/nt', { headers: { 'accept-encoding': 'gzip' } });
    expect(res.headers.get('content-encoding')).toBeNull();
    expect(await res.text()).toBe(TEXT);
  });

  test('compresses text, JSON, XML and SVG but not images, archives, fonts, PDF or event streams', async () => {
    const app = new App({ logger: false });
    app.use(compression({ threshold: 0 }));
    const types = [
      ['text/html; charset=utf-8', true],
      ['application/problem+json', true],
      ['application/atom+xml', true],
      ['image/svg+xml', true],
      ['application/javascript', true],
      ['image/png', false],
      ['video/mp4', false],
      ['application/zip', false],
      ['application/gzip', false],
      ['font/woff2', false],
      ['application/pdf', false],
      ['text/event-stream', false],
      ['application/octet-stream', false],
    ] as const;
    types.forEach(([contentType], i) => {
      app.get(
        `/t${i}`,
        { acknowledgeNoResponseBodySchema: true, responses: { 200: { description: contentType } } },
        raw(TEXT, { headers: { 'content-type': contentType } }),
      );
    });
    for (const [i, [contentType, compressed]] of types.entries()) {
      const res = await app.request(`/t${i}`, { headers: { 'accept-encoding': 'gzip' } });
      expect([contentType, res.headers.get('content-encoding')]).toEqual([
        contentType,
        compressed ? 'gzip' : null,
      ]);
      expect(compressed ? await decode(res, 'gzip') : await res.text()).toBe(TEXT);
    }
    expect(isCompressibleMediaType('text/csv')).toBe(true);
    expect(isCompressibleMediaType('audio/mpeg')).toBe(false);
  });

  test('leaves a response without a Content-Type alone', async () => {
    const app = new App({ logger: false });
    app.use(compression({ threshold: 0 }));
    app.get(
      '/untyped',
      { acknowledgeNoResponseBodySchema: true, responses: { 200: { description: 'bytes' } } },
      raw(new TextEncoder().encode(TEXT), {}),
    );
    const res = await app.request('/untyped', { headers: { 'accept-encoding': 'gzip' } });
    expect(res.headers.get('content-encoding')).toBeNull();
    expect(await res.text()).toBe(TEXT);
  });

  test('skips 204 and 206 responses', async () => {
    const app = new App({ logger: false });
    app.use(compression({ threshold: 0 }));
    app.delete('/thing', { responses: { 204: { description: 'gone' } } }, () => ({ status: 204 as const }));
    app.get(
      '/part',
      { acknowledgeNoResponseBodySchema: true, responses: { 206: { description: 'range' } } },
      raw(TEXT.slice(0, 2000), {
        status: 206,
        headers: { 'content-type': 'text/plain', 'content-range': `bytes 0-1999/${TEXT.length}` },
      }),
    );
    const gone = await app.request('/thing', { method: 'DELETE', headers: { 'accept-encoding': 'gzip' } });
    expect(gone.status).toBe(204);
    expect(gone.headers.get('content-encoding')).toBeNull();
    const part = await app.request('/part', { headers: { 'accept-encoding': 'gzip' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-encoding')).toBeNull();
    expect(await part.text()).toBe(TEXT.slice(0, 2000));
  });

  test('answers HEAD with the header fields GET would get, and no body', async () => {
    const app = buildApp();
    const res = await app.request('/big', { method: 'HEAD', headers: { 'accept-encoding': 'gzip' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect(res.headers.get('vary')).toBe('Accept-Encoding');
    expect(await res.text()).toBe('');
  });

  test('does not compress unmatched 404 problem documents (no context to negotiate with)', async () => {
    const app = new App({ logger: false, hooks: compression({ threshold: 0 }) });
    app.get('/x', { responses: { 200: { body: Body } } }, () => ({
      status: 200 as const,
      body: { text: TEXT },
    }));
    const res = await app.request('/missing', { headers: { 'accept-encoding': 'gzip' } });
    expect(res.status).toBe(404);
    expect(res.headers.get('content-encoding')).toBeNull();
    expect(((await res.json()) as { type: string }).type).toBe('https://charter.dev/errors/not-found');
    const ok = await app.request('/x', { headers: { 'accept-encoding': 'gzip' } });
    expect(ok.headers.get('content-encoding')).toBe('gzip');
  });
});

describe('compression: headers', () => {
  test('weakens a strong ETag and keeps a weak one', async () => {
    const app = new App({ logger: false });
    app.use(compression({ threshold: 0 }));
    const ok = { acknowledgeNoResponseBodySchema: true, responses: { 200: { description: 'x' } } };
    app.get('/strong', ok, raw(TEXT, { headers: { 'content-type': 'text/plain', etag: '"abc"' } }));
    app.get('/weak', ok, raw(TEXT, { headers: { 'content-type': 'text/plain', etag: 'W/"abc"' } }));
    const strong = await app.request('/strong', { headers: { 'accept-encoding': 'gzip' } });
    expect(strong.headers.get('etag')).toBe('W/"abc"');
    const weak = await app.request('/weak', { headers: { 'accept-encoding': 'gzip' } });
    expect(weak.headers.get('etag')).toBe('W/"abc"');
    const identity = await app.request('/strong');
    expect(identity.headers.get('etag')).toBe('"abc"');
  });

  test('adds to an existing Vary without repeating it, and leaves Vary: * alone', async () => {
    const app = new App({ logger: false });
    app.use(compression({ threshold: 0 }));
    const ok = { acknowledgeNoResponseBodySchema: true, responses: { 200: { description: 'x' } } };
    app.get('/origin', ok, raw(TEXT, { headers: { 'content-type': 'text/plain', vary: 'Origin' } }));
    app.get(
      '/already',
      ok,
      raw(TEXT, { headers: { 'content-type': 'text/plain', vary: 'accept-encoding' } }),
    );
    app.get('/star', ok, raw(TEXT, { headers: { 'content-type': 'text/plain', vary: '*' } }));
    expect(
      (await app.request('/origin', { headers: { 'accept-encoding': 'gzip' } })).headers.get('vary'),
    ).toBe('Origin, Accept-Encoding');
    expect((await app.request('/already')).headers.get('vary')).toBe('accept-encoding');
    expect((await app.request('/star', { headers: { 'accept-encoding': 'gzip' } })).headers.get('vary')).toBe(
      '*',
    );
  });

  test('compresses the response of a route that reads a request body', async () => {
    const app = buildApp();
    app.post('/echo', { request: { body: Body }, responses: { 200: { body: Body } } }, (ctx) => ({
      status: 200 as const,
      body: { text: ctx.body.text.repeat(3) },
    }));
    const res = await app.request('/echo', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'accept-encoding': 'gzip' },
      body: JSON.stringify({ text: TEXT }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect(JSON.parse(await decode(res, 'gzip'))).toEqual({ text: TEXT.repeat(3) });
  });

  test('works as group hooks and as route hooks, and not outside them', async () => {
    const app = new App({ logger: false });
    const route = { responses: { 200: { body: Body } } };
    const handler = () => ({ status: 200 as const, body: { text: TEXT } });
    app.group('/g', { hooks: compression() }, (g) => g.get('/big', route, handler));
    app.get('/r', { ...route, hooks: compression() }, handler);
    app.get('/plain', route, handler);
    const headers = { 'accept-encoding': 'gzip' };
    expect((await app.request('/g/big', { headers })).headers.get('content-encoding')).toBe('gzip');
    expect((await app.request('/r', { headers })).headers.get('content-encoding')).toBe('gzip');
    const plain = await app.request('/plain', { headers });
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(plain.headers.get('vary')).toBeNull();
  });
});

describe('resolveCompressionOptions', () => {
  test('fills the defaults', () => {
    const resolved = resolveCompressionOptions();
    expect(resolved.encodings).toEqual(['zstd', 'br', 'gzip']);
    expect(resolved.threshold).toBe(1024);
    expect(resolved.filter).toBe(isCompressibleMediaType);
  });

  test('refuses bad options, naming the option', () => {
    expect(() => resolveCompressionOptions({ encodings: [] })).toThrow(/encodings/);
    expect(() => resolveCompressionOptions({ encodings: ['lzma' as ContentCoding] })).toThrow(TypeError);
    expect(() => resolveCompressionOptions({ encodings: ['gzip', 'gzip'] })).toThrow(/twice/);
    expect(() => resolveCompressionOptions({ threshold: -1 })).toThrow(RangeError);
    expect(() => resolveCompressionOptions({ threshold: 1.5 })).toThrow(/threshold/);
    expect(() => resolveCompressionOptions({ filter: 'text' as never })).toThrow(/filter/);
  });
});
