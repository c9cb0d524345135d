/**
 * @module charter/jwt — JSON Web Tokens (RFC 7519) signed and verified with WebCrypto. Re-exports `@charter/jwt`.
 */
export * from '@charter/jwt';
