/** `charter ai [entry] [--out file]`: a compact Markdown catalogue of the API for coding agents. */
import type { IntrospectedRoute } from '@charter/core';
import { buildAiDump } from '../ai-dump.ts';
import { type Command, EXIT } from '../context.ts';
import { writeOutFile } from '../output.ts';
import { appOf, documentOf, ENTRY_DETAIL, HELP_FLAG, OUT_FLAG } from './shared.ts';

export const aiCommand: Command = {
  name: 'ai',
  usage: 'ai [entry] [--out file]',
  summary: 'print a compact Markdown catalogue of routes, schemas and auth for coding agents',
  details: [
    ENTRY_DETAIL,
    'Built from the OpenAPI document: each operation with its parameters, body, responses and auth as short types, then the named schemas. WebSocket routes are listed too.',
  ],
  flags: { out: OUT_FLAG, help: HELP_FLAG },
  maxPositionals: 1,
  async run(args, context) {
    const { app } = await appOf(args, context);
    const websockets = (app.introspect() as IntrospectedRoute[])
      .filter((route) => route.meta?.websocket === true)
      .map((route) => ({ method: 'GET', path: route.path, note: 'WebSocket upgrade' }));
    const text = buildAiDump(documentOf(app), websockets);
    if (typeof args.flags.out === 'string') {
      context.stderr(`wrote ${writeOutFile(args.flags.out, context.cwd, text)}\n`);
    } else {
      context.stdout(text);
    }
    return EXIT.ok;
  },
};
