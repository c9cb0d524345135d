/**
 * The PHC string format (Password Hashing Competition, "PHC string format" specification) for scrypt:
 * `$scrypt$ln=<log2 N>,r=<r>,p=<p>$<salt>$<hash>`, salt and hash in the PHC "B64" encoding: the standard
 * base64 alphabet (RFC 4648 §4) without `=` padding. Parsing is strict and by scanning, never by regular
 * expression: anything but the exact shape gives undefined.
 */
import { decodeBase64, encodeBase64 } from '@charter/core';
import type { ScryptParams } from './params.ts';

/** A parsed scrypt PHC string. */
export interface ScryptPhc {
  readonly params: ScryptParams;
  readonly salt: Uint8Array;
  readonly hash: Uint8Array;
}

/** The function identifier of the format. */
export const SCRYPT_ID = 'scrypt';

/** No scrypt PHC string we accept is longer (64-byte salt and hash, 10-digit parameters). */
const MAX_PHC_LENGTH = 256;

/** PHC B64: standard base64 without padding (the core's codec). */
export function encodeB64(bytes: Uint8Array): string {
  return encodeBase64(bytes);
}

/**
 * Decodes PHC B64; undefined for padding, a character outside the alphabet, an impossible length
 * (4k+1 characters) or a non-canonical last character (unused low bits set): each byte string has exactly
 * one encoding, so two spellings of the same hash cannot both pass a parser.
 */
export function decodeB64(text: string): Uint8Array | undefined {
  return decodeBase64(text);
}

/** Formats a scrypt hash as a PHC string. */
export function formatScryptPhc(phc: ScryptPhc): string {
  const { ln, r, p } = phc.params;
  return `$${SCRYPT_ID}$ln=${ln},r=${r},p=${p}$${encodeB64(phc.salt)}$${encodeB64(phc.hash)}`;
}

/** A PHC decimal: 1 to 10 digits, no sign, no leading zero (the spec's canonical form); else undefined. */
function parseDecimal(text: string): number | undefined {
  if (text.length === 0 || text.length > 10) return undefined;
  if (text.length > 1 && text.charCodeAt(0) === 48) return undefined;
  let value = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 48 || c > 57) return undefined;
    value = value * 10 + (c - 48);
  }
  return value;
}

/** Reads `ln=<d>,r=<d>,p=<d>`: exactly these three, in this order, each once. */
function parseParams(text: string): ScryptParams | undefined {
  const fields = text.split(',');
  if (fields.length !== 3) return undefined;
  const names = ['ln', 'r', 'p'] as const;
  const values: number[] = [];
  for (let i = 0; i < 3; i++) {
    const field = fields[i] as string;
    const name = names[i] as string;
    if (!field.startsWith(`${name}=`)) return undefined;
    const value = parseDecimal(field.slice(name.length + 1));
    if (value === undefined) return undefined;
    values.push(value);
  }
  return { ln: values[0] as number, r: values[1] as number, p: values[2] as number };
}

/**
 * Parses `$scrypt$ln=..,r=..,p=..$<salt>$<hash>`; undefined for anything else: another function id,
 * a version field, missing, extra, reordered or repeated parameters, a non-canonical number, an empty or
 * badly encoded salt or hash, or a string longer than any scrypt hash we accept.
 */
export function parseScryptPhc(text: unknown): ScryptPhc | undefined {
  if (typeof text !== 'string' || text.length > MAX_PHC_LENGTH) return undefined;
  const parts = text.split('$');
  if (parts.length !== 5 || parts[0] !== '' || parts[1] !== SCRYPT_ID) return undefined;
  const params = parseParams(parts[2] as string);
  if (params === undefined) return undefined;
  const saltText = parts[3] as string;
  const hashText = parts[4] as string;
  if (saltText === '' || hashText === '') return undefined;
  const salt = decodeB64(saltText);
  const hash = decodeB64(hashText);
  if (salt === undefined || hash === undefined) return undefined;
  return { params, salt, hash };
}
