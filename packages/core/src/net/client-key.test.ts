import { describe, expect, test } from 'bun:test';
import { clientKey, resolveIpv6Prefix } from './client-key.ts';

describe('clientKey', () => {
  test('keys IPv6 clients by their /64 by default, so rotating the interface id changes nothing', () => {
    expect(clientKey('2001:db8:1:2:aaaa:bbbb:cccc:dddd')).toBe('2001:db8:1:2::/64');
    expect(clientKey('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(clientKey('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
  });

  test('honours other prefix lengths, including ones that cut a byte', () => {
    expect(clientKey('2001:db8:1:2::1', 48)).toBe('2001:db8:1::/48');
    expect(clientKey('2001:db8:ffff::1', 36)).toBe('2001:db8:f000::/36');
    expect(clientKey('2001:db8::1', 128)).toBe('2001:db8::1');
  });

  test('keeps IPv4 and IPv4-mapped IPv6 on the IPv4 address', () => {
    expect(clientKey('203.0.113.9')).toBe('203.0.113.9');
    expect(clientKey('::ffff:203.0.113.9')).toBe('203.0.113.9');
  });

  test('returns text that is not an address unchanged', () => {
    expect(clientKey('unknown')).toBe('unknown');
    expect(clientKey('user:42')).toBe('user:42');
  });
});

describe('resolveIpv6Prefix', () => {
  test('defaults to 64 and accepts 1 to 128', () => {
    expect(resolveIpv6Prefix('rateLimit', undefined)).toBe(64);
    expect(resolveIpv6Prefix('rateLimit', 48)).toBe(48);
    expect(resolveIpv6Prefix('rateLimit', 128)).toBe(128);
  });

  test('refuses anything else, naming the option', () => {
    for (const bad of [0, 129, 64.5, '64', Number.NaN]) {
      expect(() => resolveIpv6Prefix('rateLimit', bad)).toThrow(
        'rateLimit option "ipv6Prefix" must be an integer from 1 to 128',
      );
    }
  });
});
