import { describe, expect, test } from 'bun:test';
import { parseForwarded, parseForwardedNode, parseXForwardedFor } from './forwarded.ts';

const kinds = (value: string) => parseXForwardedFor(value).map((hop) => hop.address ?? hop.kind);
const fors = (value: string) =>
  parseForwarded(value).map((element) => element.for.address ?? element.for.kind);

describe('parseForwardedNode', () => {
  const nodes: Array<[string, string, string | undefined]> = [
    ['192.0.2.43', '192.0.2.43', undefined],
    ['192.0.2.43:47011', '192.0.2.43', '47011'],
    ['[2001:db8:cafe::17]', '2001:db8:cafe::17', undefined],
    ['[2001:DB8:cafe::17]:4711', '2001:db8:cafe::17', '4711'],
    ['2001:db8::1', '2001:db8::1', undefined],
    ['::ffff:192.0.2.1', '192.0.2.1', undefined],
    ['192.0.2.43:_port', '192.0.2.43', '_port'],
  ];
  for (const [text, address, port] of nodes) {
    test(`reads ${text}`, () => {
      const hop = parseForwardedNode(text);
      expect(hop.kind).toBe('ip');
      expect(hop.address).toBe(address);
      expect(hop.port).toBe(port);
    });
  }

  test('reads unknown and obfuscated identifiers (RFC 7239 §6.2, §6.3)', () => {
    expect(parseForwardedNode('unknown').kind).toBe('unknown');
    expect(parseForwardedNode('UNKNOWN:80').kind).toBe('unknown');
    expect(parseForwardedNode('_hidden').kind).toBe('obfuscated');
    expect(parseForwardedNode('_SEVKISEK').kind).toBe('obfuscated');
    expect(parseForwardedNode('_a.b-c_d:_p').kind).toBe('obfuscated');
  });

  for (const text of [
    '',
    '_',
    '_a b',
    'example.com',
    '192.0.2.1:99999',
    '192.0.2.1:',
    '[192.0.2.1]',
    '[2001:db8::1',
    '[2001:db8::1]x',
    '2001:db8::1:80:x',
    '1.2.3.4:80:90',
    '01.2.3.4',
    'fe80::1%eth0',
    'x'.repeat(300),
  ]) {
    test(`marks ${JSON.stringify(text.slice(0, 20))} invalid`, () => {
      const hop = parseForwardedNode(text);
      expect(hop.kind).toBe('invalid');
      expect(hop.address).toBeUndefined();
    });
  }
});

describe('parseXForwardedFor', () => {
  test('reads a list with whitespace, ports and brackets, left-most first', () => {
    expect(kinds('203.0.113.7, 198.51.100.1:8080 ,[2001:db8::2]:443,\t2001:db8::3')).toEqual([
      '203.0.113.7',
      '198.51.100.1',
      '2001:db8::2',
      '2001:db8::3',
    ]);
  });

  test('keeps one position per element, invalid ones included, and skips empty elements', () => {
    expect(kinds('evil, , 203.0.113.7,unknown,_x,,')).toEqual([
      'invalid',
      '203.0.113.7',
      'unknown',
      'obfuscated',
    ]);
  });

  test('reads nothing from a missing or empty header', () => {
    expect(parseXForwardedFor(null)).toEqual([]);
    expect(parseXForwardedFor(undefined)).toEqual([]);
    expect(parseXForwardedFor('')).toEqual([]);
    expect(parseXForwardedFor(' , ')).toEqual([]);
  });

  test('reads several field lines as one list (Headers joins them)', () => {
    const headers = new Headers();
    headers.append('x-forwarded-for', '203.0.113.7');
    headers.append('x-forwarded-for', '10.0.0.1');
    expect(kinds(headers.get('x-forwarded-for') ?? '')).toEqual(['203.0.113.7', '10.0.0.1']);
  });
});

describe('parseForwarded', () => {
  test('reads the RFC 7239 §4 examples', () => {
    expect(fors('for="_gazonk"')).toEqual(['obfuscated']);
    expect(fors('For="[2001:db8:cafe::17]:4711"')).toEqual(['2001:db8:cafe::17']);
    expect(fors('for=192.0.2.60;proto=http;by=203.0.113.43')).toEqual(['192.0.2.60']);
    expect(fors('for=192.0.2.43, for=198.51.100.17')).toEqual(['192.0.2.43', '198.51.100.17']);
  });

  test('reads proto, host and by, names case-insensitively', () => {
    const [element] = parseForwarded('for=192.0.2.60;PROTO=HTTPS;By=203.0.113.43;host="example.com:8443"');
    expect(element?.valid).toBe(true);
    expect(element?.proto).toBe('https');
    expect(element?.host).toBe('example.com:8443');
    expect(element?.by?.address).toBe('203.0.113.43');
  });

  test('reads quoted strings with escapes and separators inside them', () => {
    const [element] = parseForwarded('for="192.0.2.1";host="a\\"b;c,d"');
    expect(element?.host).toBe('a"b;c,d');
    expect(element?.for.address).toBe('192.0.2.1');
    expect(parseForwarded('host="a,b", for=192.0.2.2')).toHaveLength(2);
  });

  test('accepts an unquoted IPv4 node with a port, as proxies write it', () => {
    expect(fors('for=192.0.2.60:8080')).toEqual(['192.0.2.60']);
  });

  test('gives an element without `for` an invalid hop, keeping its position', () => {
    expect(fors('proto=https, for=192.0.2.1')).toEqual(['invalid', '192.0.2.1']);
    expect(parseForwarded('proto=https')[0]?.valid).toBe(true);
  });

  test('marks an element with a repeated parameter invalid, for included (§4)', () => {
    const [element] = parseForwarded('for=192.0.2.1;for=198.51.100.1');
    expect(element?.valid).toBe(false);
    expect(element?.for.kind).toBe('invalid');
  });

  test('an unterminated quote spoils its element only, not the ones appended after it', () => {
    expect(fors('for="192.0.2.1, for=198.51.100.2')).toEqual(['invalid', '198.51.100.2']);
  });

  test('marks garbage invalid without throwing', () => {
    expect(fors('for')).toEqual(['invalid']);
    expect(fors('=x')).toEqual(['invalid']);
    expect(fors('for=192.0.2.1 junk')).toEqual(['invalid']);
    expect(fors('for="192.0.2.1"junk')).toEqual(['invalid']);
    expect(fors('for=a"b')).toEqual(['invalid']);
    expect(fors(';;, ,for=192.0.2.9; ')).toEqual(['192.0.2.9']);
  });

  test('reads nothing from a missing or empty header', () => {
    expect(parseForwarded(null)).toEqual([]);
    expect(parseForwarded('')).toEqual([]);
    expect(parseForwarded(' , ;')).toEqual([]);
  });

  test('stays fast on a long run of broken quotes', () => {
    const started = performance.now();
    // Each quote closes at the next element's opening quote: pairs of elements, each one invalid.
    expect(fors('for="x,'.repeat(20_000)).filter((kind) => kind === 'invalid')).toHaveLength(10_000);
    expect(fors(`for="${'a,'.repeat(50_000)}`)).toHaveLength(50_000);
    expect(fors(`${'for=_x;'.repeat(10_000)},`)).toEqual(['invalid']);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
