/**
 * Middleware helpers: factories returning Hooks, usable with `app.use`, group hooks and route hooks.
 * Each primitive they rely on (cookies, tokens, header guards) lives in `security/`.
 */
export {
  type AutoBanEvent,
  type AutoBanHooks,
  type AutoBanOptions,
  autoBan,
  DEFAULT_AUTO_BAN_STATUSES,
  type ResolvedAutoBanOptions,
  resolveAutoBanOptions,
} from './auto-ban.ts';
export {
  AUTO_BAN_KEY_PREFIX,
  type AutoBanPolicy,
  type AutoBanStore,
  type AutoBanStrike,
  type MemoryAutoBanStore,
  type MemoryAutoBanStoreOptions,
  memoryAutoBanStore,
  resolveMemoryAutoBanStoreOptions,
} from './auto-ban-store.ts';
export { every, type ExceptCondition, except, some } from './combinators.ts';
export {
  type CompressionOptions,
  type ContentCoding,
  compression,
  isCompressibleMediaType,
  negotiateContentCoding,
  resolveCompressionOptions,
  supportedContentCodings,
} from './compression.ts';
export {
  type CorsOptions,
  type CorsOrigin,
  cors,
  DEFAULT_CORS_ALLOWED_HEADERS,
  DEFAULT_CORS_MAX_AGE_SECONDS,
  DEFAULT_CORS_METHODS,
  resolveCorsOptions,
  serialiseOrigin,
} from './cors.ts';
export { type CsrfOptions, csrf, csrfTokenOf, resolveCsrfOptions } from './csrf.ts';
export { type EtagOptions, entityTagOf, etag, ifNoneMatchMatches, resolveEtagOptions } from './etag.ts';
export {
  type IdempotencyOptions,
  idempotency,
  parseIdempotencyKey,
  resolveIdempotencyOptions,
} from './idempotency.ts';
export {
  type IdempotencyRecord,
  type IdempotencyStore,
  type MemoryIdempotencyStoreOptions,
  memoryIdempotencyStore,
  type StoredResponse,
} from './idempotency-store.ts';
export {
  type RateLimitKey,
  type RateLimitOptions,
  type RateLimitPhase,
  rateLimit,
  rateLimitField,
  rateLimitPolicyField,
  resolveRateLimitOptions,
  UNKNOWN_CLIENT_KEY,
} from './rate-limit.ts';
export {
  type MemoryRateLimitStore,
  type MemoryRateLimitStoreOptions,
  memoryRateLimitStore,
  RATE_LIMIT_KEY_PREFIX,
  type RateLimitHit,
  type RateLimitStore,
} from './rate-limit-store.ts';
export {
  DEFAULT_REQUEST_ID_HEADER,
  isSafeRequestId,
  type RequestIdOptions,
  requestId,
  requestIdOf,
} from './request-id.ts';
export { appendVary, type HeaderEntries, setResponseHeaders } from '../pipeline/response-headers.ts';
export {
  applySecureHeaders,
  buildContentSecurityPolicy,
  type CspDirectives,
  type CspDirectiveValue,
  DEFAULT_CSP_DIRECTIVES,
  type HstsOptions,
  type ReferrerPolicyToken,
  resolveSecureHeaders,
  type SecureHeaderList,
  type SecureHeadersOptions,
  secureHeaders,
} from './secure-headers.ts';
export {
  type ServerTiming,
  type ServerTimingMetric,
  serverTiming,
  type TimingOptions,
  timing,
} from './timing.ts';
export {
  DEFAULT_WAF_RULES,
  WAF_RULE_GROUPS,
  type WafRule,
  type WafRuleGroup,
  type WafTarget,
} from './waf-rules.ts';
export { type WafMatch, type WafOptions, waf } from './waf.ts';
