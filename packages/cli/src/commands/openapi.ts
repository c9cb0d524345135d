/** `charter openapi [entry] [--yaml] [--out file]`: the App's OpenAPI document. */
import { openapiToYAML } from '@charter/openapi';
import { type Command, EXIT } from '../context.ts';
import { writeOutFile } from '../output.ts';
import { appOf, documentOf, ENTRY_DETAIL, HELP_FLAG, OUT_FLAG } from './shared.ts';

export const openapiCommand: Command = {
  name: 'openapi',
  usage: 'openapi [entry] [--yaml] [--out file]',
  summary: 'print or write the OpenAPI 3.1 document',
  details: [
    ENTRY_DETAIL,
    'The document the App serves when it mounts one (App option openapi or docs), else one generated with its title and version.',
  ],
  flags: { yaml: { type: 'boolean', description: 'YAML instead of JSON' }, out: OUT_FLAG, help: HELP_FLAG },
  maxPositionals: 1,
  async run(args, context) {
    const { app } = await appOf(args, context);
    const document = documentOf(app);
    const text =
      args.flags.yaml === true ? openapiToYAML(document) : `${JSON.stringify(document, null, 2)}\n`;
    if (typeof args.flags.out === 'string') {
      const written = writeOutFile(args.flags.out, context.cwd, text);
      context.stderr(`wrote ${written}\n`);
    } else {
      context.stdout(text);
    }
    return EXIT.ok;
  },
};
