/**
 * The client certificate of a TLS connection (`https.createServer({ requestCert: true, ... })`), handed
 * to the core's per-request registry so `mutualTls()` can authenticate with it. Read once per connection:
 * the certificate cannot change after the handshake (TLS 1.3 has no renegotiation, and Node refuses
 * client-initiated renegotiation), and keep-alive requests reuse the record.
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { decodeCertificate, type PeerCertificate, setPeerCertificate } from '@charter/core';

/** `null` marks a connection without a (readable) client certificate. */
const byConnection = new WeakMap<object, PeerCertificate | null>();

function fingerprint(der: Uint8Array): string {
  const digest = createHash('sha256').update(der).digest();
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, '0').toUpperCase()).join(':');
}

function reason(error: unknown): string | undefined {
  if (error === undefined || error === null) return undefined;
  if (typeof error === 'string') return error;
  const { code, message } = error as { code?: unknown; message?: unknown };
  return typeof code === 'string' ? code : typeof message === 'string' ? message : undefined;
}

function read(socket: TLSSocket): PeerCertificate | null {
  // Not detailed: only the leaf's DER, which the core decodes (one decoder for every source).
  const info = socket.getPeerCertificate(false) as { raw?: Uint8Array } | null;
  if (info === null || !(info.raw instanceof Uint8Array) || info.raw.length === 0) return null;
  const raw = new Uint8Array(info.raw); // a copy: Buffers may share a pool
  let fields: ReturnType<typeof decodeCertificate>;
  try {
    fields = decodeCertificate(raw);
  } catch {
    return null; // OpenSSL took it but it is not a certificate the core can read: treated as none
  }
  const authorizationError = socket.authorized ? undefined : reason(socket.authorizationError);
  return Object.freeze({
    ...fields,
    fingerprint256: fingerprint(raw),
    authorized: socket.authorized === true,
    ...(authorizationError === undefined ? {} : { authorizationError }),
  });
}

/** Records the client certificate of `req`'s TLS connection for `request`; nothing on plain TCP. */
export function recordPeerCertificate(req: IncomingMessage, request: Request): void {
  const socket = req.socket as Partial<TLSSocket> | null;
  if (socket === null || typeof socket.getPeerCertificate !== 'function') return;
  let certificate = byConnection.get(socket);
  if (certificate === undefined) {
    certificate = read(socket as TLSSocket);
    byConnection.set(socket, certificate);
  }
  if (certificate !== null) setPeerCertificate(request, certificate);
}
