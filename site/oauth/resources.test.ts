import { describe, expect, test } from 'bun:test';
import {
  acceptedAudiences,
  allResourceUrls,
  findProtectedResource,
  ORIGIN_RESOURCE_ID,
  PROTECTED_RESOURCES,
  resolveSiteOrigin,
  resourceIdForPath,
  resourceIdForUrl,
  resourceMetadataUrl,
  resourceUrl,
} from './resources.ts';

const ORIGIN = 'https://docs.example';

describe('resolveSiteOrigin', () => {
  test('returns the serialized origin, dropping a trailing slash and a default port', () => {
    expect(resolveSiteOrigin('https://docs.example/')).toBe(ORIGIN);
    expect(resolveSiteOrigin('HTTPS://Docs.Example:443')).toBe(ORIGIN);
    expect(resolveSiteOrigin('http://localhost:3000')).toBe('http://localhost:3000');
  });

  test('refuses paths, queries, fragments, credentials, other schemes and non-URLs', () => {
    for (const bad of [
      'https://docs.example/site',
      'https://docs.example/?a=1',
      'https://docs.example/#x',
      'https://user@docs.example',
      'ftp://docs.example',
      'docs.example',
      '',
    ]) {
      expect(() => resolveSiteOrigin(bad, 'SITE_ORIGIN')).toThrow(/SITE_ORIGIN/);
    }
  });
});

describe('PROTECTED_RESOURCES', () => {
  test('lists the origin, mcp, api/v1 and md', () => {
    expect(PROTECTED_RESOURCES.map((r) => r.id)).toEqual(['', 'mcp', 'api/v1', 'md']);
    expect(findProtectedResource('mcp')?.pathPrefix).toBe('/mcp');
    expect(findProtectedResource('nope')).toBeUndefined();
  });

  test('resource URLs are the origin itself or <origin>/<id>', () => {
    expect(resourceUrl(ORIGIN, ORIGIN_RESOURCE_ID)).toBe(ORIGIN);
    expect(resourceUrl(ORIGIN, 'api/v1')).toBe(`${ORIGIN}/api/v1`);
    expect(allResourceUrls(ORIGIN)).toEqual([ORIGIN, `${ORIGIN}/mcp`, `${ORIGIN}/api/v1`, `${ORIGIN}/md`]);
  });

  test('metadata URLs put the well-known suffix between origin and path (RFC 9728 §3.1)', () => {
    expect(resourceMetadataUrl(ORIGIN, '')).toBe(`${ORIGIN}/.well-known/oauth-protected-resource`);
    expect(resourceMetadataUrl(ORIGIN, 'mcp')).toBe(`${ORIGIN}/.well-known/oauth-protected-resource/mcp`);
  });
});

describe('resourceIdForPath', () => {
  test('finds the narrowest resource covering a path', () => {
    expect(resourceIdForPath('/mcp')).toBe('mcp');
    expect(resourceIdForPath('/api/v1')).toBe('api/v1');
    expect(resourceIdForPath('/api/v1/pages')).toBe('api/v1');
    expect(resourceIdForPath('/md/docs/jwt')).toBe('md');
  });

  test('gives the origin for every other path, including look-alike prefixes', () => {
    expect(resourceIdForPath('/')).toBe('');
    expect(resourceIdForPath('/mcpx')).toBe('');
    expect(resourceIdForPath('/api/v10')).toBe('');
    expect(resourceIdForPath('/docs-md/jwt')).toBe('');
    expect(resourceIdForPath('/mdx')).toBe('');
  });
});

describe('resourceIdForUrl', () => {
  test('matches the resource URLs of this origin, a trailing slash tolerated', () => {
    expect(resourceIdForUrl(ORIGIN, ORIGIN)).toBe('');
    expect(resourceIdForUrl(ORIGIN, `${ORIGIN}/`)).toBe('');
    expect(resourceIdForUrl(ORIGIN, `${ORIGIN}/mcp`)).toBe('mcp');
    expect(resourceIdForUrl(ORIGIN, `${ORIGIN}/mcp/`)).toBe('mcp');
    expect(resourceIdForUrl(ORIGIN, 'HTTPS://DOCS.EXAMPLE:443/api/v1')).toBe('api/v1');
  });

  test('refuses other origins, unknown paths, fragments, queries, credentials and relative URLs', () => {
    for (const bad of [
      'https://other.example/mcp',
      'http://docs.example/mcp',
      `${ORIGIN}/mcp/tools`,
      `${ORIGIN}/mcp//`,
      `${ORIGIN}/mcp#x`,
      `${ORIGIN}/mcp?x=1`,
      'https://u:p@docs.example/mcp',
      '/mcp',
      'mcp',
    ]) {
      expect(resourceIdForUrl(ORIGIN, bad)).toBeUndefined();
    }
  });
});

describe('acceptedAudiences', () => {
  test('the origin is accepted everywhere, a resource URL only at its resource', () => {
    expect(acceptedAudiences(ORIGIN, '')).toEqual([ORIGIN]);
    expect(acceptedAudiences(ORIGIN, 'mcp')).toEqual([ORIGIN, `${ORIGIN}/mcp`]);
  });
});
