/**
 * @module charter/bun
 * Serves a Charter App with `Bun.serve`: static routes go to Bun's native route table, the rest
 * through the app's router; SIGINT/SIGTERM drain in-flight requests before exiting.
 */
export { type BunServeHandle, type BunServeOptions, type BunServer, serve } from './serve.ts';
