/**
 * A reader for DER X.509 certificates (RFC 5280 §4.1, ITU-T X.690): the fields authentication needs
 * (names, serial, validity, subject alternative names), and nothing more. It verifies nothing: no
 * signature, no chain. Trust comes from whoever handed the bytes over.
 */
import { formatIp } from '../net/ip.ts';

/**
 * A distinguished name (RFC 5280 §4.1.2.4): attribute short names (`CN`, `O`, `OU`, `C`... as OpenSSL
 * spells them) or dotted OIDs, each with its values in certificate order (most general RDN first).
 */
export type DistinguishedName = Readonly<Record<string, readonly string[]>>;

/** The subject alternative names (RFC 5280 §4.2.1.6) this record keeps, in certificate order. */
export interface SubjectAltNames {
  /** dNSName entries. */
  readonly dns: readonly string[];
  /** rfc822Name entries (email addresses). */
  readonly email: readonly string[];
  /** uniformResourceIdentifier entries (e.g. a SPIFFE ID `spiffe://trust-domain/path`). */
  readonly uri: readonly string[];
  /** iPAddress entries, as canonical text (RFC 5952 for IPv6). */
  readonly ip: readonly string[];
}

/** What `decodeCertificate` reads from DER: everything but the fingerprint and the TLS verdict. */
export interface CertificateFields {
  readonly subject: DistinguishedName;
  readonly issuer: DistinguishedName;
  readonly subjectAltName: SubjectAltNames;
  /** The serial number, upper-case hex, two digits per byte, without the DER sign byte. */
  readonly serialNumber: string;
  /** notBefore (RFC 5280 §4.1.2.5). */
  readonly validFrom: Date;
  /** notAfter (RFC 5280 §4.1.2.5). */
  readonly validTo: Date;
  /** The certificate, DER. */
  readonly raw: Uint8Array;
}

/** The largest certificate decoded, in bytes: client certificates are a few KiB. */
export const MAX_CERTIFICATE_BYTES = 65536;

// ---------------------------------------------------------------------------------------------------
// DER (ITU-T X.690 §8, §10): tag, length, contents.

function fail(why: string): never {
  throw new TypeError(`Not a DER X.509 certificate: ${why}`);
}

interface Tlv {
  /** Where the element (its tag byte) starts. */
  readonly offset: number;
  readonly tag: number;
  /** First content byte. */
  readonly start: number;
  /** One past the last content byte: where the next element starts. */
  readonly end: number;
}

function readTlv(der: Uint8Array, offset: number, limit: number): Tlv {
  if (offset + 2 > limit) fail('truncated element');
  const tag = der[offset] as number;
  // Multi-byte tags (X.690 §8.1.2.4) never occur in the parts of a certificate read here.
  if ((tag & 0x1f) === 0x1f) fail('unsupported tag');
  let length = der[offset + 1] as number;
  let start = offset + 2;
  if (length & 0x80) {
    const count = length & 0x7f;
    // 0x80 is BER's indefinite length, which DER forbids (X.690 §10.1); 4 bytes cover any certificate.
    if (count === 0 || count > 4) fail('unsupported length');
    if (start + count > limit) fail('truncated length');
    length = 0;
    for (let i = 0; i < count; i++) length = length * 256 + (der[start + i] as number);
    start += count;
  }
  if (start + length > limit) fail('element longer than its container');
  return { offset, tag, start, end: start + length };
}

/** The elements inside a constructed element, in order. */
function children(der: Uint8Array, parent: Tlv): Tlv[] {
  const list: Tlv[] = [];
  for (let offset = parent.start; offset < parent.end; ) {
    const child = readTlv(der, offset, parent.end);
    list.push(child);
    offset = child.end;
  }
  return list;
}

function expectTag(tlv: Tlv | undefined, tag: number, what: string): Tlv {
  if (tlv === undefined || tlv.tag !== tag) fail(`expected ${what}`);
  return tlv;
}

const hex = (bytes: Uint8Array): string => {
  let out = '';
  for (const byte of bytes) out += byte.toString(16).padStart(2, '0');
  return out.toUpperCase();
};

/** An OBJECT IDENTIFIER in dotted form (X.690 §8.19). */
function decodeOid(bytes: Uint8Array): string {
  if (bytes.length === 0) fail('empty object identifier');
  const arcs: number[] = [];
  let value = 0;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i] as number;
    value = value * 128 + (byte & 0x7f);
    if (value > Number.MAX_SAFE_INTEGER / 128) fail('object identifier arc too large');
    if (byte & 0x80) {
      if (i === bytes.length - 1) fail('truncated object identifier');
      continue;
    }
    if (arcs.length === 0) {
      // The first subidentifier packs the first two arcs as 40·X + Y, X in 0..2 (§8.19.4).
      const first = value < 80 ? Math.floor(value / 40) : 2;
      arcs.push(first, value - first * 40);
    } else {
      arcs.push(value);
    }
    value = 0;
  }
  return arcs.join('.');
}

/** Attribute types (RFC 5280 §4.1.2.4, Appendix A; RFC 4519) under the short names OpenSSL gives them. */
const ATTRIBUTE_NAMES: Readonly<Record<string, string>> = {
  '2.5.4.3': 'CN',
  '2.5.4.4': 'SN',
  '2.5.4.5': 'serialNumber',
  '2.5.4.6': 'C',
  '2.5.4.7': 'L',
  '2.5.4.8': 'ST',
  '2.5.4.9': 'street',
  '2.5.4.10': 'O',
  '2.5.4.11': 'OU',
  '2.5.4.12': 'title',
  '2.5.4.17': 'postalCode',
  '2.5.4.41': 'name',
  '2.5.4.42': 'GN',
  '2.5.4.43': 'initials',
  '2.5.4.44': 'generationQualifier',
  '2.5.4.46': 'dnQualifier',
  '2.5.4.65': 'pseudonym',
  '2.5.4.97': 'organizationIdentifier',
  '0.9.2342.19200300.100.1.1': 'UID',
  '0.9.2342.19200300.100.1.25': 'DC',
  '1.2.840.113549.1.9.1': 'emailAddress',
};

const utf8 = new TextDecoder('utf-8', { fatal: true });

const latin1 = (bytes: Uint8Array): string => {
  let out = '';
  for (const byte of bytes) out += String.fromCharCode(byte);
  return out;
};

/** The text of a directory string (RFC 5280 §4.1.2.4); any other type as RFC 4514 §2.4 `#<hex DER>`. */
function decodeAttributeValue(der: Uint8Array, tlv: Tlv): string {
  const bytes = der.subarray(tlv.start, tlv.end);
  const whole = der.subarray(tlv.offset, tlv.end);
  switch (tlv.tag) {
    case 0x0c: // UTF8String
      try {
        return utf8.decode(bytes);
      } catch {
        return `#${hex(whole)}`;
      }
    case 0x12: // NumericString
    case 0x13: // PrintableString
    case 0x14: // TeletexString: read as Latin-1, as OpenSSL does
    case 0x16: // IA5String
    case 0x1a: // VisibleString
      return latin1(bytes);
    case 0x1e: {
      // BMPString: UTF-16BE
      if (bytes.length % 2 !== 0) return `#${hex(whole)}`;
      let out = '';
      for (let i = 0; i < bytes.length; i += 2) {
        out += String.fromCharCode(((bytes[i] as number) << 8) | (bytes[i + 1] as number));
      }
      return out;
    }
    case 0x1c: {
      // UniversalString: UTF-32BE
      if (bytes.length % 4 !== 0) return `#${hex(whole)}`;
      let out = '';
      for (let i = 0; i < bytes.length; i += 4) {
        const cp =
          (((bytes[i] as number) << 24) >>> 0) +
          ((bytes[i + 1] as number) << 16) +
          ((bytes[i + 2] as number) << 8) +
          (bytes[i + 3] as number);
        if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return `#${hex(whole)}`;
        out += String.fromCodePoint(cp);
      }
      return out;
    }
    default:
      return `#${hex(whole)}`;
  }
}

/** Name ::= SEQUENCE OF SET OF AttributeTypeAndValue (RFC 5280 §4.1.2.4). */
function decodeName(der: Uint8Array, name: Tlv): DistinguishedName {
  const out: Record<string, string[]> = {};
  for (const rdn of children(der, name)) {
    expectTag(rdn, 0x31, 'a RelativeDistinguishedName SET');
    for (const attribute of children(der, rdn)) {
      const [type, value] = children(der, expectTag(attribute, 0x30, 'an AttributeTypeAndValue'));
      const typeTlv = expectTag(type, 0x06, 'an attribute type');
      const oid = decodeOid(der.subarray(typeTlv.start, typeTlv.end));
      if (value === undefined) fail('attribute without a value');
      const key = ATTRIBUTE_NAMES[oid] ?? oid;
      const values = Object.hasOwn(out, key) ? (out[key] as string[]) : (out[key] = []);
      values.push(decodeAttributeValue(der, value));
    }
  }
  return Object.freeze(Object.fromEntries(Object.entries(out).map(([k, v]) => [k, Object.freeze(v)])));
}

/** UTCTime `YYMMDDHHMMSSZ` or GeneralizedTime `YYYYMMDDHHMMSSZ`, the only forms RFC 5280 §4.1.2.5 allows. */
function decodeTime(der: Uint8Array, tlv: Tlv | undefined): Date {
  if (tlv === undefined || (tlv.tag !== 0x17 && tlv.tag !== 0x18)) fail('expected a validity time');
  const text = latin1(der.subarray(tlv.start, tlv.end));
  const yearDigits = tlv.tag === 0x17 ? 2 : 4;
  if (text.length !== yearDigits + 11 || text.charCodeAt(text.length - 1) !== 0x5a) fail('malformed time');
  const numbers: number[] = [];
  for (let i = yearDigits; i < text.length - 1; i += 2) numbers.push(digits(text, i, 2));
  let year = digits(text, 0, yearDigits);
  // RFC 5280 §4.1.2.5.1: a two-digit year YY >= 50 is 19YY, otherwise 20YY.
  if (yearDigits === 2) year += year >= 50 ? 1900 : 2000;
  const [month, day, hour, minute, second] = numbers as [number, number, number, number, number];
  const time = new Date(Date.UTC(year, month - 1, day, hour, minute, second));
  if (
    time.getUTCFullYear() !== year ||
    time.getUTCMonth() !== month - 1 ||
    time.getUTCDate() !== day ||
    hour > 23 ||
    minute > 59 ||
    second > 59
  ) {
    fail('invalid time');
  }
  return time;
}

function digits(text: string, at: number, count: number): number {
  let value = 0;
  for (let i = at; i < at + count; i++) {
    const c = text.charCodeAt(i);
    if (c < 48 || c > 57) fail('malformed time');
    value = value * 10 + (c - 48);
  }
  return value;
}

const SAN_OID = '2.5.29.17';

/** GeneralNames (RFC 5280 §4.2.1.6): the email, DNS, URI and IP entries; other forms are skipped. */
function decodeAltNames(der: Uint8Array, octets: Tlv): SubjectAltNames {
  const names = { dns: [] as string[], email: [] as string[], uri: [] as string[], ip: [] as string[] };
  const sequence = readTlv(der, octets.start, octets.end);
  if (sequence.tag !== 0x30 || sequence.end !== octets.end) fail('malformed subjectAltName');
  for (const name of children(der, sequence)) {
    const bytes = der.subarray(name.start, name.end);
    if (name.tag === 0x81) names.email.push(latin1(bytes));
    else if (name.tag === 0x82) names.dns.push(latin1(bytes));
    else if (name.tag === 0x86) names.uri.push(latin1(bytes));
    else if (name.tag === 0x87 && (bytes.length === 4 || bytes.length === 16)) {
      names.ip.push(formatIp({ version: bytes.length === 4 ? 4 : 6, bytes: bytes.slice() }));
    }
  }
  return freezeAltNames(names);
}

function freezeAltNames(names: {
  dns: string[];
  email: string[];
  uri: string[];
  ip: string[];
}): SubjectAltNames {
  return Object.freeze({
    dns: Object.freeze(names.dns),
    email: Object.freeze(names.email),
    uri: Object.freeze(names.uri),
    ip: Object.freeze(names.ip),
  });
}

const NO_ALT_NAMES = freezeAltNames({ dns: [], email: [], uri: [], ip: [] });

/** Extensions ::= SEQUENCE OF Extension; only subjectAltName is read. */
function decodeExtensions(der: Uint8Array, wrapper: Tlv): SubjectAltNames {
  const list = readTlv(der, wrapper.start, wrapper.end);
  if (list.tag !== 0x30) fail('malformed extensions');
  for (const extension of children(der, list)) {
    const parts = children(der, expectTag(extension, 0x30, 'an Extension'));
    const id = expectTag(parts[0], 0x06, 'an extension id');
    if (decodeOid(der.subarray(id.start, id.end)) !== SAN_OID) continue;
    // extnValue is the last element; `critical` (a BOOLEAN) may sit between.
    return decodeAltNames(der, expectTag(parts[parts.length - 1], 0x04, 'an extension value'));
  }
  return NO_ALT_NAMES;
}

/**
 * Reads a DER X.509 certificate (RFC 5280 §4.1): subject, issuer, serial, validity, subject alternative
 * names. Throws a TypeError for anything that is not one (truncated, trailing bytes, wrong structure,
 * over 64 KiB). Verifies nothing: the caller decides whether to trust the bytes.
 */
export function decodeCertificate(der: Uint8Array): CertificateFields {
  if (!(der instanceof Uint8Array) || der.length === 0) fail('expected DER bytes');
  if (der.length > MAX_CERTIFICATE_BYTES) fail(`larger than ${MAX_CERTIFICATE_BYTES} bytes`);
  const certificate = readTlv(der, 0, der.length);
  if (certificate.tag !== 0x30 || certificate.end !== der.length) fail('expected one Certificate SEQUENCE');
  const tbs = children(der, certificate)[0];
  const fields = children(der, expectTag(tbs, 0x30, 'a TBSCertificate SEQUENCE'));
  let i = fields[0]?.tag === 0xa0 ? 1 : 0; // version [0] EXPLICIT, absent for v1
  const serial = expectTag(fields[i++], 0x02, 'a serial number');
  expectTag(fields[i++], 0x30, 'a signature AlgorithmIdentifier');
  const issuer = expectTag(fields[i++], 0x30, 'an issuer Name');
  const validity = children(der, expectTag(fields[i++], 0x30, 'a Validity SEQUENCE'));
  const subject = expectTag(fields[i++], 0x30, 'a subject Name');
  expectTag(fields[i++], 0x30, 'a SubjectPublicKeyInfo');
  const extensions = fields.slice(i).find((field) => field.tag === 0xa3);
  let serialBytes = der.subarray(serial.start, serial.end);
  if (serialBytes.length === 0) fail('empty serial number');
  // Drop the sign byte DER adds before a high bit (X.690 §8.3.2).
  if (serialBytes.length > 1 && serialBytes[0] === 0 && (serialBytes[1] as number) & 0x80) {
    serialBytes = serialBytes.subarray(1);
  }
  return Object.freeze({
    subject: decodeName(der, subject),
    issuer: decodeName(der, issuer),
    subjectAltName: extensions === undefined ? NO_ALT_NAMES : decodeExtensions(der, extensions),
    serialNumber: hex(serialBytes),
    validFrom: decodeTime(der, validity[0]),
    validTo: decodeTime(der, validity[1]),
    raw: der.slice(),
  });
}
