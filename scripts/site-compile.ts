/**
 * `bun run site:compile [outfile]`: builds the documentation site into one executable
 * (default `dist/charter-site`), with every file of `content/` embedded: the module
 * `site/content/embedded.ts` is replaced at build time by one that holds the files, so the binary
 * needs no `content/` directory beside it. Styles and icons are modules already.
 */
import { join, resolve } from 'node:path';
import { readContentDir } from '../site/content/read-dir.ts';

const root = resolve(import.meta.dir, '..');
const outfile = resolve(process.argv[2] ?? join(root, 'dist', 'charter-site'));
const entries = await readContentDir(join(root, 'content'));

const embedContent: Bun.BunPlugin = {
  name: 'charter-embed-content',
  setup(build) {
    build.onLoad({ filter: /[\\/]site[\\/]content[\\/]embedded\.ts$/ }, () => ({
      contents: `export const EMBEDDED_CONTENT = Object.freeze(${JSON.stringify(entries)});\n`,
      loader: 'ts',
    }));
  },
};

const result = await Bun.build({
  entrypoints: [join(root, 'site', 'main.ts')],
  compile: { outfile },
  plugins: [embedContent],
  minify: true,
  sourcemap: 'none',
});
if (!result.success) {
  for (const log of result.logs) console.error(log);
  process.exit(1);
}
console.log(`Built ${outfile} with ${entries.length} content files embedded`);
