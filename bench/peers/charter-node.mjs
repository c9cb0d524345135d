/**
 * Charter on Node: `serve(app)` from `charter/node` (the built package, `charter-app.mjs`), under real
 * Node 24.
 *
 *   node bench/peers/charter-node.mjs <port> zod|arktype
 */
import { charterApp, charterModule } from './charter-app.mjs';
import { announce, extraArgs, HOSTNAME, portArg } from './lifecycle.mjs';

const port = portArg();
const [validator] = extraArgs();
const { App } = await charterModule('index.js');
const { serve } = await charterModule('node.js');
const app = await charterApp(App, validator);
const server = await serve(app, { port, hostname: HOSTNAME, signals: false });
announce(server.port, () => server.close(1000));
