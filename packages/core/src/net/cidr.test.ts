import { describe, expect, test } from 'bun:test';
import { cidrContains, compileCidrs, formatCidr, parseCidr } from './cidr.ts';
import { parseIp } from './ip.ts';

describe('parseCidr', () => {
  test('reads IPv4 and IPv6 blocks and single addresses', () => {
    expect(formatCidr(parseCidr('10.0.0.0/8'))).toBe('10.0.0.0/8');
    expect(formatCidr(parseCidr('2001:db8::/32'))).toBe('2001:db8::/32');
    expect(formatCidr(parseCidr('192.0.2.7'))).toBe('192.0.2.7/32');
    expect(formatCidr(parseCidr('::1'))).toBe('::1/128');
    expect(formatCidr(parseCidr('0.0.0.0/0'))).toBe('0.0.0.0/0');
    expect(formatCidr(parseCidr(' 10.0.0.0/8 '))).toBe('10.0.0.0/8');
  });

  test('stores an IPv4-mapped block as IPv4', () => {
    const cidr = parseCidr('::ffff:10.0.0.0/104');
    expect(cidr.version).toBe(4);
    expect(formatCidr(cidr)).toBe('10.0.0.0/8');
  });

  const bad: Array<[string, RegExp]> = [
    ['10.0.0.0/33', /prefix length must be a decimal number from 0 to 32/],
    ['::/129', /from 0 to 128/],
    ['10.0.0.0/', /prefix length/],
    ['10.0.0.0/08', /prefix length/],
    ['10.0.0.0/-1', /prefix length/],
    ['10.0.0.0/8/8', /prefix length/],
    ['10.0.0.1/8', /bits are set past the \/8 prefix/],
    ['2001:db8::1/32', /bits are set past/],
    ['10.0.0/8', /"10.0.0" is not an IPv4 or IPv6 address/],
    ['localhost', /not an IPv4 or IPv6 address/],
    ['', /not an IPv4 or IPv6 address/],
  ];
  for (const [text, message] of bad) {
    test(`throws a TypeError naming the entry for ${JSON.stringify(text)}`, () => {
      expect(() => parseCidr(text, 'trusted[3]')).toThrow(TypeError);
      expect(() => parseCidr(text, 'trusted[3]')).toThrow(message);
      expect(() => parseCidr(text, 'trusted[3]')).toThrow(`trusted[3]: "${text}"`);
    });
  }

  test('refuses a non-string entry', () => {
    expect(() => parseCidr(42 as unknown as string, 'list[0]')).toThrow(/list\[0\]: expected a string/);
  });
});

describe('cidrContains', () => {
  test('matches addresses inside the block and not outside', () => {
    expect(cidrContains('172.16.0.0/12', '172.31.255.255')).toBe(true);
    expect(cidrContains('172.16.0.0/12', '172.32.0.0')).toBe(false);
    expect(cidrContains('10.0.0.0/9', '10.127.0.1')).toBe(true);
    expect(cidrContains('10.0.0.0/9', '10.128.0.1')).toBe(false);
    expect(cidrContains('2001:db8::/33', '2001:db8:7fff::1')).toBe(true);
    expect(cidrContains('2001:db8::/33', '2001:db8:8000::1')).toBe(false);
    expect(cidrContains('0.0.0.0/0', '203.0.113.9')).toBe(true);
  });

  test('matches IPv4-mapped addresses as IPv4 and never crosses families otherwise', () => {
    expect(cidrContains('10.0.0.0/8', '::ffff:10.1.2.3')).toBe(true);
    expect(cidrContains('10.0.0.0/8', '::10.1.2.3')).toBe(false);
    expect(cidrContains('::/0', '10.1.2.3')).toBe(false);
    expect(cidrContains('0.0.0.0/0', '::1')).toBe(false);
  });

  test('answers false for text that is not an address, and strips zone ids', () => {
    expect(cidrContains('10.0.0.0/8', 'ten')).toBe(false);
    expect(cidrContains('fe80::/10', 'fe80::1%eth0')).toBe(true);
    expect(cidrContains(parseCidr('10.0.0.0/8'), parseIp('10.0.0.1') ?? 'x')).toBe(true);
  });
});

describe('compileCidrs', () => {
  test('matches any block of the list', () => {
    const trusted = compileCidrs(['10.0.0.0/8', '192.168.0.0/16', '::1', 'fd00::/8']);
    expect(['10.9.9.9', '192.168.3.4', '::1', 'fd12::1', '::ffff:10.0.0.1'].map(trusted)).toEqual([
      true,
      true,
      true,
      true,
      true,
    ]);
    expect(['11.0.0.1', '192.169.0.1', '::2', 'fe80::1', 'nope'].map(trusted)).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
  });

  test('an empty list matches nothing, a /0 list everything of its family', () => {
    expect(compileCidrs([])('10.0.0.1')).toBe(false);
    const all = compileCidrs(['0.0.0.0/0']);
    expect(all('1.2.3.4')).toBe(true);
    expect(all('255.255.255.255')).toBe(true);
    expect(all('::1')).toBe(false);
  });

  test('names the invalid entry by its index', () => {
    expect(() => compileCidrs(['10.0.0.0/8', '10.0.0.300'], 'behindProxy.cidrs')).toThrow(
      'behindProxy.cidrs[1]: "10.0.0.300" is not an IP address or CIDR block',
    );
    expect(() => compileCidrs('10.0.0.0/8' as unknown as string[], 'list')).toThrow(
      /list: expected an array/,
    );
  });
});
