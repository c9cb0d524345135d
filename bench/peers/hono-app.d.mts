import type { Hono } from 'hono';
export declare function honoApp(): Hono;
