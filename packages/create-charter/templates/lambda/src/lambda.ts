/** The Lambda handler (API Gateway HTTP and REST APIs, Function URLs, ALB): `bun run build` bundles it. */
import { toLambdaHandler } from 'charter/lambda';
import { createApp } from './app.ts';

export const handler = toLambdaHandler(
  createApp({
    // Lambda sets no NODE_ENV: production on (redacted 5xx details, HSTS, boot guards).
    production: true,
    // API Gateway and Function URLs hand over the client's address themselves.
    behindProxy: 'none',
  }),
);
