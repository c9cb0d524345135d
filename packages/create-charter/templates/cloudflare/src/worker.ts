/** The Worker: `wrangler dev` runs it locally, `wrangler deploy` publishes it. */
import { toWorker } from 'charter/cloudflare';
import { createApp } from './app.ts';

export default toWorker(
  createApp({
    // Workers have no NODE_ENV: production on (redacted 5xx details, HSTS, boot guards).
    production: true,
    // Cloudflare's edge is the one proxy in front of the Worker (client address from it).
    behindProxy: { hops: 1 },
  }),
);
