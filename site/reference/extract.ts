/**
 * Reads the public API of the built `charter` package from what it ships: the `exports` map of
 * `packages/charter/package.json` and each subpath's declaration file (`dist/<name>.d.ts`), through
 * the TypeScript 5 compiler API (`typescript5`; TypeScript 7 has no JavaScript API). For every
 * export of every subpath: its name, its kind, its declaration as written in the `.d.ts` (doc
 * comments of members kept), its own doc comment and its JSDoc tags (`@since`, `@deprecated`,
 * `@example`). Subpaths are read from the map, so a new one is picked up without a change here.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript5';

/** What kind of thing an export is, as the reference groups them. */
export type ExportKind = 'function' | 'class' | 'interface' | 'type' | 'constant' | 'enum' | 'namespace';

/** One export of a subpath. */
export interface ExportedSymbol {
  readonly name: string;
  readonly kind: ExportKind;
  /** The declaration(s) as the `.d.ts` has them, without `export`/`declare`; overloads one after another. */
  readonly signature: string;
  /** The doc comment's text (Markdown), `''` when there is none. */
  readonly doc: string;
  /** The `@since` version, when the comment has one. */
  readonly since: string | undefined;
  /** The `@deprecated` text (`''` for a bare tag), when the comment has one. */
  readonly deprecated: string | undefined;
  /** Each `@example` body. */
  readonly examples: readonly string[];
}

/** One subpath of the package. */
export interface Subpath {
  /** As in the exports map: `.`, `./jwt`. */
  readonly key: string;
  /** The import specifier: `charter`, `charter/jwt`. */
  readonly specifier: string;
  /** The page's name: `charter` for the root, else the subpath (`jwt`). */
  readonly slug: string;
  /** The `@module` text of the declaration file, `''` when it has none. */
  readonly moduleDoc: string;
  /** Every export, by name (code-unit order). */
  readonly exports: readonly ExportedSymbol[];
}

/** The package as the reference describes it. */
export interface PackageApi {
  readonly name: string;
  readonly version: string;
  readonly subpaths: readonly Subpath[];
}

interface ExportsEntry {
  readonly types?: string;
}

/** The subpaths of an exports map that have declarations, in map order (`./package.json` is not code). */
export function subpathsOf(manifest: {
  readonly exports?: Readonly<Record<string, unknown>>;
}): { key: string; types: string }[] {
  const found: { key: string; types: string }[] = [];
  for (const [key, value] of Object.entries(manifest.exports ?? {})) {
    const types = typeof value === 'object' && value !== null ? (value as ExportsEntry).types : undefined;
    if (typeof types === 'string') found.push({ key, types });
  }
  return found;
}

/** Reads the API of the package at `packageDir` (its `package.json` and built `dist/`). */
export function extractPackageApi(packageDir: string): PackageApi {
  const manifest = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as {
    name: string;
    version: string;
    exports?: Record<string, unknown>;
  };
  const entries = subpathsOf(manifest).map((entry) => ({ ...entry, file: join(packageDir, entry.types) }));
  const program = ts.createProgram(
    entries.map((entry) => entry.file),
    {
      noEmit: true,
      skipLibCheck: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
      types: [],
    },
  );
  const checker = program.getTypeChecker();
  const subpaths = entries.map((entry): Subpath => {
    const source = program.getSourceFile(entry.file);
    if (source === undefined) {
      throw new Error(`reference: cannot read ${entry.file}; run \`bun run build\` first`);
    }
    const moduleSymbol = checker.getSymbolAtLocation(source);
    const symbols = moduleSymbol === undefined ? [] : checker.getExportsOfModule(moduleSymbol);
    const slug = entry.key === '.' ? manifest.name : entry.key.slice(2);
    return {
      key: entry.key,
      specifier: entry.key === '.' ? manifest.name : `${manifest.name}/${entry.key.slice(2)}`,
      slug,
      moduleDoc: moduleDocOf(source),
      exports: symbols
        .map((symbol) => describeExport(checker, symbol))
        .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
    };
  });
  return { name: manifest.name, version: manifest.version, subpaths };
}

/** The first doc comment of a declaration file, when it carries `@module`: its text after the tag. */
function moduleDocOf(source: ts.SourceFile): string {
  const comment = /^\s*\/\*\*([\s\S]*?)\*\//.exec(source.text);
  if (comment === null || !comment[1]?.includes('@module')) return '';
  const text = (comment[1] as string)
    .split('\n')
    .map((line) => line.replace(/^\s*\* ?/, ''))
    .join('\n')
    .trim();
  // `@module charter/jwt — what it is`: keep what it is.
  return text.replace(/^@module\s+\S+\s*(?:—|-)?\s*/, '').trim();
}

function resolved(checker: ts.TypeChecker, symbol: ts.Symbol): ts.Symbol {
  return symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
}

function kindOf(symbol: ts.Symbol): ExportKind {
  const flags = symbol.flags;
  if (flags & ts.SymbolFlags.Class) return 'class';
  if (flags & ts.SymbolFlags.Function) return 'function';
  if (flags & ts.SymbolFlags.Enum) return 'enum';
  if (flags & ts.SymbolFlags.Variable) return 'constant';
  if (flags & ts.SymbolFlags.Interface) return 'interface';
  if (flags & ts.SymbolFlags.TypeAlias) return 'type';
  return 'namespace';
}

/** The declaration's text in its file, its own doc comment left out, `export`/`declare` dropped. */
function declarationText(node: ts.Node): string {
  const statement = ts.isVariableDeclaration(node) ? node.parent.parent : node;
  if (ts.isSourceFile(statement)) return '';
  const source = statement.getSourceFile();
  const text = source.text.slice(statement.getStart(source), statement.end);
  return dedent(
    text
      .replace(/^export\s+/, '')
      .replace(/^declare\s+/, '')
      .replace(/^default\s+/, ''),
  );
}

/** Removes the indent the `.d.ts` gave the continuation lines of a declaration nested in a namespace. */
function dedent(text: string): string {
  const lines = text.split('\n');
  const indents = lines
    .slice(1)
    .filter((line) => line.trim() !== '')
    .map((line) => /^ */.exec(line)?.[0].length ?? 0);
  const closing = /^ */.exec(lines.at(-1) ?? '')?.[0].length ?? 0;
  const cut = Math.min(closing, ...indents);
  return lines.map((line, i) => (i === 0 ? line : line.slice(cut))).join('\n');
}

function describeExport(checker: ts.TypeChecker, exported: ts.Symbol): ExportedSymbol {
  const symbol = resolved(checker, exported);
  const declarations = (symbol.declarations ?? []).filter((node) => !ts.isSourceFile(node));
  const kind = kindOf(symbol);
  // A class or function may also be declared as an interface or namespace of the same name: keep
  // the declarations of its kind, overloads in order.
  const shown = declarations.filter((node) => {
    if (kind === 'function') return ts.isFunctionDeclaration(node);
    if (kind === 'class') return ts.isClassDeclaration(node);
    return true;
  });
  const signature =
    kind === 'namespace' && shown.length === 0
      ? `namespace ${exported.name}`
      : shown.map(declarationText).join('\n');
  const doc = ts.displayPartsToString(symbol.getDocumentationComment(checker)).trim();
  const tags = symbol.getJsDocTags(checker);
  const tagText = (name: string): string[] =>
    tags.filter((tag) => tag.name === name).map((tag) => ts.displayPartsToString(tag.text).trim());
  return {
    name: exported.name,
    kind,
    signature,
    doc,
    since: tagText('since')[0],
    deprecated: tagText('deprecated')[0],
    examples: tagText('example'),
  };
}
