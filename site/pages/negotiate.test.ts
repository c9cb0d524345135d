import { describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { negotiatePage, parseAccept, qualityOf } from './negotiate.ts';

describe('parseAccept', () => {
  test('reads types, parameters and weights, lower-casing names', () => {
    expect(parseAccept('Text/HTML;Level=1;Q=0.5, */*')).toEqual([
      { type: 'text', subtype: 'html', params: [['level', '1']], q: 500 },
      { type: '*', subtype: '*', params: [], q: 1000 },
    ]);
  });

  test('keeps commas and semicolons inside quoted parameter values', () => {
    expect(parseAccept('text/markdown;variant="a,b;c";q=0.2')).toEqual([
      { type: 'text', subtype: 'markdown', params: [['variant', 'a,b;c']], q: 200 },
    ]);
  });

  test('drops malformed members and keeps the others', () => {
    const ranges = parseAccept(
      'text, /html, */html, text/, text/html;q=2, text/html;q=0.1234, text/markdown;q',
    );
    expect(ranges).toEqual([]);
    expect(parseAccept('garbage, text/markdown').map((r) => r.subtype)).toEqual(['markdown']);
  });

  test('accepts the qvalue forms RFC 9110 §12.4.2 allows and no others', () => {
    const q = (v: string) => parseAccept(`text/html;q=${v}`)[0]?.q;
    expect([q('0'), q('0.'), q('0.5'), q('0.05'), q('0.125'), q('1'), q('1.'), q('1.000')]).toEqual([
      0, 0, 500, 50, 125, 1000, 1000, 1000,
    ]);
    expect([q('1.001'), q('.5'), q('-0'), q('0.5x'), q('2'), q('')]).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });

  test('skips empty list elements', () => {
    expect(parseAccept(' , ,text/markdown,,').length).toBe(1);
  });
});

describe('qualityOf', () => {
  test('takes the weight of the most specific matching range', () => {
    const ranges = parseAccept('*/*;q=0.1, text/*;q=0.5, text/markdown;q=0.9');
    expect(qualityOf(ranges, 'text/markdown')).toBe(900);
    expect(qualityOf(ranges, 'text/html')).toBe(500);
  });

  test('is 0 when no range matches', () => {
    expect(qualityOf(parseAccept('application/json'), 'text/html')).toBe(0);
  });

  test('a charset other than utf-8 does not match', () => {
    expect(qualityOf(parseAccept('text/markdown;charset=iso-8859-1'), 'text/markdown')).toBe(0);
    expect(qualityOf(parseAccept('text/markdown;charset="UTF-8"'), 'text/markdown')).toBe(1000);
  });
});

describe('negotiatePage', () => {
  test('serves HTML without an Accept field, or with an empty one', () => {
    for (const accept of [null, undefined, '', '  ']) {
      expect(negotiatePage(accept)).toEqual({ type: 'text/html', acceptable: true });
    }
  });

  test('serves Markdown when asked for it, HTML for a browser', () => {
    expect(negotiatePage('text/markdown').type).toBe('text/markdown');
    expect(negotiatePage('text/markdown, text/html;q=0.9').type).toBe('text/markdown');
    expect(negotiatePage('text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8').type).toBe(
      'text/html',
    );
  });

  test('gives ties to HTML', () => {
    expect(negotiatePage('text/markdown, text/html').type).toBe('text/html');
    expect(negotiatePage('text/*').type).toBe('text/html');
    expect(negotiatePage('*/*').type).toBe('text/html');
  });

  test('a more specific range overrides a broader one', () => {
    expect(negotiatePage('text/*;q=0.5, text/markdown').type).toBe('text/markdown');
    expect(negotiatePage('text/*, text/html;q=0.2').type).toBe('text/markdown');
    expect(negotiatePage('*/*, text/html;q=0').type).toBe('text/markdown');
    expect(negotiatePage('text/markdown;variant=GFM, text/*;q=0.5').type).toBe('text/markdown');
  });

  test('q=0 excludes a type', () => {
    expect(negotiatePage('text/html;q=0, text/markdown;q=0.1').type).toBe('text/markdown');
    expect(negotiatePage('text/markdown;q=0, */*').type).toBe('text/html');
  });

  test('ignores malformed members instead of failing', () => {
    expect(negotiatePage('text/html;q=nope, text/markdown').type).toBe('text/markdown');
    expect(negotiatePage(';;;,,,"')).toEqual({ type: 'text/html', acceptable: true });
  });

  test('answers HTML, marked not acceptable, when neither type is acceptable', () => {
    expect(negotiatePage('application/json')).toEqual({ type: 'text/html', acceptable: false });
    expect(negotiatePage('text/html;q=0, text/markdown;q=0')).toEqual({
      type: 'text/html',
      acceptable: false,
    });
  });

  test('never throws and always picks one of the two types (property)', () => {
    const member = fc.oneof(
      fc.string(),
      fc
        .tuple(
          fc.constantFrom('text', '*', 'application', 'TEXT', ''),
          fc.constantFrom('html', 'markdown', '*', 'json', 'Markdown'),
          fc.array(fc.tuple(fc.constantFrom('q', 'Q', 'charset', 'variant'), fc.string()), { maxLength: 3 }),
        )
        .map(([t, s, ps]) => `${t}/${s}${ps.map(([k, v]) => `;${k}=${v}`).join('')}`),
    );
    fc.assert(
      fc.property(fc.array(member, { maxLength: 8 }), (members) => {
        const result = negotiatePage(members.join(', '));
        expect(['text/html', 'text/markdown']).toContain(result.type);
        expect(typeof result.acceptable).toBe('boolean');
      }),
      { numRuns: 1000 },
    );
  });

  test('Markdown wins exactly when its weight is strictly higher (property)', () => {
    const weight = fc.integer({ min: 0, max: 1000 });
    fc.assert(
      fc.property(weight, weight, (h, m) => {
        const q = (n: number) => (n === 1000 ? '1' : `0.${String(n).padStart(3, '0')}`);
        const result = negotiatePage(`text/html;q=${q(h)}, text/markdown;q=${q(m)}`);
        expect(result.type).toBe(m > h ? 'text/markdown' : 'text/html');
        expect(result.acceptable).toBe(h > 0 || m > 0);
      }),
      { numRuns: 500 },
    );
  });
});
