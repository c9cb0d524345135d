import { describe, expect, test } from 'bun:test';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  assetUrlOrigin,
  DEFAULT_DOCS_ASSETS,
  DOCS_ASSET_SOURCES,
  docsAssetCdnUrl,
  hashSourceProblem,
  resolveCrossOrigin,
  resolveDocsAsset,
  resolveDocsAssets,
} from './assets.ts';

const ROOT = join(import.meta.dir, '..', '..', '..');
const SHA384_OF_EMPTY = 'sha384-OLBgp1GsljhM2TJ+sbHjaiH9txEUvgdDTAzHv2P24donTt6/529l+9Ua0vFImLlb';
const SHA256_OF_EMPTY = 'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=';
const SHA512_OF_EMPTY =
  'sha512-z4PhNX7vuL3xVChQ1m2AB9Yg5AULVxXcg/SpIdNs6c5H0NE8XYXysP+DGNKHfuwvY7kxvUdBeoGlODJ6+SfaPg==';

function packageJson(path: string): Record<string, unknown> {
  return JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
}

describe('DOCS_ASSET_SOURCES', () => {
  test('lists the five assets: Swagger UI script group of two, its stylesheet, Redoc and Scalar', () => {
    expect(DOCS_ASSET_SOURCES.map((s) => `${s.packageName}/${s.file}`)).toEqual([
      'swagger-ui-dist/swagger-ui-bundle.js',
      'swagger-ui-dist/swagger-ui-standalone-preset.js',
      'swagger-ui-dist/swagger-ui.css',
      'redoc/bundles/redoc.standalone.js',
      '@scalar/api-reference/dist/browser/standalone.js',
    ]);
  });

  test('pins each asset to the exact devDependency version of the repository', () => {
    const dev = packageJson(join(ROOT, 'package.json')).devDependencies as Record<string, string>;
    for (const source of DOCS_ASSET_SOURCES) {
      expect(dev[source.packageName]).toBe(source.version);
      const installed = packageJson(join(ROOT, 'node_modules', source.packageName, 'package.json'));
      expect(installed.version).toBe(source.version);
    }
  });

  test('carries the sha384 of each file as installed in node_modules', () => {
    for (const source of DOCS_ASSET_SOURCES) {
      const bytes = readFileSync(join(ROOT, 'node_modules', source.packageName, source.file));
      const digest = createHash('sha384').update(bytes).digest('base64');
      expect(`${source.file}: ${source.integrity}`).toBe(`${source.file}: sha384-${digest}`);
    }
  });

  test('defaults to version-pinned jsDelivr URLs', () => {
    expect(DEFAULT_DOCS_ASSETS.redoc.script?.url).toBe(
      'https://cdn.jsdelivr.net/npm/redoc@2.5.4/bundles/redoc.standalone.js',
    );
    for (const source of DOCS_ASSET_SOURCES) {
      expect(docsAssetCdnUrl(source)).toBe(
        `https://cdn.jsdelivr.net/npm/${source.packageName}@${source.version}/${source.file}`,
      );
      expect(DEFAULT_DOCS_ASSETS[source.ui][source.slot]).toEqual({
        url: docsAssetCdnUrl(source),
        integrity: source.integrity,
      });
    }
    expect(Object.keys(DEFAULT_DOCS_ASSETS['swagger-ui'])).toEqual(['script', 'preset', 'stylesheet']);
    expect(Object.keys(DEFAULT_DOCS_ASSETS.scalar)).toEqual(['script']);
  });
});

describe('hashSourceProblem', () => {
  test('accepts sha256, sha384 and sha512 digests of the right length', () => {
    expect(hashSourceProblem(SHA256_OF_EMPTY)).toBeUndefined();
    expect(hashSourceProblem(SHA384_OF_EMPTY)).toBeUndefined();
    expect(hashSourceProblem(SHA512_OF_EMPTY)).toBeUndefined();
  });

  test('refuses other algorithms, wrong lengths, base64url, bad padding and SRI options', () => {
    expect(hashSourceProblem('sha1-2jmj7l5rSw0yVb/vlWAYkK/YBwk=')).toContain('sha256-, sha384- or sha512-');
    expect(hashSourceProblem('md5-1B2M2Y8AsgTpgAmY7PhCfg==')).toContain('must start with');
    expect(hashSourceProblem(SHA256_OF_EMPTY.replace('sha256', 'sha384'))).toContain('48-byte digest');
    expect(hashSourceProblem(SHA384_OF_EMPTY.replace('+', '-'))).toContain('base64');
    expect(hashSourceProblem(`${SHA384_OF_EMPTY}?ct=application/javascript`)).toContain('base64');
    expect(hashSourceProblem('sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFV=')).toContain('base64');
    expect(hashSourceProblem('sha256-')).toContain('base64');
    expect(hashSourceProblem('')).toContain('must start with');
  });
});

describe('assetUrlOrigin', () => {
  test('returns the origin of https and loopback http URLs and nothing for a same-origin path', () => {
    expect(assetUrlOrigin('https://cdn.example.com/a.js', 'u')).toBe('https://cdn.example.com');
    expect(assetUrlOrigin('http://localhost:3000/a.js', 'u')).toBe('http://localhost:3000');
    expect(assetUrlOrigin('http://127.0.0.1:8080/a.js', 'u')).toBe('http://127.0.0.1:8080');
    expect(assetUrlOrigin('http://[::1]:9000/a.js', 'u')).toBe('http://[::1]:9000');
    expect(assetUrlOrigin('/static/a.js', 'u')).toBeUndefined();
  });

  test('refuses plain http off loopback, other schemes, network paths, credentials and odd characters', () => {
    expect(() => assetUrlOrigin('http://cdn.example.com/a.js', 'assets.script.url')).toThrow(
      'assets.script.url must be https:// (http:// only on localhost, 127.0.0.1 or [::1])',
    );
    expect(() => assetUrlOrigin('javascript:alert(1)', 'u')).toThrow(TypeError);
    expect(() => assetUrlOrigin('data:text/javascript,1', 'u')).toThrow(TypeError);
    expect(() => assetUrlOrigin('//evil.example/a.js', 'u')).toThrow('single "/"');
    expect(() => assetUrlOrigin('/\\evil.example/a.js', 'u')).toThrow('backslashes');
    expect(() => assetUrlOrigin('https://user:pw@cdn.example.com/a.js', 'u')).toThrow('credentials');
    expect(() => assetUrlOrigin('https://cdn.example.com/a b.js', 'u')).toThrow('spaces');
    expect(() => assetUrlOrigin('/a.js\n', 'u')).toThrow('control characters');
    expect(() => assetUrlOrigin('static/a.js', 'u')).toThrow('is not a URL');
    expect(() => assetUrlOrigin('', 'u')).toThrow('non-empty');
  });
});

describe('resolveDocsAsset', () => {
  test('keeps the URL and normalises the whitespace between integrity tokens', () => {
    const asset = resolveDocsAsset(
      { url: '/a.js', integrity: ` ${SHA384_OF_EMPTY}\n\t${SHA512_OF_EMPTY} ` },
      'assets.script',
    );
    expect(asset).toEqual({ url: '/a.js', integrity: `${SHA384_OF_EMPTY} ${SHA512_OF_EMPTY}` });
    expect(Object.isFrozen(asset)).toBe(true);
  });

  test('refuses an asset without integrity or with an invalid one, naming the option', () => {
    expect(() => resolveDocsAsset({ url: '/a.js' }, 'assets.script')).toThrow(
      'assets.script.integrity is required',
    );
    expect(() => resolveDocsAsset({ url: '/a.js', integrity: '  ' }, 'assets.script')).toThrow('is required');
    expect(() => resolveDocsAsset({ url: '/a.js', integrity: `${SHA384_OF_EMPTY} sha1-x` }, 'a')).toThrow(
      'a.integrity must start with sha256-',
    );
    expect(() => resolveDocsAsset('https://cdn.example.com/a.js', 'assets.script')).toThrow(
      'assets.script must be an object { url, integrity }',
    );
    expect(() =>
      resolveDocsAsset({ url: 'http://cdn.example.com/a.js', integrity: SHA384_OF_EMPTY }, 'x'),
    ).toThrow('x.url must be https://');
  });
});

describe('resolveDocsAssets', () => {
  test('fills the slots not given with the defaults', () => {
    const script = { url: '/swagger/bundle.js', integrity: SHA384_OF_EMPTY };
    const assets = resolveDocsAssets('swagger-ui', { script });
    expect(assets.script).toEqual(script);
    expect(assets.preset).toBe(DEFAULT_DOCS_ASSETS['swagger-ui'].preset);
    expect(assets.stylesheet).toBe(DEFAULT_DOCS_ASSETS['swagger-ui'].stylesheet);
    expect(resolveDocsAssets('redoc', undefined)).toBe(DEFAULT_DOCS_ASSETS.redoc);
  });

  test('refuses a slot the UI does not use', () => {
    expect(() =>
      resolveDocsAssets('scalar', { stylesheet: { url: '/a.css', integrity: SHA384_OF_EMPTY } }),
    ).toThrow('assets.stylesheet is not an asset of scalar; it uses script');
    expect(() => resolveDocsAssets('redoc', [])).toThrow('assets must be an object');
  });
});

describe('resolveCrossOrigin', () => {
  test('defaults to anonymous and accepts use-credentials', () => {
    expect(resolveCrossOrigin(undefined)).toBe('anonymous');
    expect(resolveCrossOrigin('anonymous')).toBe('anonymous');
    expect(resolveCrossOrigin('use-credentials')).toBe('use-credentials');
  });

  test('refuses anything else', () => {
    expect(() => resolveCrossOrigin('')).toThrow('crossOrigin must be "anonymous" or "use-credentials"');
    expect(() => resolveCrossOrigin('anonymous" onload="x')).toThrow(TypeError);
  });
});
