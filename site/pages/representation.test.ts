import { describe, expect, test } from 'bun:test';
import { answer, headerFields, representation, strongEntityTag } from './representation.ts';

describe('representation', () => {
  const rep = representation('<p>hi</p>', {
    'Content-Type': 'text/html; charset=utf-8',
    'Cache-Control': 'no-cache',
    Vary: 'Accept',
  });

  test('holds the bytes, their strong ETag and the 200 and 304 fields as frozen records', () => {
    expect(new TextDecoder().decode(rep.body)).toBe('<p>hi</p>');
    expect(rep.etag).toBe(strongEntityTag(rep.body));
    expect({ ...rep.headers }).toEqual({
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-cache',
      vary: 'Accept',
      etag: rep.etag,
    });
    // RFC 9110 §15.4.5: a 304 carries no content-type.
    expect({ ...rep.notModifiedHeaders }).toEqual({
      'cache-control': 'no-cache',
      vary: 'Accept',
      etag: rep.etag,
    });
    expect(Object.isFrozen(rep.headers)).toBe(true);
    expect(Object.isFrozen(rep.notModifiedHeaders)).toBe(true);
    expect(() => {
      (rep.headers as Record<string, string>).vary = 'Cookie';
    }).toThrow(TypeError);
  });

  test('answer gives 200 with the fields, or 304 without content when If-None-Match matches', () => {
    const ok = answer({ headers: {} }, rep);
    expect(ok.status).toBe(200);
    expect([...new Headers(ok.headers)]).toEqual([
      ['cache-control', 'no-cache'],
      ['content-type', 'text/html; charset=utf-8'],
      ['etag', rep.etag],
      ['vary', 'Accept'],
    ]);
    const notModified = answer({ headers: { 'if-none-match': `W/${rep.etag}` } }, rep);
    expect(notModified.status).toBe(304);
    expect(notModified.body).toBeUndefined();
    expect(new Headers(notModified.headers).has('content-type')).toBe(false);
  });
});

describe('headerFields', () => {
  test('a header list as a frozen record without a prototype', () => {
    const fields = headerFields([
      ['etag', '"a"'],
      ['__proto__', 'x'],
    ]);
    expect(Object.keys(fields)).toEqual(['etag', '__proto__']);
    expect(fields.__proto__).toBe('x');
    expect(Object.getPrototypeOf(fields)).toBeNull();
    expect(Object.isFrozen(fields)).toBe(true);
  });

  test('refuses a field listed twice rather than drop one', () => {
    expect(() =>
      headerFields([
        ['link', '<a>'],
        ['link', '<b>'],
      ]),
    ).toThrow('headerFields: the field link is listed twice');
  });
});
