// The shapes of a decoded token (RFC 7515 §4.1, RFC 7519 §4.1).

/** The protected header of a JWS (RFC 7515 §4.1). */
export interface JwtHeader {
  alg: string;
  typ?: string;
  kid?: string;
  crit?: string[];
  [k: string]: unknown;
}

/** The claims set; the registered claims are typed (RFC 7519 §4.1), others are `unknown`. */
export type JwtPayload = Record<string, unknown> & {
  iss?: string;
  sub?: string;
  aud?: string | string[];
  exp?: number;
  nbf?: number;
  iat?: number;
  jti?: string;
};

/** A token whose signature and claims were accepted. */
export interface VerifiedJwt {
  header: JwtHeader;
  payload: JwtPayload;
}

/**
 * A JSON Web Key (RFC 7517 §4) as plain JSON; members beyond these are allowed at run time and ignored. Declared here rather than using the DOM's `JsonWebKey`, so the types work
 * without the DOM library; a `JsonWebKey` is assignable to it.
 */
export interface Jwk {
  kty?: string;
  kid?: string;
  use?: string;
  key_ops?: readonly string[];
  alg?: string;
  crv?: string;
  n?: string;
  e?: string;
  x?: string;
  y?: string;
  x5c?: readonly string[];
  x5t?: string;
  'x5t#S256'?: string;
  x5u?: string;
  /** Private and symmetric members (RFC 7518 §6.2.2, §6.3.2, §6.4.1), for signing keys. */
  d?: string;
  p?: string;
  q?: string;
  dp?: string;
  dq?: string;
  qi?: string;
  oth?: readonly unknown[];
  k?: string;
  ext?: boolean;
}
