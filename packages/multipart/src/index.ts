/**
 * @module charter/multipart
 * File uploads in multipart/form-data bodies (RFC 7578): `fileField()` checks one uploaded file (size,
 * declared type or extension, name, first bytes) and `multipartObject()` checks the whole form, both
 * Standard Schemas that also describe themselves for the OpenAPI document.
 */
export {
  type FileFieldOptions,
  type FileFieldSchema,
  fileField,
  isFileFieldSchema,
  type ResolvedFileFieldOptions,
  resolveFileFieldOptions,
} from './file-field.ts';
export { DEFAULT_FILENAME_MAX_LENGTH, type FilenameRules } from './filename.ts';
export { FILE_SIGNATURES, type MagicBytesOption, type MagicSignature } from './magic-bytes.ts';
export {
  isMultipartObjectSchema,
  type MultipartObjectOptions,
  type MultipartObjectSchema,
  type MultipartShape,
  multipartObject,
} from './multipart-object.ts';
