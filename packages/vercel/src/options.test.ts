import { describe, expect, test } from 'bun:test';
import { resolveVercelOptions, stripBasePath } from './options.ts';

describe('stripBasePath', () => {
  test('removes the prefix as a whole leading segment, else leaves the path alone', () => {
    expect(stripBasePath('/api', '/api')).toBe('/');
    expect(stripBasePath('/api/users/1', '/api')).toBe('/users/1');
    expect(stripBasePath('/apiusers', '/api')).toBeUndefined();
    expect(stripBasePath('/other/api', '/api')).toBeUndefined();
  });
});

describe('resolveVercelOptions', () => {
  test('accepts a path and no option; refuses anything else, naming basePath', () => {
    expect(resolveVercelOptions(undefined)).toEqual({ basePath: undefined });
    expect(resolveVercelOptions({ basePath: '/api/v1' })).toEqual({ basePath: '/api/v1' });
    for (const basePath of ['api', '/api/', '/', '', 7 as unknown as string]) {
      expect(() => resolveVercelOptions({ basePath })).toThrow(TypeError);
    }
  });
});
