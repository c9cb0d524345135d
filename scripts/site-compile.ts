/**
 * `bun run site:compile [outfile]`: builds the documentation site into one executable (default
 * `dist/charter-site`) with the content already built: every file of `content/` is parsed,
 * rendered and checked here, as `bun run site` does at start-up (a broken page fails the build),
 * and the module `site/content/embedded.ts` is replaced by one that holds the result as plain data,
 * so the binary needs no `content/` directory beside it and renders no Markdown when it starts.
 * Styles and icons are modules already. The bundle is also compiled to bytecode, so the binary
 * does not parse its JavaScript at each start.
 */
import { join, resolve } from 'node:path';
import { buildContent } from '../site/content/build.ts';
import { documentTemplate } from '../site/html/document-template.ts';
import { contentData, embeddedContentModule } from '../site/content/prebuilt.ts';
import { readContentDir } from '../site/content/read-dir.ts';

const root = resolve(import.meta.dir, '..');
const outfile = resolve(process.argv[2] ?? join(root, 'dist', 'charter-site'));
const entries = await readContentDir(join(root, 'content'));
const site = buildContent(entries);
const data = contentData(site);
// Every page's document rendered now, its origin left open (html/document-template.ts).
const templates = site.pages.map((page) => documentTemplate(site, page));

const embedContent: Bun.BunPlugin = {
  name: 'charter-embed-content',
  setup(build) {
    build.onLoad({ filter: /[\\/]site[\\/]content[\\/]embedded\.ts$/ }, () => ({
      // The same exports as the module in source form, the content as literals (prebuilt.ts).
      contents: embeddedContentModule(data, templates),
      loader: 'ts',
    }));
  },
};

const result = await Bun.build({
  entrypoints: [join(root, 'site', 'main.ts')],
  compile: { outfile },
  plugins: [embedContent],
  format: 'esm',
  bytecode: true,
  minify: true,
  sourcemap: 'none',
});
if (!result.success) {
  for (const log of result.logs) console.error(log);
  process.exit(1);
}
const rendered = templates.filter((parts) => parts !== undefined).length;
console.log(`Built ${outfile} with ${data.pages.length} pages of content embedded, ${rendered} rendered`);
