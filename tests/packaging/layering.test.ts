/**
 * Layering rules between the workspace packages, checked on the import/export-from specifiers (static,
 * dynamic and `import type`) of every non-test `.ts` file under `packages/<pkg>/src`:
 *
 * - `@charter/core` imports only relative paths that stay inside packages/core/src: no `@charter/*`, no
 *   builtin, no npm package. It is the runtime-neutral layer everything else builds on.
 * - a feature package (`@charter/bun`, `@charter/node`, later `@charter/openapi`...) may import
 *   `@charter/core` (or another `@charter/*` it declares in its package.json dependencies), builtins and
 *   npm packages, and relative paths inside its own src; never another package's files by relative path,
 *   and never the published `charter` package.
 * - `charter` (packages/charter/src) only re-exports workspace packages: `export ... from '@charter/<pkg>'`.
 */
import { describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import {
  isTestFile,
  PACKAGES_DIR,
  ROOT,
  scanSpecifiers,
  stripComments,
  walkFiles,
  type WorkspacePackage,
  workspacePackages,
} from '../../scripts/build.ts';

const CORE = '@charter/core';
const PUBLISHED = 'charter';

interface SourceFile {
  /** Absolute path. */
  path: string;
  code: string;
}

interface Layer {
  name: string;
  srcDir: string;
  declared: ReadonlySet<string>;
}

const RE_EXPORT_STATEMENT =
  /^export\s+(?:type\s+)?(?:\*(?:\s+as\s+[\w$]+)?|\{[^}]*\})\s+from\s+(['"])(@charter\/[\w.-]+)\1\s*;?$/;

const inside = (path: string, dir: string): boolean => path === dir || path.startsWith(dir + sep);
const display = (path: string): string => relative(ROOT, path).split(sep).join('/');

/** Returns one message per violation: `<file>:<line>: '<specifier>' <rule>`. */
function checkLayering(packages: readonly WorkspacePackage[], files: readonly SourceFile[]): string[] {
  const layers: Layer[] = packages.map((p) => ({
    name: p.name,
    srcDir: join(p.dir, 'src'),
    declared: new Set(Object.keys({ ...p.manifest.dependencies, ...p.manifest.devDependencies })),
  }));
  const names = new Set(packages.map((p) => p.name));
  const violations: string[] = [];

  for (const file of files) {
    const layer = layers.find((l) => inside(file.path, l.srcDir));
    if (!layer) continue;
    const at = (line: number, specifier: string, rule: string): void => {
      violations.push(`${display(file.path)}:${line}: '${specifier}' ${rule}`);
    };

    if (layer.name === PUBLISHED) {
      // Only `export ... from '@charter/<pkg>'` statements (and comments) are allowed.
      const code = stripComments(file.code);
      for (const match of code.matchAll(/[^;]+;?/g)) {
        const statement = match[0].replace(/\s+/g, ' ').trim();
        if (statement === '' || statement === ';') continue;
        const offset = match.index + (match[0].length - match[0].trimStart().length);
        const line = code.slice(0, offset).split('\n').length;
        const reExport = RE_EXPORT_STATEMENT.exec(statement);
        if (!reExport) {
          const shown = statement.replace(/;$/, '').slice(0, 60);
          at(line, shown, 'breaks the rule: packages/charter/src only re-exports');
        } else if (!names.has(reExport[2] as string)) {
          at(
            line,
            reExport[2] as string,
            'breaks the rule: @charter/* names a workspace package, and this one does not exist',
          );
        }
      }
      continue;
    }

    for (const s of scanSpecifiers(file.code)) {
      const spec = s.value;
      const isRelative = spec.startsWith('.');
      const target = isRelative ? resolve(dirname(file.path), spec) : '';
      if (layer.name === CORE) {
        if (!isRelative) {
          at(s.line, spec, 'breaks the rule: packages/core/src imports only relative paths inside itself');
        } else if (!inside(target, layer.srcDir)) {
          at(
            s.line,
            spec,
            'breaks the rule: packages/core/src never imports a path outside packages/core/src',
          );
        }
        continue;
      }
      if (isRelative) {
        if (!inside(target, layer.srcDir)) {
          const other = layers.find((l) => l !== layer && inside(target, dirname(l.srcDir)));
          at(
            s.line,
            spec,
            other
              ? `breaks the rule: a feature package never imports another package's files (${other.name}) by relative path; import '${CORE}'`
              : `breaks the rule: a feature package imports relative paths only inside its own src`,
          );
        }
      } else if (spec === PUBLISHED || spec.startsWith(`${PUBLISHED}/`)) {
        at(s.line, spec, 'breaks the rule: a feature package never imports the published charter package');
      } else if (spec.startsWith('@charter/')) {
        const pkg = spec.split('/').slice(0, 2).join('/');
        if (pkg === layer.name) {
          at(s.line, spec, 'breaks the rule: a package never imports itself by name');
        } else if (!names.has(pkg)) {
          at(
            s.line,
            spec,
            'breaks the rule: @charter/* names a workspace package, and this one does not exist',
          );
        } else if (!layer.declared.has(pkg)) {
          at(
            s.line,
            spec,
            `breaks the rule: ${pkg} must be declared in ${layer.name}'s package.json dependencies`,
          );
        }
      }
    }
  }
  return violations;
}

function workspaceSources(packages: readonly WorkspacePackage[]): SourceFile[] {
  return packages.flatMap((p) =>
    walkFiles(join(p.dir, 'src'))
      .filter((f) => f.endsWith('.ts') && !isTestFile(f))
      .map((path) => ({ path, code: readFileSync(path, 'utf8') })),
  );
}

describe('layering', () => {
  const packages = workspacePackages();

  test('the workspace packages follow the layering rules', () => {
    const files = workspaceSources(packages);
    expect(files.length).toBeGreaterThan(0);
    expect(checkLayering(packages, files)).toEqual([]);
  });

  test('the scanner catches violations (synthetic sources)', () => {
    const src = (pkg: string, file: string): string => join(PACKAGES_DIR, pkg, 'src', file);
    const synthetic: SourceFile[] = [
      {
        path: src('core', 'bad.ts'),
        code: [
          "import { serve } from '@charter/bun';",
          "import type { Server } from 'node:http';",
          "export { x } from '../../node/src/index.ts';",
          "const lazy = () => import('../package.json');",
          '// import { fine } from "@charter/bun"; (a comment, not an import)',
          'const text = "import x from \'@charter/node\'"; // a string, not an import',
          "export * from './ok.ts';",
        ].join('\n'),
      },
      {
        path: src('bun', 'bad.ts'),
        code: [
          "import { listen } from '../../node/src/index.ts';",
          "import * as charter from 'charter';",
          "import { x } from 'charter/node';",
          "import { createApp } from '@charter/core';",
          "import { serve } from 'bun';",
          "import { y } from './ok.ts';",
        ].join('\n'),
      },
      {
        path: src('charter', 'bad.ts'),
        code: [
          "export * from '@charter/core';",
          'export const extra = 1;',
          "export * from './local.ts';",
        ].join('\n'),
      },
    ];
    const violations = checkLayering(packages, synthetic);
    const expected: Array<[string, string]> = [
      ['packages/core/src/bad.ts:1', '@charter/bun'],
      ['packages/core/src/bad.ts:2', 'node:http'],
      ['packages/core/src/bad.ts:3', '../../node/src/index.ts'],
      ['packages/core/src/bad.ts:4', '../package.json'],
      ['packages/bun/src/bad.ts:1', '../../node/src/index.ts'],
      ['packages/bun/src/bad.ts:2', 'charter'],
      ['packages/bun/src/bad.ts:3', 'charter/node'],
      ['packages/charter/src/bad.ts:2', 'export const extra = 1'],
      ['packages/charter/src/bad.ts:3', "export * from './local.ts'"],
    ];
    for (const [where, specifier] of expected) {
      expect(violations.filter((v) => v.startsWith(`${where}: '${specifier}'`))).toHaveLength(1);
    }
    expect(violations).toHaveLength(expected.length);
    expect(violations.every((v) => / breaks the rule: /.test(v))).toBe(true);
  });
});

// ---------------------------------------------------------------------------------------------------------
// Inside the core: layers import only downwards (README, "Architecture"). Type-only imports may point
// up (a pipeline step names the App's option types), since they leave no edge in the running code.

/** Rank of each folder of packages/core/src; a runtime import must go to an equal or lower rank. */
const CORE_LAYERS: Readonly<Record<string, number>> = {
  types: 0,
  errors: 0,
  schema: 0,
  json: 0,
  logger: 0,
  security: 1,
  net: 1,
  router: 2,
  pipeline: 3,
  middleware: 4,
  auth: 4,
  websocket: 4,
  app: 5,
  builtins: 5,
};

/** True when the statement holding the specifier at `offset` is `import type` / `export type`. */
function isTypeOnly(code: string, offset: number): boolean {
  const before = code.slice(0, offset);
  const start = Math.max(before.lastIndexOf('import '), before.lastIndexOf('export '));
  return start >= 0 && /^(import|export)\s+type\s/.test(code.slice(start));
}

function checkCoreLayers(files: readonly SourceFile[], coreSrc: string): string[] {
  const violations: string[] = [];
  for (const file of files) {
    if (!inside(file.path, coreSrc)) continue;
    const from = relative(coreSrc, file.path).split(sep)[0] as string;
    const fromRank = CORE_LAYERS[from];
    if (fromRank === undefined) {
      if (from.endsWith('.ts')) continue; // the barrel (index.ts) re-exports every layer
      violations.push(`${display(file.path)}: folder "${from}" has no layer in CORE_LAYERS`);
      continue;
    }
    const code = stripComments(file.code);
    for (const s of scanSpecifiers(code)) {
      if (!s.value.startsWith('.')) continue;
      const to = relative(coreSrc, resolve(dirname(file.path), s.value)).split(sep)[0] as string;
      const toRank = CORE_LAYERS[to];
      if (toRank === undefined || toRank <= fromRank || isTypeOnly(code, s.start)) continue;
      violations.push(
        `${display(file.path)}:${s.line}: '${s.value}' imports ${to} (layer ${toRank}) from ${from} (layer ${fromRank})`,
      );
    }
  }
  return violations;
}

describe('layering inside the core', () => {
  const coreSrc = join(PACKAGES_DIR, 'core', 'src');

  test('every core folder imports only its own layer or lower ones at run time', () => {
    const files = walkFiles(coreSrc)
      .filter((f) => f.endsWith('.ts') && !isTestFile(f))
      .map((path) => ({ path, code: readFileSync(path, 'utf8') }));
    expect(files.length).toBeGreaterThan(0);
    expect(checkCoreLayers(files, coreSrc)).toEqual([]);
  });

  test('the check catches an upward runtime import and lets a type-only one pass (synthetic sources)', () => {
    const synthetic: SourceFile[] = [
      {
        path: join(coreSrc, 'pipeline', 'bad.ts'),
        code: [
          "import { App } from '../app/app.ts';",
          "import type { AppOptions } from '../app/options.ts';",
          "import { HttpError } from '../errors/index.ts';",
          "export { cors } from '../middleware/cors.ts';",
        ].join('\n'),
      },
      { path: join(coreSrc, 'newfolder', 'x.ts'), code: 'export const x = 1;' },
    ];
    expect(checkCoreLayers(synthetic, coreSrc)).toEqual([
      "packages/core/src/pipeline/bad.ts:1: '../app/app.ts' imports app (layer 5) from pipeline (layer 3)",
      "packages/core/src/pipeline/bad.ts:4: '../middleware/cors.ts' imports middleware (layer 4) from pipeline (layer 3)",
      'packages/core/src/newfolder/x.ts: folder "newfolder" has no layer in CORE_LAYERS',
    ]);
  });
});
