export * from './app.ts';
export type * from './lifecycle.ts';
export * from './options.ts';
export type * from './plugins.ts';
export * from './scope.ts';
export type { HealthCheckOptions, ReadinessCheck, ReadinessCheckOptions } from '../builtins/health.ts';
