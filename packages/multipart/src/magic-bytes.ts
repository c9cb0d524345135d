// File signatures ("magic bytes"): the first bytes many formats start with. A match says the content
// looks like the format, not that it is a valid or harmless file of it.

/** A signature: byte values 0-255 the content must start with; `null` matches any byte at that offset. */
export type MagicSignature = readonly (number | null)[] | Uint8Array;

/**
 * The `magicBytes` option: a list of signatures the content must match one of, or signatures per declared
 * media type (`{ 'image/png': [FILE_SIGNATURES.png] }`), where the file's declared type must be listed and
 * its content must match one of that type's signatures.
 */
export type MagicBytesOption =
  | readonly MagicSignature[]
  | Readonly<Record<string, readonly MagicSignature[]>>;

/** The `magicBytes` option, checked. */
export interface ResolvedMagicBytes {
  /** Signatures for any file; undefined when the option is keyed by media type. */
  readonly any: readonly (readonly (number | null)[])[] | undefined;
  /** Signatures per lower-case media type; undefined for the list form. */
  readonly byType: ReadonlyMap<string, readonly (readonly (number | null)[])[]> | undefined;
  /** How many leading bytes to read: the longest signature. */
  readonly length: number;
}

const ascii = (text: string): number[] => Array.from(text, (c) => c.charCodeAt(0));

/** Signatures of common upload formats, for `magicBytes`. */
export const FILE_SIGNATURES = Object.freeze({
  /** PNG (ISO/IEC 15948 §5.2). */
  png: Object.freeze([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  /** JPEG: SOI marker then the start of another marker (ITU T.81 Annex B). */
  jpeg: Object.freeze([0xff, 0xd8, 0xff]),
  /** GIF 87a. */
  gif87a: Object.freeze(ascii('GIF87a')),
  /** GIF 89a. */
  gif89a: Object.freeze(ascii('GIF89a')),
  /** WebP: a RIFF container (any size) of form type WEBP. */
  webp: Object.freeze([...ascii('RIFF'), null, null, null, null, ...ascii('WEBP')]),
  /** PDF (ISO 32000-2 §7.5.2): `%PDF-`. */
  pdf: Object.freeze(ascii('%PDF-')),
  /** ZIP local file header (also DOCX, XLSX, ODT, JAR, EPUB). */
  zip: Object.freeze([0x50, 0x4b, 0x03, 0x04]),
  /** gzip (RFC 1952 §2.3.1). */
  gzip: Object.freeze([0x1f, 0x8b]),
} satisfies Record<string, readonly (number | null)[]>);

function signature(value: unknown, where: string): readonly (number | null)[] {
  if (!(value instanceof Uint8Array) && !Array.isArray(value)) {
    throw new TypeError(`fileField: ${where} must be an array of byte values or a Uint8Array`);
  }
  const bytes = Array.from(value as ArrayLike<unknown>);
  if (bytes.length === 0) throw new RangeError(`fileField: ${where} must not be empty`);
  for (const byte of bytes) {
    if (byte !== null && !(Number.isInteger(byte) && (byte as number) >= 0 && (byte as number) <= 255)) {
      throw new RangeError(`fileField: ${where} holds ${String(byte)}, not a byte value 0-255 or null`);
    }
  }
  if (bytes.every((byte) => byte === null)) {
    throw new RangeError(`fileField: ${where} must fix at least one byte (not only null)`);
  }
  return Object.freeze(bytes as (number | null)[]);
}

function signatureList(value: unknown, where: string): readonly (readonly (number | null)[])[] {
  if (!Array.isArray(value) || value.length === 0) {
    throw new TypeError(`fileField: ${where} must be a non-empty array of signatures`);
  }
  return Object.freeze(value.map((sig, i) => signature(sig, `${where}[${i}]`)));
}

/** Checks the `magicBytes` option; throws a TypeError or RangeError naming the bad part. */
export function resolveMagicBytes(option: unknown): ResolvedMagicBytes {
  let any: readonly (readonly (number | null)[])[] | undefined;
  let byType: Map<string, readonly (readonly (number | null)[])[]> | undefined;
  if (Array.isArray(option)) {
    any = signatureList(option, 'magicBytes');
  } else if (typeof option === 'object' && option !== null && !(option instanceof Uint8Array)) {
    byType = new Map();
    for (const [type, list] of Object.entries(option)) {
      const key = type.trim().toLowerCase();
      const slash = key.indexOf('/');
      if (slash <= 0 || slash === key.length - 1 || key.includes('*') || key.includes(';')) {
        throw new TypeError(`fileField: magicBytes key "${type}" must be a media type like "image/png"`);
      }
      byType.set(key, signatureList(list, `magicBytes["${type}"]`));
    }
    if (byType.size === 0) throw new TypeError('fileField: magicBytes must name at least one media type');
  } else {
    throw new TypeError(
      'fileField: magicBytes must be a list of signatures or an object of them by media type',
    );
  }
  const all = any ?? [...(byType as Map<string, readonly (readonly (number | null)[])[]>).values()].flat();
  const length = Math.max(...all.map((sig) => sig.length));
  return Object.freeze({ any, byType, length });
}

/** Whether `bytes` starts with `sig` (null positions match anything). */
export function matchesSignature(bytes: Uint8Array, sig: readonly (number | null)[]): boolean {
  if (bytes.length < sig.length) return false;
  for (let i = 0; i < sig.length; i++) {
    const expected = sig[i];
    if (expected !== null && bytes[i] !== expected) return false;
  }
  return true;
}

/** The signatures a file of this declared media type (an essence) must match; undefined if none may. */
export function signaturesFor(
  magic: ResolvedMagicBytes,
  essence: string,
): readonly (readonly (number | null)[])[] | undefined {
  return magic.any ?? magic.byType?.get(essence);
}
