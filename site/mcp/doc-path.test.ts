import { describe, expect, test } from 'bun:test';
import { editDistance } from '../content/edit-distance.ts';
import { closestPaths, MAX_DOC_ADDRESS_LENGTH, resolveDocAddress } from './doc-path.ts';

const ORIGIN = 'https://charter.dev';
const pathOf = (address: string) => {
  const resolved = resolveDocAddress(address, ORIGIN);
  return resolved.ok ? resolved.path : resolved.reason;
};

describe('resolveDocAddress', () => {
  test('accepts a path, a URL path, a Markdown URL and the /md/ mirror', () => {
    for (const address of [
      'docs/jwt',
      '/docs/jwt',
      '/docs/jwt.md',
      '/md/docs/jwt',
      'md/docs/jwt.md',
      '/docs/jwt/',
    ]) {
      expect(pathOf(address)).toBe('docs/jwt');
    }
  });

  test('accepts the full URL on the site origin, dropping the query and fragment', () => {
    expect(pathOf('https://charter.dev/docs/jwt')).toBe('docs/jwt');
    expect(pathOf('HTTPS://CHARTER.DEV/md/docs/jwt.md?x=1#signing')).toBe('docs/jwt');
    expect(pathOf('/docs/jwt#verifying')).toBe('docs/jwt');
    expect(pathOf('docs/jwt?raw')).toBe('docs/jwt');
  });

  test('the home page is index, however it is written', () => {
    for (const address of [
      '/',
      'index',
      '/index.md',
      'https://charter.dev',
      'https://charter.dev/',
      '/md/index',
    ]) {
      expect(pathOf(address)).toBe('index');
    }
    expect(pathOf('/docs.md')).toBe('docs');
  });

  test('maps the deprecated /docs-md/ mirror to its docs page', () => {
    expect(pathOf('/docs-md/jwt')).toBe('docs/jwt');
  });

  test('percent-decodes the path, and keeps a stray % literally', () => {
    expect(pathOf('/docs/%6Awt')).toBe('docs/jwt');
    expect(pathOf('/docs/100%')).toBe('docs/100%');
  });

  test('refuses a URL on another origin, naming this one', () => {
    const resolved = resolveDocAddress('https://evil.example/docs/jwt', ORIGIN);
    expect(resolved).toMatchObject({ ok: false, reason: 'other-origin' });
    expect(resolved.ok ? '' : resolved.message).toContain(ORIGIN);
    expect(pathOf('http://charter.dev/docs/jwt')).toBe('other-origin');
  });

  test('refuses an empty, overlong or unparsable address', () => {
    expect(pathOf('  ')).toBe('invalid');
    expect(pathOf('x'.repeat(MAX_DOC_ADDRESS_LENGTH + 1))).toBe('invalid');
    expect(pathOf('https://[bad')).toBe('invalid');
  });
});

describe('editDistance', () => {
  test('counts insertions, deletions and substitutions', () => {
    expect(editDistance('jwt', 'jwt')).toBe(0);
    expect(editDistance('jwt', 'jwk')).toBe(1);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('kitten', 'sitting')).toBe(3);
  });
});

describe('closestPaths', () => {
  const paths = ['index', 'docs', 'docs/jwt', 'docs/jwk', 'docs/sessions', 'docs/tool-server'];

  test('names the nearest paths by the whole path or the last segment, then by path', () => {
    expect(closestPaths('docs/jwtt', paths)).toEqual(['docs/jwt', 'docs/jwk', 'docs']);
    expect(closestPaths('guides/tool-servers', paths)[0]).toBe('docs/tool-server');
    expect(closestPaths('session', paths, 1)).toEqual(['docs/sessions']);
  });

  test('an empty site has nothing to suggest', () => {
    expect(closestPaths('docs/jwt', [])).toEqual([]);
  });
});
