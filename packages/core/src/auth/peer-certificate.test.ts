import { describe, expect, test } from 'bun:test';
import { createHash, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { parseCertificate, peerCertificate, setPeerCertificate } from './peer-certificate.ts';
import { decodeCertificate, MAX_CERTIFICATE_BYTES } from './x509.ts';
import { canonicalizeIp } from '../net/ip.ts';
import { linkRequest } from '../pipeline/client-address.ts';

// ---------------------------------------------------------------------------------------------------
// A small DER writer (X.690 §10), enough to build certificates shaped as the tests need. Signatures are
// junk: the decoder verifies nothing.

const ascii = (text: string): Uint8Array => Uint8Array.from(text, (c) => c.charCodeAt(0));

function tlv(tag: number, ...contents: Uint8Array[]): Uint8Array {
  const length = contents.reduce((sum, part) => sum + part.length, 0);
  const lengthBytes: number[] = [];
  if (length < 0x80) lengthBytes.push(length);
  else {
    for (let n = length; n > 0; n = Math.floor(n / 256)) lengthBytes.unshift(n & 0xff);
    lengthBytes.unshift(0x80 | lengthBytes.length);
  }
  const out = new Uint8Array(1 + lengthBytes.length + length);
  out[0] = tag;
  out.set(lengthBytes, 1);
  let offset = 1 + lengthBytes.length;
  for (const part of contents) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

const seq = (...contents: Uint8Array[]) => tlv(0x30, ...contents);
const set = (...contents: Uint8Array[]) => tlv(0x31, ...contents);
const utf8 = (text: string) => tlv(0x0c, new TextEncoder().encode(text));
const printable = (text: string) => tlv(0x13, ascii(text));

function oid(dotted: string): Uint8Array {
  const arcs = dotted.split('.').map(Number);
  const values = [(arcs[0] as number) * 40 + (arcs[1] as number), ...arcs.slice(2)];
  const bytes: number[] = [];
  for (const value of values) {
    const chunk = [value & 0x7f];
    for (let n = Math.floor(value / 128); n > 0; n = Math.floor(n / 128)) chunk.unshift((n & 0x7f) | 0x80);
    bytes.push(...chunk);
  }
  return tlv(0x06, Uint8Array.from(bytes));
}

/** A Name with one attribute per RDN, or several in one RDN when given as an array. */
function name(...rdns: Array<[string, Uint8Array] | Array<[string, Uint8Array]>>): Uint8Array {
  return seq(
    ...rdns.map((rdn) => {
      const attributes = (Array.isArray(rdn[0]) ? rdn : [rdn]) as Array<[string, Uint8Array]>;
      return set(...attributes.map(([type, value]) => seq(oid(type), value)));
    }),
  );
}

const CN = '2.5.4.3';
const O = '2.5.4.10';
const OU = '2.5.4.11';
const SAN = '2.5.29.17';

interface CertificateParts {
  version?: boolean;
  serial?: Uint8Array;
  issuer?: Uint8Array;
  subject?: Uint8Array;
  notBefore?: Uint8Array;
  notAfter?: Uint8Array;
  extensions?: Uint8Array[];
}

function certificate(parts: CertificateParts = {}): Uint8Array {
  const spki = seq(
    seq(oid('1.2.840.10045.2.1'), oid('1.2.840.10045.3.1.7')),
    tlv(0x03, new Uint8Array([0, 4, 1, 2])),
  );
  const tbs = seq(
    ...(parts.version === false ? [] : [tlv(0xa0, tlv(0x02, new Uint8Array([2])))]),
    tlv(0x02, parts.serial ?? new Uint8Array([0x01, 0x02])),
    seq(oid('1.2.840.10045.4.3.2')),
    parts.issuer ?? name([CN, utf8('Test CA')]),
    seq(
      parts.notBefore ?? tlv(0x17, ascii('250101000000Z')),
      parts.notAfter ?? tlv(0x18, ascii('21250101000000Z')),
    ),
    parts.subject ?? name([CN, utf8('client-a')]),
    spki,
    ...(parts.extensions === undefined ? [] : [tlv(0xa3, seq(...parts.extensions))]),
  );
  return seq(tbs, seq(oid('1.2.840.10045.4.3.2')), tlv(0x03, new Uint8Array([0, 0x30, 0])));
}

function pemToDer(path: string): Uint8Array {
  const pem = readFileSync(path, 'utf8');
  const body = pem.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, '');
  return Uint8Array.from(atob(body), (c) => c.charCodeAt(0));
}

const FIXTURES = join(import.meta.dir, '../../../../tests/fixtures/tls');

// ---------------------------------------------------------------------------------------------------

describe('decodeCertificate on real certificates', () => {
  for (const file of ['client.crt', 'server.crt', 'ca.crt', 'rogue-client.crt']) {
    test(`reads ${file} as node:crypto's X509Certificate does`, async () => {
      const der = pemToDer(join(FIXTURES, file));
      const reference = new X509Certificate(der);
      const cert = await parseCertificate(der, { authorized: true });
      const dn = (value: Record<string, readonly string[]>) =>
        Object.entries(value)
          .flatMap(([key, values]) => values.map((v) => `${key}=${v}`))
          .join('\n');
      expect(dn(cert.subject)).toBe(reference.subject);
      expect(dn(cert.issuer)).toBe(reference.issuer);
      expect(cert.serialNumber).toBe(reference.serialNumber);
      expect(cert.fingerprint256).toBe(reference.fingerprint256);
      expect(cert.validFrom.getTime()).toBe(new Date(reference.validFrom).getTime());
      expect(cert.validTo.getTime()).toBe(new Date(reference.validTo).getTime());
      const san = (reference.subjectAltName ?? '').split(', ').filter(Boolean);
      expect(cert.subjectAltName.dns).toEqual(san.filter((s) => s.startsWith('DNS:')).map((s) => s.slice(4)));
      expect(cert.subjectAltName.ip).toEqual(
        san.filter((s) => s.startsWith('IP Address:')).map((s) => canonicalizeIp(s.slice(11)) as string),
      );
      expect(cert.raw).toEqual(der);
      expect(cert.authorized).toBe(true);
    });
  }

  test('gives the server certificate its DNS and IP alternative names', () => {
    const cert = decodeCertificate(pemToDer(join(FIXTURES, 'server.crt')));
    expect(cert.subjectAltName).toEqual({ dns: ['localhost'], email: [], uri: [], ip: ['127.0.0.1', '::1'] });
  });
});

describe('decodeCertificate on built certificates', () => {
  test('reads every alternative-name form it keeps, skips the others, and reads past a critical flag', () => {
    const altNames = seq(
      tlv(0x82, ascii('api.example')),
      tlv(0x81, ascii('ops@example.com')),
      tlv(0x86, ascii('spiffe://example.org/payments')),
      tlv(0x87, new Uint8Array([10, 0, 0, 1])),
      tlv(0x87, new Uint8Array([0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1])),
      tlv(0xa4, name([CN, utf8('directory name')])),
      tlv(0x87, new Uint8Array([1, 2, 3])), // not an address: skipped
    );
    const der = certificate({
      extensions: [
        seq(oid('2.5.29.19'), tlv(0x04, seq())),
        seq(oid(SAN), tlv(0x01, new Uint8Array([0xff])), tlv(0x04, altNames)),
      ],
    });
    expect(decodeCertificate(der).subjectAltName).toEqual({
      dns: ['api.example'],
      email: ['ops@example.com'],
      uri: ['spiffe://example.org/payments'],
      ip: ['10.0.0.1', '2001:db8::1'],
    });
  });

  test('keeps repeated and multi-valued attributes in order, and names unknown types by OID', () => {
    const der = certificate({
      subject: name(
        [O, printable('Acme')],
        [
          [OU, utf8('payments')],
          [OU, utf8('ops')],
        ],
        [CN, utf8('svc')],
        ['1.3.6.1.4.1.99999.1', utf8('custom')],
      ),
    });
    expect(decodeCertificate(der).subject).toEqual({
      O: ['Acme'],
      OU: ['payments', 'ops'],
      CN: ['svc'],
      '1.3.6.1.4.1.99999.1': ['custom'],
    });
  });

  test('decodes BMPString, UniversalString and TeletexString, and gives other types as #hex', () => {
    const bmp = tlv(0x1e, new Uint8Array([0x00, 0x63, 0x00, 0xe9]));
    const universal = tlv(0x1c, new Uint8Array([0, 1, 0xf6, 0x00]));
    const teletex = tlv(0x14, new Uint8Array([0x63, 0xe9]));
    const integer = tlv(0x02, new Uint8Array([0x05]));
    const der = certificate({ subject: name([CN, bmp], [CN, universal], [CN, teletex], [O, integer]) });
    expect(decodeCertificate(der).subject).toEqual({ CN: ['cé', '\u{1F600}', 'cé'], O: ['#020105'] });
  });

  test('reads UTCTime with the RFC 5280 century rule and GeneralizedTime', () => {
    const old = certificate({
      notBefore: tlv(0x17, ascii('991231235959Z')),
      notAfter: tlv(0x17, ascii('490101000000Z')),
    });
    const fields = decodeCertificate(old);
    expect(fields.validFrom.toISOString()).toBe('1999-12-31T23:59:59.000Z');
    expect(fields.validTo.toISOString()).toBe('2049-01-01T00:00:00.000Z');
    expect(decodeCertificate(certificate()).validTo.toISOString()).toBe('2125-01-01T00:00:00.000Z');
  });

  test('drops the DER sign byte of the serial number and reads a v1 certificate without a version', () => {
    const fields = decodeCertificate(
      certificate({ serial: new Uint8Array([0x00, 0x8f, 0x01]), version: false }),
    );
    expect(fields.serialNumber).toBe('8F01');
    expect(decodeCertificate(certificate({ serial: new Uint8Array([0x00]) })).serialNumber).toBe('00');
  });

  test('reads a long-form length (a subject larger than 127 bytes)', () => {
    const long = 'x'.repeat(300);
    expect(decodeCertificate(certificate({ subject: name([CN, utf8(long)]) })).subject.CN).toEqual([long]);
  });

  const malformed: Record<string, () => Uint8Array> = {
    'empty input': () => new Uint8Array(0),
    'trailing bytes': () => new Uint8Array([...certificate(), 0]),
    truncation: () => certificate().slice(0, 40),
    'a SET where the certificate SEQUENCE should be': () => tlv(0x31, certificate().slice(2)),
    'an indefinite length': () => new Uint8Array([0x30, 0x80, 0x00, 0x00]),
    'a malformed UTCTime': () => certificate({ notBefore: tlv(0x17, ascii('2501010000Z')) }),
    'a 13th month': () => certificate({ notBefore: tlv(0x17, ascii('251301000000Z')) }),
    'February 30th': () => certificate({ notAfter: tlv(0x18, ascii('20250230000000Z')) }),
    'a local time without Z': () => certificate({ notBefore: tlv(0x17, ascii('250101000000+')) }),
    'an empty serial number': () => certificate({ serial: new Uint8Array(0) }),
    'an RDN that is not a SET': () => certificate({ subject: seq(seq(seq(oid(CN), utf8('x')))) }),
    'an attribute without a value': () => certificate({ subject: seq(set(seq(oid(CN)))) }),
    'a truncated OID': () =>
      certificate({ subject: seq(set(seq(tlv(0x06, new Uint8Array([0x55, 0x84])), utf8('x')))) }),
    'a malformed subjectAltName': () =>
      certificate({ extensions: [seq(oid(SAN), tlv(0x04, new Uint8Array([0x30, 5])))] }),
    'more than 64 KiB': () => new Uint8Array(MAX_CERTIFICATE_BYTES + 1),
  };
  malformed['a missing subject'] = () => {
    // Validity followed directly by the public key: the key is read as the subject, then nothing is left.
    const spki = seq(seq(oid('1.2.840.10045.2.1')), tlv(0x03, new Uint8Array([0, 4])));
    const tbs = seq(
      tlv(0x02, new Uint8Array([1])),
      seq(oid('1.2.840.10045.4.3.2')),
      name([CN, utf8('CA')]),
      seq(tlv(0x17, ascii('250101000000Z')), tlv(0x17, ascii('260101000000Z'))),
      spki,
    );
    return seq(tbs, seq(oid('1.2.840.10045.4.3.2')), tlv(0x03, new Uint8Array([0])));
  };
  for (const [what, build] of Object.entries(malformed)) {
    test(`throws a TypeError for ${what}`, () => {
      expect(() => decodeCertificate(build())).toThrow(TypeError);
    });
  }

  test('never throws anything but a TypeError, and never hangs, on arbitrary bytes or damaged certificates', () => {
    const base = certificate({ extensions: [seq(oid(SAN), tlv(0x04, seq(tlv(0x82, ascii('a.example')))))] });
    const check = (bytes: Uint8Array) => {
      try {
        decodeCertificate(bytes);
      } catch (error) {
        expect(error).toBeInstanceOf(TypeError);
      }
    };
    fc.assert(fc.property(fc.uint8Array({ maxLength: 300 }), check), { numRuns: 500 });
    fc.assert(
      fc.property(fc.nat(base.length - 1), fc.nat(255), (at, byte) => {
        const damaged = base.slice();
        damaged[at] = byte;
        check(damaged);
      }),
      { numRuns: 1000 },
    );
  });
});

describe('parseCertificate', () => {
  test('adds the SHA-256 fingerprint and defaults to not authorized', async () => {
    const der = certificate();
    const cert = await parseCertificate(der);
    const digest = createHash('sha256').update(der).digest('hex');
    expect(cert.fingerprint256.replaceAll(':', '')).toBe(digest.toUpperCase());
    expect(cert.fingerprint256).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
    expect(cert.authorized).toBe(false);
    expect('authorizationError' in cert).toBe(false);
    const refused = await parseCertificate(der, { authorizationError: 'CERT_REVOKED' });
    expect(refused.authorizationError).toBe('CERT_REVOKED');
  });
});

describe('peer certificate registry', () => {
  test('returns what the adapter recorded, also through the ctx.request wrapper, and nothing otherwise', async () => {
    const cert = await parseCertificate(certificate(), { authorized: true });
    const original = new Request('https://api.example/');
    const wrapper = new Request(original);
    expect(peerCertificate(original)).toBeUndefined();
    setPeerCertificate(original, cert);
    expect(peerCertificate(original)).toBe(cert);
    expect(peerCertificate(wrapper)).toBeUndefined();
    linkRequest(wrapper, original);
    expect(peerCertificate(wrapper)).toBe(cert);
    expect(peerCertificate(new Request('https://api.example/'))).toBeUndefined();
  });
});
