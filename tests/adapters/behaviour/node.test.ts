/**
 * The behaviour suite through charter/node on real Node 24 (NODE24_PATH, as the Node adapter tests):
 * the built package, a server in a Node child process, the checks over HTTP from here.
 */
import { afterAll, beforeAll } from 'bun:test';
import { join } from 'node:path';
import { node24 } from '../fixtures/node24.ts';
import { readLines } from '../../support/lines.ts';
import { describeBehaviour } from './bun.ts';
import type { BehaviourTarget } from './checks.ts';

let child: ReturnType<typeof Bun.spawn<'ignore', 'pipe', 'pipe'>> | undefined;
let target: BehaviourTarget | undefined;

beforeAll(async () => {
  const proc = Bun.spawn([node24().path, join(import.meta.dir, 'runtimes', 'node-server.ts')], {
    stdin: 'ignore',
    stdout: 'pipe',
    // The app logs the /crash check's error there on purpose; shown only if the start fails.
    stderr: 'pipe',
  });
  child = proc;
  const stderr = new Response(proc.stderr).text();
  const lines: string[] = [];
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`Node did not listen in time: ${lines.join('\n')}`)),
      30_000,
    );
    void readLines(proc.stdout, (line) => {
      lines.push(line);
      if (line.includes('"msg":"Listening"')) {
        clearTimeout(timer);
        resolve((JSON.parse(line) as { url: string }).url);
      }
    }).then(async () => {
      clearTimeout(timer);
      reject(new Error(`Node exited before listening: ${lines.join('\n')}\n${await stderr}`));
    });
  });
  target = { baseUrl: url, fetch: (request) => fetch(request) };
}, 35_000);

afterAll(async () => {
  child?.kill('SIGKILL');
  await child?.exited;
});

describeBehaviour('Node 24 (charter/node)', () => {
  if (target === undefined) throw new Error('the Node server did not start');
  return target;
});
