/**
 * Mutual TLS: authenticating the caller by its TLS client certificate (RFC 8446 §4.4.2, RFC 5280), in
 * preBody, so an unauthenticated upload is refused before its body is read.
 *
 * The certificate comes from one source, chosen by the options:
 * - default: the adapter's record of the TLS connection (`setPeerCertificate`; the Node adapter fills it);
 * - `fromProxyHeader: true`: the RFC 9440 `Client-Cert` header a TLS-terminating proxy adds;
 * - `certificate(request)`: a function of yours.
 *
 * There is no HTTP authentication scheme for TLS client certificates in the IANA registry (`Mutual` is
 * registered, but for RFC 8120's password-based protocol). RFC 9110 §15.5.2 still requires a challenge on
 * every 401, so the 401 carries `WWW-Authenticate: ClientCertificate realm="api"` (an unregistered
 * scheme, RFC 9110 §11.1, which clients ignore; rename it with `challengeScheme`).
 */
import { formatChallenge, unauthorized } from './challenge.ts';
import { type MaybePromise, ownValue, resolveRealm, runVerify, type VerifyResult } from './credentials.ts';
import { parseCertificate, type PeerCertificate, peerCertificate } from './peer-certificate.ts';
import { ForbiddenError } from '../errors/index.ts';
import { compileCidrs } from '../net/cidr.ts';
import { requestPeer } from '../pipeline/client-address.ts';
import { timingSafeEqual } from '../security/tokens.ts';
import { type Hooks, type PreBodyContext, withHookTraits } from '../types/index.ts';

/** Options of `mutualTls()`. */
export interface MutualTlsOptions {
  /** Protection space named in the 401 challenge (RFC 9110 §11.5); default `api`. */
  realm?: string;
  /** Auth-scheme of the 401 challenge; default `ClientCertificate` (see the module comment). */
  challengeScheme?: string;
  /**
   * SHA-256 fingerprints of the only certificates accepted (pinning), as hex with or without `:`, any
   * case; any other certificate gets 403. Default: every certificate the TLS layer trusts.
   */
  allowFingerprints?: readonly string[];
  /**
   * Decides whether an authenticated certificate may proceed: `false`/`null`/`undefined` give 403;
   * `true` accepts; a principal `{ sub?, scopes?, claims? }` accepts and sets its fields (claims merged
   * over the certificate's). A thrown HttpError is the answer; any other throw a 500. Default: accept.
   */
  verify?: (certificate: PeerCertificate, ctx: PreBodyContext) => MaybePromise<VerifyResult>;
  /**
   * The principal's `sub`; default: the last (most specific) subject CN, else the SHA-256 fingerprint.
   * CNs are unique only within one CA: when you trust several, prefer the fingerprint or a SAN URI.
   */
  subject?: (certificate: PeerCertificate) => string | undefined;
  /**
   * Accept a certificate whose chain the TLS layer did not verify (`authorized: false`), e.g. when
   * `verify` pins keys itself. Default false: such a certificate gets 401.
   */
  allowUnauthorized?: boolean;
  /**
   * Read the certificate from the RFC 9440 `Client-Cert` header instead of the connection. Only behind a
   * TLS-terminating proxy that verifies client certificates and removes any `Client-Cert` a client sends
   * (RFC 9440 §2.4, §4); a certificate in the header counts as verified. Default false: the header is
   * ignored.
   */
  fromProxyHeader?: boolean;
  /**
   * With `fromProxyHeader`: addresses or CIDR blocks of the proxy. The header is believed only when the
   * connection's peer address (as the adapter recorded it) is in one of them. Default: any peer, so the
   * app must be reachable only through the proxy.
   */
  trustedProxies?: readonly string[];
  /** Your own certificate source (see `parseCertificate`); replaces the connection and the header. */
  certificate?: (request: Request) => MaybePromise<PeerCertificate | undefined>;
  /** Tolerance when checking notBefore/notAfter against the clock, in seconds; default 0. */
  clockSkewSeconds?: number;
}

/** `mutualTls` options after validation. */
export interface ResolvedMutualTlsOptions {
  readonly realm: string;
  readonly challengeScheme: string;
  /** Upper-case hex without separators. */
  readonly allowFingerprints: readonly string[] | undefined;
  readonly verify: MutualTlsOptions['verify'];
  readonly subject: (certificate: PeerCertificate) => string | undefined;
  readonly allowUnauthorized: boolean;
  readonly fromProxyHeader: boolean;
  readonly trustedProxy: ((address: string) => boolean) | undefined;
  readonly certificate: MutualTlsOptions['certificate'];
  readonly clockSkewSeconds: number;
}

const HEX = '0123456789ABCDEF';

/** `AB:CD:..` or `abcd..` as `ABCD..`; undefined unless it is 32 bytes of hex. */
function normaliseFingerprint(value: string): string | undefined {
  const compact = value.replaceAll(':', '').toUpperCase();
  if (compact.length !== 64) return undefined;
  for (const char of compact) if (!HEX.includes(char)) return undefined;
  return compact;
}

/** The last CN of the subject, else the fingerprint. */
function defaultSubject(certificate: PeerCertificate): string {
  const names = certificate.subject.CN;
  return names?.[names.length - 1] ?? certificate.fingerprint256;
}

function optionalFunction<T>(name: string, value: T): T {
  if (value !== undefined && typeof value !== 'function') {
    throw new TypeError(`mutualTls option "${name}" must be a function`);
  }
  return value;
}

function optionalBoolean(name: string, value: unknown): boolean {
  if (value !== undefined && typeof value !== 'boolean') {
    throw new TypeError(`mutualTls option "${name}" must be a boolean`);
  }
  return value === true;
}

/** Validates `mutualTls` options and fills defaults; throws a TypeError or RangeError naming the option. */
export function resolveMutualTlsOptions(options: MutualTlsOptions = {}): ResolvedMutualTlsOptions {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError('mutualTls options must be an object');
  }
  const challengeScheme = options.challengeScheme ?? 'ClientCertificate';
  try {
    formatChallenge({ scheme: challengeScheme });
  } catch {
    throw new TypeError(
      `mutualTls option "challengeScheme" must be an HTTP token, got ${String(challengeScheme)}`,
    );
  }
  let allowFingerprints: string[] | undefined;
  if (options.allowFingerprints !== undefined) {
    if (!Array.isArray(options.allowFingerprints) || options.allowFingerprints.length === 0) {
      throw new TypeError(
        'mutualTls option "allowFingerprints" must be a non-empty array (leave it out to accept every trusted certificate)',
      );
    }
    allowFingerprints = options.allowFingerprints.map((value, index) => {
      const fingerprint = typeof value === 'string' ? normaliseFingerprint(value) : undefined;
      if (fingerprint === undefined) {
        throw new TypeError(
          `mutualTls option "allowFingerprints[${index}]" must be a SHA-256 fingerprint in hex`,
        );
      }
      return fingerprint;
    });
  }
  const fromProxyHeader = optionalBoolean('fromProxyHeader', options.fromProxyHeader);
  const certificate = optionalFunction('certificate', options.certificate);
  if (certificate !== undefined && fromProxyHeader) {
    throw new TypeError('mutualTls options "certificate" and "fromProxyHeader" exclude each other');
  }
  let trustedProxy: ((address: string) => boolean) | undefined;
  if (options.trustedProxies !== undefined) {
    if (!fromProxyHeader) {
      throw new TypeError('mutualTls option "trustedProxies" needs "fromProxyHeader: true"');
    }
    trustedProxy = compileCidrs(options.trustedProxies, 'mutualTls option "trustedProxies"');
  }
  const skew = options.clockSkewSeconds ?? 0;
  if (typeof skew !== 'number' || !Number.isFinite(skew) || skew < 0) {
    throw new RangeError(
      `mutualTls option "clockSkewSeconds" must be a non-negative number, got ${String(skew)}`,
    );
  }
  return Object.freeze({
    realm: resolveRealm('mutualTls', options.realm),
    challengeScheme,
    allowFingerprints: allowFingerprints === undefined ? undefined : Object.freeze(allowFingerprints),
    verify: optionalFunction('verify', options.verify),
    subject: optionalFunction('subject', options.subject) ?? defaultSubject,
    allowUnauthorized: optionalBoolean('allowUnauthorized', options.allowUnauthorized),
    fromProxyHeader,
    trustedProxy,
    certificate,
    clockSkewSeconds: skew,
  });
}

const UNREADABLE_HEADER = 'The Client-Cert header is not a certificate (RFC 9440 §2.2).';

/** Longest `Client-Cert` value read: base64 of the largest certificate decoded, plus the colons. */
const MAX_HEADER_LENGTH = 87_400;

/** Standard base64 (RFC 4648 §4), padding optional as RFC 8941 §4.2.7 asks parsers to allow; else undefined. */
function decodeBase64(text: string): Uint8Array | undefined {
  if (text.length === 0) return undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const ok =
      (c >= 0x41 && c <= 0x5a) ||
      (c >= 0x61 && c <= 0x7a) ||
      (c >= 0x30 && c <= 0x39) ||
      c === 0x2b ||
      c === 0x2f;
    if (!ok && !(c === 0x3d && i >= text.length - 2)) return undefined;
  }
  try {
    const binary = atob(text);
    return Uint8Array.from(binary, (char) => char.charCodeAt(0));
  } catch {
    return undefined;
  }
}

/**
 * The DER bytes of an RFC 9440 §2.2 `Client-Cert` value: an RFC 8941 Item whose bare item is a Byte
 * Sequence, `:<base64>:`, optionally followed by parameters (none are defined; they are ignored). A list
 * (the field sent twice, or a comma) or any other shape gives undefined.
 */
export function parseClientCertHeader(value: string): Uint8Array | undefined {
  const text = value.trim();
  if (text.length > MAX_HEADER_LENGTH || text.charCodeAt(0) !== 0x3a) return undefined;
  const close = text.indexOf(':', 1);
  if (close < 0) return undefined;
  const rest = text.slice(close + 1);
  if (rest.includes(',') || (rest !== '' && rest.charCodeAt(0) !== 0x3b)) return undefined;
  return decodeBase64(text.slice(1, close));
}

/**
 * Authenticates the caller by its TLS client certificate, in preBody. On success sets
 * `ctx.state.auth = { scheme: 'mtls', credentials: <PeerCertificate> }` and
 * `ctx.state.user = { sub, scopes: [], claims }` (claims: the certificate's names, serial, fingerprint
 * and validity).
 *
 * - no certificate (or a proxy header from an untrusted peer): 401 with the `ClientCertificate` challenge;
 * - a certificate the TLS layer did not verify (unless `allowUnauthorized`), one outside its validity
 *   period, or an unreadable `Client-Cert`: 401;
 * - a verified certificate refused by `allowFingerprints` or `verify`: 403.
 *
 * @example app.use(mutualTls({ verify: (cert) => cert.subject.O?.includes('Acme Payments') === true }));
 */
export function mutualTls(options: MutualTlsOptions = {}): Hooks {
  const resolved = resolveMutualTlsOptions(options);
  const { realm, challengeScheme: scheme, allowFingerprints, verify, allowUnauthorized } = resolved;
  const refuse = (description: string) => unauthorized({ scheme, realm, description });

  // ctx.headers, not ctx.request, where it is enough: the request wrapper is built only when asked for.
  async function find(ctx: PreBodyContext): Promise<PeerCertificate | undefined> {
    if (resolved.certificate !== undefined) return resolved.certificate(ctx.request);
    if (!resolved.fromProxyHeader) return peerCertificate(ctx.request);
    // RFC 9440 §4: the header is only as trustworthy as the hop that set it.
    if (resolved.trustedProxy !== undefined) {
      const peer = requestPeer(ctx.request);
      if (peer === undefined || !resolved.trustedProxy(peer)) return undefined;
    }
    const header = ownValue(ctx.headers, 'client-cert');
    if (header === undefined) return undefined;
    const der = parseClientCertHeader(header);
    if (der === undefined) throw refuse(UNREADABLE_HEADER);
    try {
      return await parseCertificate(der, { authorized: true });
    } catch {
      throw refuse(UNREADABLE_HEADER);
    }
  }

  return withHookTraits(
    {
      async preBody(ctx: PreBodyContext): Promise<void> {
        const certificate = await find(ctx);
        if (certificate === undefined) throw refuse('A TLS client certificate is required.');
        if (!certificate.authorized && !allowUnauthorized) {
          throw refuse('The client certificate is not issued by a trusted certificate authority.');
        }
        const now = Date.now();
        const skew = resolved.clockSkewSeconds * 1000;
        if (now + skew < certificate.validFrom.getTime()) {
          throw refuse('The client certificate is not yet valid.');
        }
        if (now - skew > certificate.validTo.getTime()) {
          throw refuse('The client certificate has expired.');
        }
        if (allowFingerprints !== undefined) {
          const fingerprint = normaliseFingerprint(certificate.fingerprint256) ?? '';
          let allowed = false;
          // Every entry is compared, so the time taken does not tell which one matched.
          for (const candidate of allowFingerprints) {
            allowed = timingSafeEqual(fingerprint, candidate) || allowed;
          }
          if (!allowed) throw new ForbiddenError('This client certificate is not allowed.');
        }
        const claims = {
          subject: certificate.subject,
          issuer: certificate.issuer,
          subjectAltName: certificate.subjectAltName,
          serialNumber: certificate.serialNumber,
          fingerprint256: certificate.fingerprint256,
          validFrom: certificate.validFrom,
          validTo: certificate.validTo,
        };
        let sub = resolved.subject(certificate);
        if (sub !== undefined && typeof sub !== 'string') {
          throw new TypeError('mutualTls "subject" must return a string');
        }
        let scopes: readonly string[] = Object.freeze([]);
        let extra: Readonly<Record<string, unknown>> = {};
        if (verify !== undefined) {
          const user = await runVerify('mutualTls', () => verify(certificate, ctx));
          if (user === undefined) throw new ForbiddenError('This client certificate is not allowed.');
          sub = user.sub ?? sub;
          scopes = user.scopes;
          extra = user.claims;
        }
        ctx.state.auth = Object.freeze({ scheme: 'mtls', credentials: certificate });
        ctx.state.user = Object.freeze({ sub, scopes, claims: Object.freeze({ ...claims, ...extra }) });
      },
    },
    { authenticates: true },
  );
}
