/**
 * Runs on Node 24 (see ../node.test.ts): serves the behaviour app with `charter/node`, the built
 * package, as a user's Node 24 project does (Node strips the types of this file and app.ts). Prints
 * the adapter's JSON log lines; the "Listening" line carries the URL the test connects to.
 */
import { createJsonLogger } from 'charter';
import { serve } from 'charter/node';
import { createBehaviourApp } from '../app.ts';

await serve(createBehaviourApp({ logger: createJsonLogger({ level: 'info' }) }), { port: 0 });
