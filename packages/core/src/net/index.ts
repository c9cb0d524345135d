/**
 * Network address helpers: IP and CIDR parsing and classification, the client address behind
 * proxies (X-Forwarded-For, RFC 7239 Forwarded), the outbound request guard (SSRF) and the
 * open-redirect guard.
 */
export { type Cidr, type CidrMatcher, cidrContains, compileCidrs, formatCidr, parseCidr } from './cidr.ts';
export { clientKey, DEFAULT_IPV6_CLIENT_PREFIX } from './client-key.ts';
export { type HostResolver, systemResolver } from './dns.ts';
export { fetchGuard } from './fetch-guard.ts';
export {
  type FetchFunction,
  type FetchGuardOptions,
  type HostMatcher,
  isAddressAllowed,
  type ResolvedFetchGuardOptions,
  resolveFetchGuardOptions,
} from './fetch-guard-options.ts';
export {
  type ForwardedElement,
  type ForwardedHop,
  parseForwarded,
  parseForwardedNode,
  parseXForwardedFor,
} from './forwarded.ts';
export {
  canonicalizeIp,
  formatIp,
  type IpAddress,
  ipEquals,
  isIp,
  type ParseIpOptions,
  parseIp,
  unmapIpv4,
} from './ip.ts';
export { classifyIp, embeddedIpv4, type IpClass, METADATA_ADDRESSES } from './ip-class.ts';
export {
  type ClientAddress,
  type ClientAddressSource,
  clientAddress,
  type ProxyPosture,
  type ResolvedProxyPosture,
  resolveProxyPosture,
} from './proxy-posture.ts';
export {
  type SafeRedirectOptions,
  type SafeRedirectStatus,
  safeRedirect,
  safeRedirectLocation,
  UnsafeRedirectError,
  type UnsafeRedirectReason,
} from './safe-redirect.ts';
export {
  isSsrfError,
  redactUrl,
  SSRF_REASONS,
  SsrfError,
  type SsrfErrorOptions,
  type SsrfReason,
} from './ssrf-error.ts';
