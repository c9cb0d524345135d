/**
 * @module charter/bun
 * Serves a Charter App with `Bun.serve`: static paths, and parameter paths no other route overlaps, go
 * to Bun's native route table (used only when its match is the router's), the rest
 * through the app's router; SIGINT/SIGTERM drain in-flight requests before exiting.
 */
export { type BunServeHandle, type BunServeOptions, type BunServer, serve } from './serve.ts';
