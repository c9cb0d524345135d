/**
 * The bin of create-charter: what `bun create charter`, `npm create charter` and `bunx create-charter`
 * run. Bundled for Node into dist/create-charter.js by `bun run pack`.
 */
import { main } from './cli.ts';

process.exitCode = main(process.argv.slice(2), process.cwd());
