import { describe, expect, test } from 'bun:test';
import { clientAddress, type ProxyPosture, resolveProxyPosture } from './proxy-posture.ts';

const posture = (behindProxy?: ProxyPosture, trustProxy?: boolean) =>
  resolveProxyPosture({ behindProxy, trustProxy });

function ask(
  p: ReturnType<typeof resolveProxyPosture>,
  peer: string | undefined,
  headers: Record<string, string> = {},
) {
  return clientAddress({ peer, headers: new Headers(headers), posture: p });
}

describe('resolveProxyPosture', () => {
  test('reports unset when neither option is given', () => {
    expect(posture().kind).toBe('unset');
  });

  test('maps the legacy trustProxy switch', () => {
    expect(posture(undefined, false).kind).toBe('none');
    expect(posture(undefined, true).kind).toBe('all');
  });

  test('lets behindProxy win over trustProxy', () => {
    expect(posture('none', true).kind).toBe('none');
    expect(posture('loopback', false).kind).toBe('loopback');
    expect(posture({ hops: 2 }, true)).toEqual({ kind: 'hops', hops: 2 });
  });

  test('compiles cidrs once and keeps the list', () => {
    const p = posture({ cidrs: ['10.0.0.0/8', '::1'] });
    if (p.kind !== 'cidrs') throw new Error('expected cidrs');
    expect(p.cidrs).toEqual(['10.0.0.0/8', '::1']);
    expect(p.trusted('10.2.3.4')).toBe(true);
    expect(p.trusted('11.2.3.4')).toBe(false);
    expect(Object.isFrozen(p)).toBe(true);
  });

  const invalid: Array<[unknown, RegExp]> = [
    [{ hops: 0 }, /behindProxy.hops must be a positive integer, got 0/],
    [{ hops: 1.5 }, /positive integer/],
    [{ hops: -1 }, /positive integer/],
    [{ hops: '1' }, /positive integer/],
    [{ cidrs: [] }, /behindProxy.cidrs must be a non-empty array/],
    [{ cidrs: '10.0.0.0/8' }, /non-empty array/],
    [{ cidrs: ['10.0.0.0/8', 'nope'] }, /behindProxy.cidrs\[1\]: "nope" is not an IP address or CIDR block/],
    [{ cidrs: ['0.0.0.0/0'] }, /behindProxy.cidrs\[0\]: "0.0.0.0\/0" trusts every address/],
    [{ cidrs: ['10.0.0.0/8', '::/0'] }, /behindProxy.cidrs\[1\]: "::\/0" trusts every address/],
    [{ cidrs: ['::ffff:0:0/96'] }, /trusts every address/],
    [{ hops: 1, cidrs: ['10.0.0.0/8'] }, /exactly one of `hops` or `cidrs`/],
    [{}, /exactly one of/],
    ['all', /behindProxy must be 'none', 'loopback'/],
    [null, /behindProxy must be/],
  ];
  for (const [value, message] of invalid) {
    test(`throws for behindProxy ${JSON.stringify(value)}`, () => {
      expect(() => posture(value as ProxyPosture)).toThrow(message);
    });
  }

  test('throws for a non-boolean trustProxy', () => {
    expect(() => resolveProxyPosture({ trustProxy: 'yes' as unknown as boolean })).toThrow(
      /trustProxy must be a boolean/,
    );
  });

  test('a /0 throws a RangeError, a malformed entry a TypeError', () => {
    expect(() => posture({ cidrs: ['0.0.0.0/0'] })).toThrow(RangeError);
    expect(() => posture({ cidrs: ['x'] })).toThrow(TypeError);
  });
});

describe('clientAddress', () => {
  const xff = (value: string) => ({ 'x-forwarded-for': value });

  test('unset and none answer the peer and ignore the headers, reporting that they were there', () => {
    for (const p of [posture(), posture('none'), posture(undefined, false)]) {
      expect(ask(p, '203.0.113.9', xff('1.2.3.4'))).toEqual({
        address: '203.0.113.9',
        forwarded: true,
        via: 'peer',
      });
      expect(ask(p, '203.0.113.9')).toEqual({ address: '203.0.113.9', forwarded: false, via: 'peer' });
    }
  });

  test('answers the peer in canonical form, IPv4-mapped as IPv4, zone dropped', () => {
    const p = posture('none');
    expect(ask(p, '::ffff:192.0.2.1').address).toBe('192.0.2.1');
    expect(ask(p, '2001:DB8::0:1').address).toBe('2001:db8::1');
    expect(ask(p, 'fe80::1%eth0').address).toBe('fe80::1');
    expect(ask(p, undefined).address).toBeUndefined();
    expect(ask(p, 'not an address').address).toBeUndefined();
  });

  test('trustProxy: true takes the left-most hop', () => {
    const p = posture(undefined, true);
    expect(ask(p, '10.0.0.1', xff('203.0.113.7, 10.0.0.2'))).toEqual({
      address: '203.0.113.7',
      forwarded: true,
      via: 'x-forwarded-for',
    });
    expect(ask(p, '10.0.0.1', xff('unknown, 10.0.0.2')).address).toBeUndefined();
    expect(ask(p, '10.0.0.1').address).toBe('10.0.0.1');
  });

  describe('loopback', () => {
    const p = posture('loopback');

    test('honours the headers from a loopback peer, skipping loopback hops from the right', () => {
      expect(ask(p, '127.0.0.1', xff('198.51.100.1, 203.0.113.7, ::1, 127.0.0.2'))).toEqual({
        address: '203.0.113.7',
        forwarded: true,
        via: 'x-forwarded-for',
      });
      expect(ask(p, '::ffff:127.0.0.1', xff('203.0.113.7')).address).toBe('203.0.113.7');
    });

    test('ignores the headers from any other peer', () => {
      expect(ask(p, '203.0.113.50', xff('1.2.3.4'))).toEqual({
        address: '203.0.113.50',
        forwarded: true,
        via: 'peer',
      });
      expect(ask(p, '10.0.0.1', xff('1.2.3.4')).address).toBe('10.0.0.1');
      expect(ask(p, undefined, xff('1.2.3.4')).address).toBeUndefined();
    });

    test('answers the left-most hop when every hop is loopback', () => {
      expect(ask(p, '127.0.0.1', xff('127.0.0.5, ::1')).address).toBe('127.0.0.5');
      expect(ask(p, '127.0.0.1').address).toBe('127.0.0.1');
    });

    test('answers undefined when the first non-loopback hop is obfuscated or garbage', () => {
      expect(ask(p, '127.0.0.1', xff('203.0.113.7, garbage')).address).toBeUndefined();
      expect(ask(p, '127.0.0.1', { forwarded: 'for=203.0.113.7, for=_proxy' })).toEqual({
        address: undefined,
        forwarded: true,
        via: 'forwarded',
      });
    });
  });

  describe('hops', () => {
    test('with one proxy (hops: 1) the client is the right-most header entry', () => {
      // client 203.0.113.7 -> proxy 10.0.0.1 -> app; the client forged "1.2.3.4".
      const p = posture({ hops: 1 });
      expect(ask(p, '10.0.0.1', xff('1.2.3.4, 203.0.113.7'))).toEqual({
        address: '203.0.113.7',
        forwarded: true,
        via: 'x-forwarded-for',
      });
    });

    test('with two proxies (hops: 2) the client is the second entry from the right', () => {
      // client 203.0.113.7 -> CDN 198.51.100.9 -> LB 10.0.0.1 -> app.
      const p = posture({ hops: 2 });
      expect(ask(p, '10.0.0.1', xff('1.2.3.4, 203.0.113.7, 198.51.100.9')).address).toBe('203.0.113.7');
    });

    test('answers the left-most hop when the chain is shorter than the proxies', () => {
      const p = posture({ hops: 2 });
      expect(ask(p, '10.0.0.1', xff('203.0.113.7'))).toEqual({
        address: '203.0.113.7',
        forwarded: true,
        via: 'x-forwarded-for',
      });
      expect(ask(p, '10.0.0.1')).toEqual({ address: '10.0.0.1', forwarded: false, via: 'peer' });
    });

    test('answers undefined when the hop at the client position is not an address', () => {
      const p = posture({ hops: 1 });
      expect(ask(p, '10.0.0.1', xff('203.0.113.7, unknown')).address).toBeUndefined();
      expect(ask(p, '10.0.0.1', { forwarded: 'for="_gazonk"' }).address).toBeUndefined();
    });

    test('counts an unknown peer as the nearest hop', () => {
      expect(ask(posture({ hops: 1 }), undefined, xff('203.0.113.7')).address).toBe('203.0.113.7');
    });
  });

  describe('cidrs', () => {
    const p = posture({ cidrs: ['10.0.0.0/8', '2001:db8:ffff::/48'] });

    test('walks from the peer while hops are trusted; the first untrusted hop is the client', () => {
      expect(ask(p, '10.0.0.1', xff('1.2.3.4, 203.0.113.7, 10.0.0.9, 2001:db8:ffff::2'))).toEqual({
        address: '203.0.113.7',
        forwarded: true,
        via: 'x-forwarded-for',
      });
    });

    test('an untrusted peer is the client, whatever the headers say', () => {
      expect(ask(p, '203.0.113.50', xff('1.2.3.4'))).toEqual({
        address: '203.0.113.50',
        forwarded: true,
        via: 'peer',
      });
      expect(ask(p, undefined, xff('1.2.3.4')).address).toBeUndefined();
    });

    test('answers the left-most hop when every hop is trusted', () => {
      expect(ask(p, '10.0.0.1', xff('10.9.9.9, 10.0.0.2')).address).toBe('10.9.9.9');
    });

    test('answers undefined when the walk meets a hop that is not an address', () => {
      expect(ask(p, '10.0.0.1', xff('203.0.113.7, _hidden, 10.0.0.2')).address).toBeUndefined();
      expect(ask(p, '10.0.0.1', xff('203.0.113.7, 10.0.0.2:99999')).address).toBeUndefined();
    });
  });

  describe('Forwarded', () => {
    const p = posture({ hops: 1 });

    test('is read when X-Forwarded-For is absent, several lines included', () => {
      const headers = new Headers();
      headers.append('forwarded', 'for=1.2.3.4');
      headers.append('forwarded', 'for="[2001:db8:cafe::17]:4711";proto=https');
      expect(clientAddress({ peer: '10.0.0.1', headers, posture: p })).toEqual({
        address: '2001:db8:cafe::17',
        forwarded: true,
        via: 'forwarded',
      });
    });

    test('yields to X-Forwarded-For when both are present', () => {
      const both = { forwarded: 'for=1.2.3.4', 'x-forwarded-for': '203.0.113.7' };
      expect(ask(p, '10.0.0.1', both)).toEqual({
        address: '203.0.113.7',
        forwarded: true,
        via: 'x-forwarded-for',
      });
    });

    test('an element without `for` holds its position and gives undefined there', () => {
      expect(ask(p, '10.0.0.1', { forwarded: 'for=203.0.113.7, proto=https' }).address).toBeUndefined();
    });
  });
});
