export type { RouteInfo, RouteLookup } from './router.ts';
export { RouteDefinitionError, Router } from './router.ts';
