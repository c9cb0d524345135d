/**
 * The command line of create-charter (`create-charter <folder> [--template bun|node|...]`), as a
 * function the tests call: prints the next commands on success; on a refusal, the reason, and returns 1.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  availableTemplates,
  ScaffoldError,
  scaffold,
  TEMPLATE_ADAPTERS,
  type TemplateName,
} from './scaffold.ts';

// Both src/cli.ts and the bundled dist/create-charter.js sit one level below the package root.
const TEMPLATES_DIR = fileURLToPath(new URL('../templates/', import.meta.url));
const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

/** The commands to run after scaffolding, per template (install, test, then serve or deploy). */
const NEXT_STEPS: Record<TemplateName, readonly string[]> = {
  bun: ['bun install', 'bun run test', 'bun run start'],
  node: ['npm install', 'npm test', 'npm start'],
  deno: ['deno install', 'deno task test', 'deno task start'],
  cloudflare: ['bun install', 'bun run test', 'bun run dev        # wrangler dev; bun run deploy to publish'],
  vercel: ['bun install', 'bun run test', 'bunx vercel dev'],
  lambda: ['bun install', 'bun run test', 'bun run build      # dist/index.mjs, the handler to upload'],
};

function usage(): string {
  const available = availableTemplates(TEMPLATES_DIR);
  const missing = (Object.keys(TEMPLATE_ADAPTERS) as TemplateName[]).filter((t) => !available.includes(t));
  return `create-charter ${manifest.version}: start a Charter app

Usage:
  bun create charter <folder> [--template <name>]
  npm create charter@latest <folder> -- [--template <name>]
  bunx create-charter <folder> [--template <name>]

Templates (default bun):
${available.map((t) => `  ${t.padEnd(11)} serves with ${TEMPLATE_ADAPTERS[t]}`).join('\n')}
${missing.length === 0 ? '' : `Not in this version yet: ${missing.join(', ')} (they come with their adapters).\n`}
Options:
  -t, --template <name>   the template to copy
  --charter <spec>        what package.json depends on for charter (default ^${manifest.version});
                          before charter is on the registry: file:/path/to/charter-${manifest.version}.tgz
  -h, --help              this text
  -v, --version           the version`;
}

/** Runs the command line; returns the exit code. */
export function main(argv: readonly string[], cwd: string, out = console.log, err = console.error): number {
  let target: string | undefined;
  let template = 'bun';
  let charterVersion = `^${manifest.version}`;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '-h' || arg === '--help') {
      out(usage());
      return 0;
    }
    if (arg === '-v' || arg === '--version') {
      out(manifest.version);
      return 0;
    }
    if (arg === '-t' || arg === '--template') {
      const value = argv[++i];
      if (value === undefined || value.startsWith('-')) {
        err(`${arg} needs a template name: ${availableTemplates(TEMPLATES_DIR).join(', ')}`);
        return 1;
      }
      template = value;
    } else if (arg === '--charter') {
      const value = argv[++i];
      if (value === undefined || value === '') {
        err('--charter needs a version range or a tarball, e.g. --charter file:../charter-0.1.0.tgz');
        return 1;
      }
      charterVersion = value;
    } else if (arg.startsWith('--template=')) {
      template = arg.slice('--template='.length);
    } else if (arg.startsWith('-')) {
      err(`Unknown option ${arg}\n\n${usage()}`);
      return 1;
    } else if (target === undefined) {
      target = arg;
    } else {
      err(`One folder at a time: got "${target}" and "${arg}"`);
      return 1;
    }
  }
  if (target === undefined) {
    err(`Name the folder to create.\n\n${usage()}`);
    return 1;
  }
  if (!Object.hasOwn(TEMPLATE_ADAPTERS, template)) {
    err(`Unknown template "${template}": choose one of ${availableTemplates(TEMPLATES_DIR).join(', ')}`);
    return 1;
  }
  try {
    const { name } = scaffold({
      target,
      template: template as TemplateName,
      charterVersion,
      templatesDir: TEMPLATES_DIR,
      cwd,
    });
    out(
      `Created ${name} from the ${template} template. Next:\n\n  cd ${target}\n${NEXT_STEPS[template as TemplateName].map((line) => `  ${line}`).join('\n')}`,
    );
    return 0;
  } catch (error) {
    if (error instanceof ScaffoldError) {
      err(error.message);
      return 1;
    }
    throw error;
  }
}
