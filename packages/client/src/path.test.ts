import { describe, expect, test } from 'bun:test';
import { App } from '@charter/core';
import fc from 'fast-check';
import { compilePath, fillPath, fillTemplate, pathParamNames } from './path.ts';

describe('fillPath', () => {
  test('returns a path without parameters as it is', () => {
    expect(fillPath('op', '/users', undefined)).toBe('/users');
    expect(fillPath('op', '/', { ignored: 1 })).toBe('/');
  });

  test('fills :name segments with percent-encoded text, numbers included', () => {
    expect(fillPath('op', '/orgs/:org/users/:id', { org: 'a b', id: 7 })).toBe('/orgs/a%20b/users/7');
    expect(fillPath('op', '/t/:v', { v: 'ü?#&%' })).toBe('/t/%C3%BC%3F%23%26%25');
    expect(fillPath('op', '/t/:v', { v: 10n })).toBe('/t/10');
    expect(fillPath('op', '/t/:v', { v: '...' })).toBe('/t/...');
  });

  test('fills *name with /-separated segments, each encoded', () => {
    expect(fillPath('op', '/files/*path', { path: 'a b/c/d.txt' })).toBe('/files/a%20b/c/d.txt');
    expect(fillPath('op', '/files/*path', { path: 'one' })).toBe('/files/one');
  });

  test('refuses missing, empty and dot values, naming the operation and parameter', () => {
    expect(() => fillPath('getUser', '/u/:id', {})).toThrow('getUser: path parameter "id" is missing');
    expect(() => fillPath('getUser', '/u/:id', undefined)).toThrow('is missing');
    expect(() => fillPath('getUser', '/u/:id', { id: '' })).toThrow('is empty');
    expect(() => fillPath('getUser', '/u/:id', { id: '.' })).toThrow('dot segment');
    expect(() => fillPath('getUser', '/u/:id', { id: '..' })).toThrow('dot segment');
    expect(() => fillPath('getUser', '/u/:id', { id: Number.POSITIVE_INFINITY })).toThrow(
      'not a finite number',
    );
    expect(() => fillPath('getUser', '/u/:id', { id: [1] })).toThrow('must be a string or a number');
    expect(() => fillPath('getUser', '/u/:id', 'id')).toThrow('params must be an object');
  });

  test('refuses values the router would refuse: "/" in a parameter, backslashes, controls', () => {
    expect(() => fillPath('op', '/u/:id', { id: 'a/b' })).toThrow('contains "/"');
    expect(() => fillPath('op', '/u/:id', { id: 'a\\b' })).toThrow('backslash');
    expect(() => fillPath('op', '/u/:id', { id: 'a\u0085b' })).toThrow('control character');
    expect(() => fillPath('op', '/f/*p', { p: 'a//b' })).toThrow('has a segment that is empty');
    expect(() => fillPath('op', '/f/*p', { p: 'a/' })).toThrow('has a segment that is empty');
    expect(() => fillPath('op', '/f/*p', { p: 'a/../b' })).toThrow(
      'has a segment that is the dot segment ".."',
    );
  });

  test('looks at own properties only', () => {
    expect(() => fillPath('op', '/c/:constructor', {})).toThrow('path parameter "constructor" is missing');
    expect(() => fillPath('op', '/c/:toString', Object.create({ toString: 'x' }))).toThrow('is missing');
  });

  test('any accepted value reaches the handler unchanged (property)', async () => {
    const app = new App({ logger: false });
    app.get('/p/:value', { responses: { 200: {} } }, (ctx) => ({ status: 200, body: ctx.params }));
    app.get('/w/*rest', { responses: { 200: {} } }, (ctx) => ({ status: 200, body: ctx.params }));
    const segment = fc
      .string({ unit: 'grapheme', minLength: 1, maxLength: 12 })
      .filter((s) => s !== '.' && s !== '..' && !/[/\\\u0000-\u001f\u007f-\u009f]/.test(s));
    await fc.assert(
      fc.asyncProperty(segment, fc.array(segment, { minLength: 1, maxLength: 4 }), async (value, parts) => {
        const one = await app.request(fillPath('op', '/p/:value', { value }));
        expect(await one.json()).toEqual({ value });
        const rest = parts.join('/');
        const many = await app.request(fillPath('op', '/w/*rest', { rest }));
        expect(await many.json()).toEqual({ rest });
      }),
      { numRuns: 300 },
    );
  });
});

describe('compilePath', () => {
  test('splits a route path once into literal text and parameter slots', () => {
    expect(compilePath('/users')).toEqual(['/users']);
    expect(compilePath('/')).toEqual(['/']);
    expect(compilePath('/orgs/:org/files/*path')).toEqual([
      '/orgs/',
      { name: 'org', wildcard: false },
      '/files/',
      { name: 'path', wildcard: true },
    ]);
    expect(compilePath('/:a/:b/x')).toEqual([
      '/',
      { name: 'a', wildcard: false },
      '/',
      { name: 'b', wildcard: false },
      '/x',
    ]);
    expect(pathParamNames('/orgs/:org/files/*path')).toEqual(['org', 'path']);
    expect(pathParamNames('/users')).toEqual([]);
  });

  test('a compiled template fills the same path for every call', () => {
    const template = compilePath('/u/:id/f/*rest');
    expect(fillTemplate('op', template, { id: 1, rest: 'a b/c' })).toBe('/u/1/f/a%20b/c');
    expect(fillTemplate('op', template, { id: 'x', rest: 'd' })).toBe('/u/x/f/d');
    expect(() => fillTemplate('op', template, { id: 1 })).toThrow('path parameter "rest" is missing');
  });
});
