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
