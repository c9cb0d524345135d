/**
 * A second worker with no proxy posture (`behindProxy: 'none'`): CF-Connecting-IP must not become the
 * client address there. See ../../cloudflare.test.ts.
 */
import { clientIp } from 'charter';
import { toWorker } from 'charter/cloudflare';
import { z } from 'zod';
import { createBehaviourApp } from '../app.ts';

const app = createBehaviourApp({ behindProxy: 'none' });
app.get('/peer', { responses: { 200: { body: z.object({ address: z.string().nullable() }) } } }, (ctx) => ({
  status: 200,
  body: { address: clientIp(ctx.request) ?? null },
}));

export default toWorker(app);
