import { describe, expect, test } from 'bun:test';
import { classifyIp, embeddedIpv4, type IpClass, METADATA_ADDRESSES } from './ip-class.ts';
import { canonicalizeIp, formatIp, ipEquals, isIp, parseIp, unmapIpv4 } from './ip.ts';

const must = (text: string, options?: Parameters<typeof parseIp>[1]) => {
  const address = parseIp(text, options);
  if (address === undefined) throw new Error(`expected ${text} to parse`);
  return address;
};

describe('parseIp (IPv4)', () => {
  test('reads dotted quads into four bytes', () => {
    expect(must('192.0.2.1')).toEqual({ version: 4, bytes: new Uint8Array([192, 0, 2, 1]) });
    expect(must('0.0.0.0').bytes).toEqual(new Uint8Array([0, 0, 0, 0]));
    expect(must('255.255.255.255').bytes).toEqual(new Uint8Array([255, 255, 255, 255]));
  });

  for (const text of [
    '256.0.0.1',
    '1.2.3',
    '1.2.3.4.5',
    '01.2.3.4',
    '1.2.3.04',
    '1.2.3.',
    '.1.2.3',
    '1..2.3',
    '+1.2.3.4',
    ' 1.2.3.4',
    '1.2.3.4 ',
    '0x7f.0.0.1',
    '2130706433',
    '１.2.3.4',
    '',
  ]) {
    test(`refuses ${JSON.stringify(text)} in strict mode`, () => {
      expect(parseIp(text)).toBeUndefined();
      expect(isIp(text)).toBe(false);
    });
  }

  const legacy: Array<[string, string]> = [
    ['2130706433', '127.0.0.1'],
    ['0177.0.0.1', '127.0.0.1'],
    ['0x7f.1', '127.0.0.1'],
    ['0X7F.0.0.1', '127.0.0.1'],
    ['127.1', '127.0.0.1'],
    ['127.0.1', '127.0.0.1'],
    ['10.65535', '10.0.255.255'],
    ['0x', '0.0.0.0'],
    ['017700000001', '127.0.0.1'],
    ['0xa9fea9fe', '169.254.169.254'],
    ['127.0.0.1.', '127.0.0.1'],
    ['4294967295', '255.255.255.255'],
  ];
  for (const [text, canonical] of legacy) {
    test(`reads the legacy form ${text} as ${canonical} when legacyIpv4 is set`, () => {
      expect(canonicalizeIp(text, { legacyIpv4: true })).toBe(canonical);
      // The URL Standard reads the same text the same way.
      expect(new URL(`http://${text}/`).hostname).toBe(canonical);
    });
  }

  for (const text of [
    '4294967296',
    '256.1',
    '1.16777216',
    '08.0.0.1',
    '0x1g',
    '1.2.3.4.5',
    '.',
    '1..',
    'example',
  ]) {
    test(`refuses the legacy text ${JSON.stringify(text)}`, () => {
      expect(parseIp(text, { legacyIpv4: true })).toBeUndefined();
    });
  }
});

describe('parseIp (IPv6)', () => {
  const forms: Array<[string, string]> = [
    ['::', '::'],
    ['::1', '::1'],
    ['1::', '1::'],
    ['2001:DB8:0:0:8:800:200C:417A', '2001:db8::8:800:200c:417a'],
    ['2001:db8:0000:0000:0000:0000:0000:0001', '2001:db8::1'],
    ['ff01::101', 'ff01::101'],
    ['::ffff:192.0.2.1', '::ffff:192.0.2.1'],
    ['::ffff:c000:201', '::ffff:192.0.2.1'],
    ['::192.0.2.1', '::c000:201'],
    ['64:ff9b::192.0.2.1', '64:ff9b::c000:201'],
    ['1:2:3:4:5:6:7::', '1:2:3:4:5:6:7:0'],
    ['::2:3:4:5:6:7:8', '0:2:3:4:5:6:7:8'],
    ['1:2:3:4:5:6:1.2.3.4', '1:2:3:4:5:6:102:304'],
  ];
  for (const [text, canonical] of forms) {
    test(`reads ${text} and formats it as ${canonical}`, () => {
      const address = must(text);
      expect(address.version).toBe(6);
      expect(address.bytes).toHaveLength(16);
      expect(formatIp(address)).toBe(canonical);
    });
  }

  for (const text of [
    ':',
    ':::',
    '1:2:3:4:5:6:7',
    '1:2:3:4:5:6:7:8:9',
    '1:2:3:4:5:6:7:8::',
    '::1:2:3:4:5:6:7:8',
    '1::2::3',
    '12345::',
    '1:',
    ':1',
    'g::',
    '::1.2.3',
    '::1.2.3.04',
    '::256.0.0.1',
    '1:2:3:4:5:6:7:1.2.3.4',
    '[::1]',
    '::1 ',
  ]) {
    test(`refuses ${JSON.stringify(text)}`, () => {
      expect(parseIp(text)).toBeUndefined();
    });
  }

  test('refuses a zone id by default and strips it on request', () => {
    expect(parseIp('fe80::1%eth0')).toBeUndefined();
    expect(canonicalizeIp('fe80::1%eth0', { zone: 'strip' })).toBe('fe80::1');
    expect(parseIp('fe80::1%', { zone: 'strip' })).toBeUndefined();
    expect(parseIp('fe80::1%eth 0', { zone: 'strip' })).toBeUndefined();
    expect(parseIp('fe80::1%eth%0', { zone: 'strip' })).toBeUndefined();
    expect(parseIp('1.2.3.4%eth0', { zone: 'strip' })).toBeUndefined();
  });
});

describe('formatIp', () => {
  // RFC 5952 §4: each rule with its own example.
  test('compresses the longest zero run, the first one on a tie, never a single group', () => {
    expect(canonicalizeIp('2001:db8:0:0:1:0:0:1')).toBe('2001:db8::1:0:0:1');
    expect(canonicalizeIp('2001:0:0:1:0:0:0:1')).toBe('2001:0:0:1::1');
    expect(canonicalizeIp('2001:db8:0:1:1:1:1:1')).toBe('2001:db8:0:1:1:1:1:1');
    expect(canonicalizeIp('2001:0db8::0001')).toBe('2001:db8::1');
  });

  test('unmapIpv4 and ipEquals treat an IPv4-mapped address as its IPv4 address', () => {
    expect(formatIp(unmapIpv4(must('::ffff:10.0.0.1')))).toBe('10.0.0.1');
    expect(unmapIpv4(must('::10.0.0.1')).version).toBe(6);
    expect(ipEquals(must('::ffff:10.0.0.1'), must('10.0.0.1'))).toBe(true);
    expect(ipEquals(must('::10.0.0.1'), must('10.0.0.1'))).toBe(false);
    expect(ipEquals(must('2001:db8::1'), must('2001:DB8:0::1'))).toBe(true);
  });
});

describe('classifyIp', () => {
  const table: Array<[string, IpClass]> = [
    ['8.8.8.8', 'public'],
    ['2606:4700:4700::1111', 'public'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['::1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['172.32.0.1', 'public'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'private'],
    ['100.128.0.1', 'public'],
    ['169.254.1.1', 'link-local'],
    ['fe80::1', 'link-local'],
    ['febf::1', 'link-local'],
    ['fc00::1', 'unique-local'],
    ['fd12:3456::1', 'unique-local'],
    ['169.254.169.254', 'metadata'],
    ['169.254.170.2', 'metadata'],
    ['fd00:ec2::254', 'metadata'],
    ['100.100.100.200', 'metadata'],
    ['168.63.129.16', 'metadata'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['::', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['ff02::1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['192.0.2.1', 'documentation'],
    ['198.51.100.1', 'documentation'],
    ['203.0.113.1', 'documentation'],
    ['2001:db8::1', 'documentation'],
    ['3fff:fff::1', 'documentation'],
    ['240.0.0.1', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['192.0.0.1', 'reserved'],
    ['fec0::1', 'reserved'],
    ['100::1', 'reserved'],
    ['4000::1', 'reserved'],
    ['2001:2::1', 'reserved'],
  ];
  for (const [text, cls] of table) {
    test(`classifies ${text} as ${cls}`, () => {
      expect(classifyIp(must(text))).toBe(cls);
    });
  }

  test('every metadata address is classified as metadata', () => {
    for (const text of METADATA_ADDRESSES) expect(classifyIp(must(text))).toBe('metadata');
  });

  const embedded: Array<[string, string, IpClass]> = [
    ['::ffff:127.0.0.1', '127.0.0.1', 'loopback'],
    ['::ffff:169.254.169.254', '169.254.169.254', 'metadata'],
    ['::10.0.0.1', '10.0.0.1', 'private'],
    ['64:ff9b::7f00:1', '127.0.0.1', 'loopback'],
    ['64:ff9b::8.8.8.8', '8.8.8.8', 'public'],
    ['64:ff9b:1::a9fe:a9fe', '169.254.169.254', 'metadata'],
    ['2002:c0a8:101::1', '192.168.1.1', 'private'],
    ['2002:808:808::1', '8.8.8.8', 'public'],
    // Teredo: server 65.54.227.120, client 192.168.1.1 stored inverted (3f57:fefe).
    ['2001:0:4136:e378:8000:63bf:3f57:fefe', '192.168.1.1', 'private'],
  ];
  for (const [text, v4, cls] of embedded) {
    test(`classifies ${text} by the IPv4 address it embeds (${v4})`, () => {
      const address = must(text);
      const inner = embeddedIpv4(address);
      expect(inner === undefined ? undefined : formatIp(inner)).toBe(v4);
      expect(classifyIp(address)).toBe(cls);
    });
  }

  test('refuses 64:ff9b:1::/48 addresses that do not use the /96 layout', () => {
    expect(embeddedIpv4(must('64:ff9b:1:7f00:1::808:808'))).toBeUndefined();
    expect(classifyIp(must('64:ff9b:1:7f00:1::808:808'))).toBe('reserved');
  });

  test('embeds nothing in :: and ::1 or in native IPv6 addresses', () => {
    expect(embeddedIpv4(must('::'))).toBeUndefined();
    expect(embeddedIpv4(must('::1'))).toBeUndefined();
    expect(embeddedIpv4(must('2606:4700::1'))).toBeUndefined();
    expect(embeddedIpv4(must('8.8.8.8'))).toBeUndefined();
  });
});
