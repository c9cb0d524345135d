/**
 * `node:http`, taken from `process.getBuiltinModule` instead of an `import`. An ESM import of a
 * builtin builds its namespace from every export, and on Node 24 node:http's exports include
 * `WebSocket`, `CloseEvent` and `MessageEvent`, which Node defines lazily from undici: importing
 * node:http by name loads undici (about 35 ms of a server's start on the development machine), even
 * for a server whose code never touches a web class. `getBuiltinModule` hands over the module object
 * itself and reads none of them. Node 20.16+, 22.3+ and Bun have it; charter/node needs Node 24.
 */
import type * as NodeHttp from 'node:http';

function builtinHttp(): typeof NodeHttp {
  const runtime = globalThis.process as
    | { getBuiltinModule?: (id: 'node:http') => typeof NodeHttp }
    | undefined;
  if (typeof runtime?.getBuiltinModule !== 'function') {
    throw new Error(
      'charter/node needs Node 24 or later: this runtime has no process.getBuiltinModule to reach node:http with',
    );
  }
  return runtime.getBuiltinModule('node:http');
}

export const http: typeof NodeHttp = builtinHttp();
