export {
  type ApiKeyOptions,
  apiKey,
  type ResolvedApiKeyOptions,
  resolveApiKeyOptions,
} from './api-key.ts';
export {
  type BasicOptions,
  basic,
  decodeBasicCredentials,
  MAX_BASIC_CREDENTIALS_LENGTH,
  type ResolvedBasicOptions,
  resolveBasicOptions,
} from './basic.ts';
export { type BearerCredentials, parseBearerAuthorization, requireBearerToken } from './bearer-token.ts';
export { type BearerOptions, bearer, type ResolvedBearerOptions, resolveBearerOptions } from './bearer.ts';
export * from './challenge.ts';
export {
  type ApiKeyLocation,
  type AuthUserInput,
  isScopeToken,
  normaliseUser,
  type VerifyResult,
} from './credentials.ts';
export {
  type ApiKeySchemeOptions,
  type ApiKeySecurityScheme,
  apiKeyScheme,
  assertAuthSpec,
  assertSecurityScheme,
  type HttpBearerSchemeOptions,
  type HttpSecurityScheme,
  httpBasicScheme,
  httpBearerScheme,
  type MutualTlsSecurityScheme,
  mutualTlsScheme,
  type OAuth2SchemeOptions,
  type OAuth2SecurityScheme,
  type OAuthAuthorizationCodeFlow,
  type OAuthFlows,
  type OAuthImplicitFlow,
  type OAuthScopes,
  type OAuthTokenFlow,
  oauth2Scheme,
  type OpenIdConnectSchemeOptions,
  type OpenIdConnectSecurityScheme,
  openIdConnectScheme,
  PAYLOAD_AUTH_EXTENSION,
  requiresPayloadAuth,
  type SchemeOptions,
  type SecurityScheme,
  type SecuritySchemeBase,
  toOpenAPISecurityScheme,
} from './schemes.ts';
export {
  type AuthorizeScopesOptions,
  authorizeScopes,
  type RequireScopesOptions,
  requireScopes,
  type ScopeMatch,
  type ScopePhase,
} from './scopes.ts';
export * from './types.ts';
export {
  type MutualTlsOptions,
  mutualTls,
  parseClientCertHeader,
  type ResolvedMutualTlsOptions,
  resolveMutualTlsOptions,
} from './mutual-tls.ts';
export {
  certificateFingerprint,
  type ParseCertificateOptions,
  parseCertificate,
  type PeerCertificate,
  peerCertificate,
  setPeerCertificate,
} from './peer-certificate.ts';
export {
  type CertificateFields,
  decodeCertificate,
  type DistinguishedName,
  MAX_CERTIFICATE_BYTES,
  type SubjectAltNames,
} from './x509.ts';
