/** `charter routes [entry] [--json]`: the App's routes, as a table or as JSON. */
import type { IntrospectedRoute } from '@charter/core';
import { type Command, EXIT } from '../context.ts';
import { cell, table } from '../output.ts';
import { appOf, ENTRY_DETAIL, HELP_FLAG, JSON_FLAG } from './shared.ts';

function authText(route: IntrospectedRoute): string {
  if (route.auth === undefined) return '-';
  const scopes = route.auth.scopes?.length ? ` (${route.auth.scopes.join(' ')})` : '';
  return `${route.auth.scheme}${scopes}${route.auth.optional ? ' optional' : ''}`;
}

/** The routes table: method, path, operationId, auth, declared statuses. */
export function formatRoutesTable(routes: readonly IntrospectedRoute[]): string {
  if (routes.length === 0) return 'No routes.\n';
  const rows = routes.map((route) => [
    cell(route.method),
    cell(route.path, 200),
    cell(route.meta?.websocket === true ? '(websocket)' : (route.operationId ?? '-')),
    cell(authText(route)),
    route.responses.join(' '),
  ]);
  return table(['METHOD', 'PATH', 'OPERATION', 'AUTH', 'RESPONSES'], rows);
}

export const routesCommand: Command = {
  name: 'routes',
  usage: 'routes [entry] [--json]',
  summary: 'list the routes of the app',
  details: [ENTRY_DETAIL, '--json prints the routes as `app.introspect()` describes them.'],
  flags: { json: JSON_FLAG, help: HELP_FLAG },
  maxPositionals: 1,
  async run(args, context) {
    const { app } = await appOf(args, context);
    const routes = app.introspect() as IntrospectedRoute[];
    context.stdout(
      args.flags.json === true ? `${JSON.stringify(routes, null, 2)}\n` : formatRoutesTable(routes),
    );
    return EXIT.ok;
  },
};
