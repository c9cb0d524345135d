export * from './app.ts';
export type * from './lifecycle.ts';
export * from './options.ts';
export type * from './plugins.ts';
export * from './scope.ts';
export { type ListeningServer, type ServeHandle, serveHandle } from './serve-handle.ts';
export type { HealthCheckOptions, ReadinessCheck, ReadinessCheckOptions } from '../builtins/health.ts';
export { clientIp, originalRequest, setRequestPeer } from './client-ip.ts';
export { assertKnownOptions, closestOptionName } from './known-options.ts';
export type { LoadSheddingOptions, SecurityOptions } from './security-options.ts';
export {
  type AssertSecureConfigOptions,
  InsecureConfigError,
  REQUIRE_AUTH_META,
  type SecurityIssue,
  type SecurityIssueCode,
} from './boot-guards.ts';
export type { CspReportRouteOptions, CspViolation } from '../builtins/csp-report.ts';
export { assertCallbacks, assertResponses, assertSentOperation } from './route-shape.ts';
