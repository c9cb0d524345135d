/**
 * The example to-do app on a real port with its OpenAPI document at GET /openapi.json and a docs
 * route, for the browser tests; and the operations of that document, as a docs UI lists them.
 */
import type { App, DocsRouteOptions } from 'charter';
import { createExampleApp } from '../../../examples/todo-app.ts';

/** One operation of the served OpenAPI document. */
export interface SpecOperation {
  method: string;
  path: string;
  operationId: string | undefined;
  summary: string | undefined;
}

/** A running app. */
export interface RunningDocsApp {
  readonly app: App;
  /** `http://127.0.0.1:<port>`. */
  readonly origin: string;
  stop(): Promise<void>;
}

/**
 * Starts the example app on 127.0.0.1 with its OpenAPI document (the App option `openapi`) and the
 * docs route under test: the App option `docs` when given options, else what `mount(app)` registers.
 */
export function startDocsApp(docs: DocsRouteOptions | ((app: App) => void)): RunningDocsApp {
  const app = typeof docs === 'function' ? createExampleApp({ openapi: true }) : createExampleApp({ docs });
  if (typeof docs === 'function') docs(app);
  const server = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: app.fetch });
  return { app, origin: `http://127.0.0.1:${server.port}`, stop: () => server.stop(true) };
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** The operations of the document the app serves at /openapi.json. */
export async function specOperations(origin: string): Promise<SpecOperation[]> {
  const response = await fetch(`${origin}/openapi.json`);
  if (response.status !== 200) throw new Error(`GET /openapi.json answered ${response.status}`);
  const document = (await response.json()) as { paths?: Record<string, Record<string, unknown>> };
  const operations: SpecOperation[] = [];
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const [method, value] of Object.entries(item)) {
      if (!METHODS.includes(method)) continue;
      const operation = value as { operationId?: string; summary?: string };
      operations.push({ method, path, operationId: operation.operationId, summary: operation.summary });
    }
  }
  return operations;
}
