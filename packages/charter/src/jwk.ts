/**
 * @module charter/jwk — bearer JWT authentication against a JSON Web Key set (RFC 7517). Re-exports `@charter/jwk`.
 */
export * from '@charter/jwk';
