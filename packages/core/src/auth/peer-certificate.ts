/**
 * The TLS client certificate of a request, as a plain runtime-neutral record: where adapters put it (a
 * per-request registry, like the peer address), and how to build one from DER bytes (RFC 5280 §4.1), for
 * a certificate that arrives in a proxy's RFC 9440 `Client-Cert` header or from a custom source.
 *
 * The DER reader (`x509.ts`) verifies nothing: no signature, no chain. Trust comes from whoever handed
 * the bytes over: the runtime's TLS stack (`authorized`), or a TLS-terminating proxy that validated the
 * chain.
 */
import { type CertificateFields, decodeCertificate } from './x509.ts';
import { originalRequest } from '../pipeline/client-address.ts';

/** A client certificate and the TLS layer's verdict on it. */
export interface PeerCertificate extends CertificateFields {
  /** SHA-256 of the DER, upper-case hex pairs joined by `:` (as `openssl x509 -fingerprint -sha256` prints). */
  readonly fingerprint256: string;
  /** The certificate chain was verified against the trusted CAs (by the TLS stack or the proxy). */
  readonly authorized: boolean;
  /** Why it was not, when the TLS stack says (e.g. `UNABLE_TO_VERIFY_LEAF_SIGNATURE`). */
  readonly authorizationError?: string;
}

const certificates = new WeakMap<Request, PeerCertificate>();

/** For adapters: records the client certificate of the TLS connection a request arrived on. */
export function setPeerCertificate(request: Request, certificate: PeerCertificate): void {
  certificates.set(request, certificate);
}

/** The client certificate an adapter recorded for a request (or for the one `ctx.request` stands for). */
export function peerCertificate(request: Request): PeerCertificate | undefined {
  return certificates.get(request) ?? certificates.get(originalRequest(request));
}

/** SHA-256 of the DER as upper-case hex pairs joined by `:`. */
export async function certificateFingerprint(der: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', der.slice()));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, '0').toUpperCase()).join(':');
}

/** The TLS verdict to attach to a certificate built with `parseCertificate`. */
export interface ParseCertificateOptions {
  /** The chain was verified (by your TLS terminator, for instance); default false. */
  authorized?: boolean;
  /** Why it was not. */
  authorizationError?: string;
}

/**
 * Builds a `PeerCertificate` from DER bytes: `decodeCertificate` plus the SHA-256 fingerprint, with the
 * given verdict (default `authorized: false`). For custom certificate sources of `mutualTls`.
 */
export async function parseCertificate(
  der: Uint8Array,
  options: ParseCertificateOptions = {},
): Promise<PeerCertificate> {
  const fields = decodeCertificate(der);
  return Object.freeze({
    ...fields,
    fingerprint256: await certificateFingerprint(fields.raw),
    authorized: options.authorized === true,
    ...(options.authorizationError === undefined ? {} : { authorizationError: options.authorizationError }),
  });
}
