export {
  type Base64Alphabet,
  decodeBase64,
  decodeBase64Url,
  encodeBase64,
  encodeBase64Url,
  isBase64UrlOfLength,
} from './base64.ts';
export { isProductionEnv } from './environment.ts';
export * from './safe-json.ts';
export { limitedRequest, readBodyLimited } from './body-limit.ts';
export { contentDisposition } from './content-disposition.ts';
export {
  assertCookieAttributes,
  CookieAttributeError,
  type CookieAttributes,
  type CookieRule,
  parseCookieHeader,
  readRequestCookie,
  serializeClearCookie,
  serializeCookie,
} from './cookies.ts';
export { assertSafeRelativePath, sanitizeFilename } from './filenames.ts';
export { escapeHtml } from './html-escape.ts';
export {
  assertNoDuplicateSingletonHeaders,
  assertNoReservedInternalHeaders,
  DEFAULT_RESERVED_INTERNAL_HEADERS,
  DEFAULT_SINGLETON_HEADERS,
  type HeaderSource,
  isHttpToken,
  sanitizeHeaderName,
  sanitizeHeaderValue,
} from './header-guards.ts';
export {
  assertNoMongoOperators,
  hasMongoOperatorKeys,
  MONGO_MAX_DEPTH,
  type MongoKeyOptions,
} from './mongo.ts';
export {
  assertStrongSecret,
  MIN_DEV_SECRET_BYTES,
  MIN_PROD_SECRET_BYTES,
  randomId,
  type StrongSecretOptions,
  timingSafeEqual,
  WeakSecretError,
  type WeakSecretReason,
} from './tokens.ts';
export {
  type SignWebhookOptions,
  signWebhookPayload,
  type VerifyWebhookOptions,
  verifyWebhookSignature,
  WEBHOOK_TOLERANCE_SECONDS,
  type WebhookAlgorithm,
} from './webhook.ts';
