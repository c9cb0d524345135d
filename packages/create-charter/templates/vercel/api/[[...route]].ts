/** Every request under /api reaches the app, with /api taken off the path (`/api/hello/x` is `/hello/x`). */
import { toVercelHandlers } from 'charter/vercel';
import { createApp } from '../src/app.ts';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = toVercelHandlers(
  createApp({
    production: process.env.VERCEL_ENV === 'production',
    // Vercel's edge writes the client's address in X-Forwarded-For.
    behindProxy: { hops: 1 },
  }),
  { basePath: '/api' },
);
