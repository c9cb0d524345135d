/**
 * Runs on Deno (see ../../deno.test.ts): the behaviour checks executed inside Deno itself, against the
 * app in process (`app.fetch`), typed client included, and reported as one JSON line of
 * `BehaviourResult`s on stdout. The HTTP side of charter/deno is checked from Bun by deno.test.ts.
 */
import { createBehaviourApp } from '../app.ts';
import { runBehaviourChecks } from '../checks.ts';

const app = createBehaviourApp();
const results = await runBehaviourChecks({ baseUrl: 'http://charter.local', fetch: (r) => app.fetch(r) });
console.log(JSON.stringify({ results }));
