import { describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { toOpenAPIPath } from './paths.ts';

describe('toOpenAPIPath', () => {
  test('turns a :param segment into a {param} template expression (OpenAPI 3.1 §4.8.8.1)', () => {
    expect(toOpenAPIPath('/users/:id')).toEqual({
      template: '/users/{id}',
      params: [{ name: 'id', wildcard: false }],
    });
  });

  test('turns a *rest wildcard into {rest} and marks the parameter as a wildcard', () => {
    expect(toOpenAPIPath('/files/*rest')).toEqual({
      template: '/files/{rest}',
      params: [{ name: 'rest', wildcard: true }],
    });
  });

  test('lists several parameters in path order, wildcard last', () => {
    expect(toOpenAPIPath('/orgs/:org/repos/:repo/blob/*path')).toEqual({
      template: '/orgs/{org}/repos/{repo}/blob/{path}',
      params: [
        { name: 'org', wildcard: false },
        { name: 'repo', wildcard: false },
        { name: 'path', wildcard: true },
      ],
    });
  });

  test('leaves a static path and the root path unchanged, with no parameters', () => {
    expect(toOpenAPIPath('/health/ready')).toEqual({ template: '/health/ready', params: [] });
    expect(toOpenAPIPath('/')).toEqual({ template: '/', params: [] });
  });

  test('only a leading ":" or "*" makes a parameter: one inside a static segment stays text', () => {
    expect(toOpenAPIPath('/a:b/c*d')).toEqual({ template: '/a:b/c*d', params: [] });
  });

  test('for any router path, the template has one {name} per parameter, in order, and static text unchanged', () => {
    const name = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,8}$/);
    const segment = fc.oneof(
      fc.stringMatching(/^[a-z0-9-]{1,8}$/).map((text) => ({ kind: 'static' as const, text })),
      name.map((text) => ({ kind: 'param' as const, text })),
    );
    fc.assert(
      fc.property(
        fc.array(segment, { maxLength: 6 }),
        fc.option(name, { nil: undefined }),
        (segments, rest) => {
          const raw = segments.map((s) => (s.kind === 'param' ? `:${s.text}` : s.text));
          const expected = segments.map((s) => (s.kind === 'param' ? `{${s.text}}` : s.text));
          if (rest !== undefined) {
            raw.push(`*${rest}`);
            expected.push(`{${rest}}`);
          }
          const { template, params } = toOpenAPIPath(`/${raw.join('/')}`);
          expect(template).toBe(`/${expected.join('/')}`);
          const names = segments.filter((s) => s.kind === 'param').map((s) => s.text);
          if (rest !== undefined) names.push(rest);
          expect(params.map((p) => p.name)).toEqual(names);
          expect(params.map((p) => p.wildcard)).toEqual(
            names.map((_, i) => rest !== undefined && i === names.length - 1),
          );
        },
      ),
      { numRuns: 300 },
    );
  });
});
