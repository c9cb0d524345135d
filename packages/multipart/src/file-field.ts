// fileField(): a Standard Schema (v1) for one uploaded file of a multipart/form-data body (RFC 7578).
import type { StandardIssue, StandardResult, StandardSchemaV1 } from '@charter/core';
import { type AcceptList, acceptIssue, mediaTypeEssence, parseAcceptList } from './accept.ts';
import {
  type FilenameRules,
  filenameIssue,
  type ResolvedFilenameRules,
  resolveFilenameRules,
} from './filename.ts';
import {
  type MagicBytesOption,
  matchesSignature,
  type ResolvedMagicBytes,
  resolveMagicBytes,
  signaturesFor,
} from './magic-bytes.ts';

/** Options of `fileField`. */
export interface FileFieldOptions {
  /**
   * Largest file, in bytes (a positive integer); a bigger file is a 422 issue. Default: no limit of its
   * own; the App's `multipart.maxFileBytes` (413) and `bodyLimitBytes` (413) still apply.
   */
  maxBytes?: number;
  /**
   * Allowlist of media types (`image/png`, `image/*`) and extensions (`.png`); default: any file. When it
   * names media types, the declared type must match one (case-insensitive, parameters ignored); when it
   * names extensions, the file name must end with one.
   */
  accept?: readonly string[];
  /** Rules for the file name; default `{ maxLength: 255 }`. Separators, `.`, `..` and controls are always refused. */
  filename?: FilenameRules;
  /** Signatures the first bytes must match (see `FILE_SIGNATURES`); default: the content is not looked at. */
  magicBytes?: MagicBytesOption;
  /** Whether the field may be absent (or an empty, unnamed file, as a browser sends for no file); default false. */
  optional?: boolean;
  /** How OpenAPI describes the file: `binary` (the only format; `type: string, format: binary`); default `binary`. */
  format?: 'binary';
}

/** `FileFieldOptions`, checked, with the defaults filled in. */
export interface ResolvedFileFieldOptions {
  readonly maxBytes: number | undefined;
  readonly accept: AcceptList | undefined;
  readonly filename: ResolvedFilenameRules;
  readonly magicBytes: ResolvedMagicBytes | undefined;
  readonly optional: boolean;
  readonly format: 'binary';
}

/** A Standard Schema for one uploaded file; `fileField` holds its options. */
export interface FileFieldSchema<O extends File | undefined = File> extends StandardSchemaV1<O, O> {
  readonly fileField: ResolvedFileFieldOptions;
}

// Symbol.for: a second copy of this module (two bundles) still recognises the schemas of the first.
const FILE_FIELD = Symbol.for('charter.multipart.fileField');

/** Checks `fileField` options and fills the defaults; throws a TypeError or RangeError naming the option. */
export function resolveFileFieldOptions(options: FileFieldOptions = {}): ResolvedFileFieldOptions {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new TypeError('fileField: the options must be an object');
  }
  const { maxBytes, optional, format } = options;
  if (maxBytes !== undefined && (!Number.isSafeInteger(maxBytes) || maxBytes < 1)) {
    throw new RangeError(`fileField: maxBytes must be a positive safe integer, got ${String(maxBytes)}`);
  }
  if (optional !== undefined && typeof optional !== 'boolean') {
    throw new TypeError('fileField: optional must be a boolean');
  }
  if (format !== undefined && format !== 'binary') {
    throw new TypeError(`fileField: format must be "binary", got ${JSON.stringify(format)}`);
  }
  return Object.freeze({
    maxBytes,
    accept: options.accept === undefined ? undefined : parseAcceptList(options.accept),
    filename: resolveFilenameRules(options.filename),
    magicBytes: options.magicBytes === undefined ? undefined : resolveMagicBytes(options.magicBytes),
    optional: optional ?? false,
    format: 'binary' as const,
  });
}

/** Whether a value is a file part: a Blob (a File from the form parser). */
function isBlob(value: unknown): value is Blob {
  return typeof Blob !== 'undefined' && value instanceof Blob;
}

/** The name of a file part; Bun gives an unnamed part (`filename=""`) an undefined name. */
function nameOf(blob: Blob): string {
  const name = (blob as { name?: unknown }).name;
  return typeof name === 'string' ? name : '';
}

/**
 * HTML §4.10.21.4 (constructing the entry list): a file input with no file selected is sent as a part
 * with an empty filename and empty content. That is "no file", not a file.
 */
export function isEmptyFilePart(value: unknown): boolean {
  return isBlob(value) && value.size === 0 && nameOf(value) === '';
}

function fail(message: string): StandardResult<never> {
  return { issues: [{ message }] };
}

/** The checks that need no bytes: kind, name, size, declared type. */
function checkShape(value: unknown, options: ResolvedFileFieldOptions): StandardIssue[] | Blob | undefined {
  if (value === undefined || value === null || isEmptyFilePart(value)) {
    return options.optional ? undefined : [{ message: 'A file is required' }];
  }
  if (typeof value === 'string') return [{ message: 'Expected a file, got a text field' }];
  if (Array.isArray(value)) return [{ message: `Expected one file, got ${value.length} values` }];
  if (!isBlob(value)) return [{ message: 'Expected a file' }];
  const issues: StandardIssue[] = [];
  const name = nameOf(value);
  const nameProblem = filenameIssue(name, options.filename);
  if (nameProblem !== undefined) issues.push({ message: nameProblem });
  if (options.maxBytes !== undefined && value.size > options.maxBytes) {
    issues.push({ message: `The file is ${value.size} bytes; at most ${options.maxBytes} are accepted` });
  }
  if (options.accept !== undefined) {
    const typeProblem = acceptIssue(options.accept, value.type, name);
    if (typeProblem !== undefined) issues.push({ message: typeProblem });
  }
  return issues.length > 0 ? issues : value;
}

async function checkContent(file: Blob, magic: ResolvedMagicBytes): Promise<StandardResult<File>> {
  const essence = mediaTypeEssence(file.type);
  const signatures = signaturesFor(magic, essence);
  if (signatures === undefined) {
    return fail('The file has a media type whose content cannot be checked here (no signature for it)');
  }
  // Only the first bytes are read; the rest of the file stays where the form parser left it.
  const head = new Uint8Array(await file.slice(0, magic.length).arrayBuffer());
  if (signatures.some((sig) => matchesSignature(head, sig))) return { value: file as File };
  return fail(
    magic.any === undefined
      ? `The file's content does not match its declared media type ${essence}`
      : "The file's content does not match an accepted file format",
  );
}

/**
 * A Standard Schema for an uploaded file: accepts a File and refuses text, several values and files that
 * break the options (size, declared type or extension, name, first bytes). Validation is synchronous
 * unless `magicBytes` is set, which reads the first bytes.
 */
export function fileField(options: FileFieldOptions & { optional: true }): FileFieldSchema<File | undefined>;
export function fileField(options?: FileFieldOptions & { optional?: false }): FileFieldSchema<File>;
export function fileField(options?: FileFieldOptions): FileFieldSchema<File | undefined>;
export function fileField(options: FileFieldOptions = {}): FileFieldSchema<File | undefined> {
  const resolved = resolveFileFieldOptions(options);
  const json = (): Record<string, unknown> => fileJsonSchema(resolved);
  const schema: FileFieldSchema<File | undefined> = {
    fileField: resolved,
    '~standard': {
      version: 1,
      vendor: 'charter',
      validate(value: unknown): StandardResult<File | undefined> | Promise<StandardResult<File | undefined>> {
        const shape = checkShape(value, resolved);
        if (shape === undefined) return { value: undefined };
        if (Array.isArray(shape)) return { issues: shape };
        if (resolved.magicBytes === undefined) return { value: shape as File };
        return checkContent(shape, resolved.magicBytes);
      },
      jsonSchema: { input: json, output: json },
    },
  };
  Object.defineProperty(schema, FILE_FIELD, { value: true });
  return Object.freeze(schema);
}

/**
 * The JSON Schema of a file field: `type: string, format: binary` (what OpenAPI 3.0 tools show as a file
 * picker) and `contentMediaType` (OpenAPI 3.1 §4.8.14.3 / JSON Schema Validation §8.4): the one accepted
 * media type when there is exactly one, else `application/octet-stream`.
 */
export function fileJsonSchema(options: ResolvedFileFieldOptions): Record<string, unknown> {
  const types = options.accept?.types ?? [];
  const single = types.length === 1 && options.accept?.wildcards.length === 0 ? types[0] : undefined;
  const limits: string[] = [];
  if (options.maxBytes !== undefined) limits.push(`at most ${options.maxBytes} bytes`);
  if (options.accept !== undefined) {
    const accept = options.accept;
    limits.push(
      `accepted: ${[...accept.types, ...accept.wildcards.map((w) => `${w}*`), ...accept.extensions].join(', ')}`,
    );
  }
  const out: Record<string, unknown> = {
    type: 'string',
    format: options.format,
    contentMediaType: single ?? 'application/octet-stream',
  };
  if (limits.length > 0) out.description = `A file (${limits.join('; ')})`;
  return out;
}

/** Whether a value is a schema made by `fileField`. */
export function isFileFieldSchema(value: unknown): value is FileFieldSchema<File | undefined> {
  return (
    typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[FILE_FIELD] === true
  );
}
