import type { IntrospectedRoute } from '../types/index.ts';
import type { RouteRecord } from './registry.ts';

/** The public description of a registered route (`app.introspect()`), optional fields only when set. */
export function introspectRoute(record: RouteRecord): IntrospectedRoute {
  const { definition } = record;
  const request = definition.request ?? {};
  const route: IntrospectedRoute = {
    method: definition.method,
    path: record.path,
    hasBody: request.body !== undefined,
    hasQuery: request.query !== undefined,
    hasParams: request.params !== undefined,
    hasHeaders: request.headers !== undefined,
    responses: Object.keys(definition.responses)
      .map(Number)
      .sort((a, b) => a - b),
  };
  if (record.operationId !== undefined) route.operationId = record.operationId;
  if (record.tags !== undefined && record.tags.length > 0) route.tags = [...record.tags];
  if (definition.summary !== undefined) route.summary = definition.summary;
  if (definition.description !== undefined) route.description = definition.description;
  if (definition.deprecated !== undefined) route.deprecated = definition.deprecated;
  if (record.auth !== undefined) {
    const auth: NonNullable<IntrospectedRoute['auth']> = { scheme: record.auth.scheme };
    if (record.auth.scopes !== undefined) auth.scopes = [...record.auth.scopes];
    if (record.auth.optional === true) auth.optional = true;
    route.auth = auth;
  }
  if (definition.meta !== undefined) route.meta = definition.meta;
  return route;
}
