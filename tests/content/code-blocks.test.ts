/**
 * Every fenced TypeScript block (` ```ts ` or ` ```typescript `) in content/**\/*.md must compile against the
 * BUILT `charter` package (run `bun run build` first), so a sample that stops compiling fails CI.
 *
 * How a page marks its blocks (see code-blocks.ts):
 * - each block is a module of its own; declare what it uses from elsewhere (`declare const app: App;`);
 * - `<!-- continues -->` on the line just before a fence appends the block to the page's previous one;
 * - a block whose first line is `// auth.ts` is written as `auth.ts`, so later blocks import `./auth.ts`;
 * - `<!-- no-check: reason -->` leaves out a block that is deliberately not valid TypeScript.
 */
import { beforeAll, describe, expect, test } from 'bun:test';
import {
  assembleModules,
  type CheckModule,
  declaredFileName,
  extractCodeBlocks,
  locate,
} from './code-blocks.ts';
import {
  type ContentDiagnostic,
  contentModules,
  formatDiagnostic,
  pageModules,
  parseTscOutput,
  typecheckModules,
} from './typecheck.ts';

const FENCE = '```';

/** 1-based line of the first line of `markdown` that equals `text` (trimmed); throws when absent. */
function lineOf(markdown: string, text: string): number {
  const index = markdown.split('\n').findIndex((line) => line.trim() === text);
  if (index === -1) throw new Error(`fixture has no line ${text}`);
  return index + 1;
}

const SAMPLE = [
  '# Sample',
  '',
  `${FENCE}ts`,
  "const greeting = 'hi';",
  FENCE,
  '',
  `${FENCE}sh`,
  'bun add charter',
  FENCE,
  '',
  '<!-- continues -->',
  `${FENCE}TypeScript title="more"`,
  'console.log(greeting);',
  'console.log(greeting.length);',
  FENCE,
  '',
  `${FENCE}json`,
  '{ "a": 1 }',
  FENCE,
  '',
  '- a list item:',
  '',
  `  ${FENCE}typescript`,
  '  // helper.ts',
  '  export const two = 2;',
  `  ${FENCE}`,
  '',
  '~~~~ts',
  'const fence = `',
  '```',
  '`;',
  '~~~~',
  '',
  `${FENCE}http`,
  'GET / HTTP/1.1',
  FENCE,
].join('\n');

describe('extractCodeBlocks', () => {
  const { blocks, problems } = extractCodeBlocks(SAMPLE, 'content/sample.md');

  test('finds the ts and typescript blocks in any letter case and skips other languages', () => {
    expect(problems).toEqual([]);
    expect(blocks.map((block) => block.code)).toEqual([
      "const greeting = 'hi';",
      'console.log(greeting);\nconsole.log(greeting.length);',
      '// helper.ts\nexport const two = 2;',
      'const fence = `\n```\n`;',
    ]);
    expect(blocks.map((block) => block.index)).toEqual([1, 2, 3, 4]);
  });

  test('records the file and the markdown line of each block', () => {
    expect(blocks.map((block) => ({ file: block.file, fence: block.fenceLine, line: block.line }))).toEqual([
      { file: 'content/sample.md', fence: 3, line: 4 },
      { file: 'content/sample.md', fence: 12, line: 13 },
      { file: 'content/sample.md', fence: 23, line: 24 },
      { file: 'content/sample.md', fence: 28, line: 29 },
    ]);
    expect(blocks.map((block) => block.endLine)).toEqual([5, 15, 26, 32]);
  });

  test('reads <!-- continues --> only on the line just before the fence', () => {
    expect(blocks.map((block) => block.continues)).toEqual([false, true, false, false]);
    const gap = extractCodeBlocks(`<!-- continues -->\n\n${FENCE}ts\nx;\n${FENCE}\n`, 'a.md');
    expect(gap.blocks[0]?.continues).toBe(false);
  });

  test('removes the indent of a fence inside a list item and remembers it for columns', () => {
    expect(blocks[2]?.indent).toBe(2);
    expect(blocks[2]?.code.startsWith('// helper.ts')).toBe(true);
  });

  test('keeps the reason of <!-- no-check: reason --> and refuses one without a reason', () => {
    const page = [
      '<!-- no-check: shows a compile error -->',
      `${FENCE}ts`,
      'const n: number = "x";',
      FENCE,
      '<!-- no-check -->',
      `${FENCE}ts`,
      'x;',
      FENCE,
      '<!-- no-check:   -->',
      `${FENCE}ts`,
      'y;',
      FENCE,
    ].join('\n');
    const result = extractCodeBlocks(page, 'a.md');
    expect(result.blocks.map((block) => block.noCheck)).toEqual(['shows a compile error', '', '']);
    expect(result.problems.map((problem) => problem.line)).toEqual([5, 9]);
    expect(result.problems[0]?.message).toContain('needs a reason');
  });

  test('reports an unknown marker, a marker on another language and a fence that is never closed', () => {
    const page = [
      '<!-- continue -->',
      `${FENCE}ts`,
      'x;',
      FENCE,
      '<!-- continues -->',
      `${FENCE}json`,
      '{}',
      FENCE,
      `${FENCE}ts`,
      'y;',
    ].join('\n');
    const result = extractCodeBlocks(page, 'a.md');
    expect(result.problems.map((problem) => ({ line: problem.line, message: problem.message }))).toEqual([
      { line: 1, message: expect.stringContaining('unknown marker <!-- continue -->') },
      { line: 5, message: expect.stringContaining('marks a `json` block') },
      { line: 9, message: 'code fence is never closed' },
    ]);
  });
});

describe('declaredFileName', () => {
  test('reads a file name from a first-line comment', () => {
    expect(declaredFileName('// auth.ts\nexport {};')).toBe('auth.ts');
    expect(declaredFileName('  //   my_server-2.ts  ')).toBe('my_server-2.ts');
  });

  test('ignores comments that are not a plain .ts file name', () => {
    expect(declaredFileName('// The auth module\n')).toBeUndefined();
    expect(declaredFileName('// ../escape/auth.ts')).toBeUndefined();
    expect(declaredFileName('// .ts')).toBeUndefined();
    expect(declaredFileName('const a = 1; // auth.ts')).toBeUndefined();
  });
});

describe('assembleModules', () => {
  const { blocks } = extractCodeBlocks(SAMPLE, 'content/sample.md');
  const { modules, problems } = assembleModules(blocks, 'sample');

  test('joins a continued block to the previous one and names modules by page and block', () => {
    expect(problems).toEqual([]);
    expect(modules.map((module) => module.path)).toEqual([
      'sample/sample-1.ts',
      'sample/helper.ts',
      'sample/sample-4.ts',
    ]);
    expect(modules[0]?.text).toBe(
      "const greeting = 'hi';\nconsole.log(greeting);\nconsole.log(greeting.length);\nexport {};\n",
    );
  });

  test('maps module lines back to the markdown lines of each block', () => {
    const first = modules[0] as CheckModule;
    expect([1, 2, 3].map((line) => locate(first, line).line)).toEqual([4, 13, 14]);
    // The appended `export {};` maps to the closing fence of the last block.
    expect(locate(first, 4)).toEqual({ file: 'content/sample.md', line: 15 });
    expect(locate(modules[1] as CheckModule, 2, 5)).toEqual({
      file: 'content/sample.md',
      line: 25,
      column: 7,
    });
  });

  test('leaves no-check blocks out and refuses to continue one', () => {
    const page = [
      `${FENCE}ts`,
      'a;',
      FENCE,
      '<!-- no-check: pseudo-code -->',
      `${FENCE}ts`,
      'b c d;',
      FENCE,
      '<!-- continues -->',
      `${FENCE}ts`,
      'e;',
      FENCE,
    ].join('\n');
    const result = assembleModules(extractCodeBlocks(page, 'a.md').blocks, 'a');
    expect(result.modules.map((module) => module.text)).toEqual(['a;\nexport {};\n', 'e;\nexport {};\n']);
    expect(result.problems).toEqual([
      { file: 'a.md', line: 9, message: '<!-- continues --> continues a block marked no-check' },
    ]);
  });

  test('refuses <!-- continues --> on the first block and two blocks with the same file name', () => {
    const page = ['<!-- continues -->', `${FENCE}ts`, '// a.ts', FENCE, `${FENCE}ts`, '// a.ts', FENCE].join(
      '\n',
    );
    const result = assembleModules(extractCodeBlocks(page, 'p.md').blocks, 'p');
    expect(result.problems.map((problem) => problem.message)).toEqual([
      '<!-- continues --> on the first TypeScript block of the page',
      'a second block of the page is named a.ts',
    ]);
  });
});

describe('parseTscOutput', () => {
  test('reads file, line, column, code and multi-line messages', () => {
    const output = [
      "docs-jwt/docs-jwt-2.ts(3,14): error TS2352: Conversion of type 'A' to type 'B' may be a mistake.",
      "  Type 'A' is missing the following properties from type 'B': b",
      "error TS5083: Cannot read file '/tmp/x/tsconfig.json'.",
      '',
    ].join('\n');
    expect(parseTscOutput(output)).toEqual([
      {
        path: 'docs-jwt/docs-jwt-2.ts',
        line: 3,
        column: 14,
        code: 'TS2352',
        message:
          "Conversion of type 'A' to type 'B' may be a mistake. Type 'A' is missing the following properties from type 'B': b",
      },
      { code: 'TS5083', message: "Cannot read file '/tmp/x/tsconfig.json'." },
    ]);
  });
});

// A page with mistakes, checked in the same tsc run as the documentation.
const BROKEN_FILE = 'tests/content/broken.md';
const BROKEN = [
  '# Broken',
  '',
  `${FENCE}ts`,
  "import { App } from 'charter';",
  "import { type } from 'arktype';",
  '',
  'const app = new App({ logger: false });',
  'const count: number = 1;',
  FENCE,
  '',
  `${FENCE}sh`,
  'this is not TypeScript;',
  FENCE,
  '',
  '<!-- continues -->',
  `${FENCE}ts`,
  "app.get('/n', { responses: { 200: { body: type({ n: 'number' }) } } }, () => ({",
  '  status: 201,',
  '  body: { n: count },',
  '}));',
  'const text: string = count;',
  FENCE,
  '',
  '1. A named module:',
  '',
  `   ${FENCE}ts`,
  '   // helper.ts',
  "   export const two = 'two';",
  '   export const four: number = two;',
  `   ${FENCE}`,
  '',
  `${FENCE}ts`,
  "import { two } from './helper.ts';",
  'const three: number = two;',
  FENCE,
  '',
  '<!-- no-check: deliberately not TypeScript -->',
  `${FENCE}ts`,
  'this is not TypeScript;',
  FENCE,
].join('\n');

describe('documentation code blocks', () => {
  const content = contentModules();
  const broken = pageModules(BROKEN, BROKEN_FILE);
  let diagnostics: ContentDiagnostic[] = [];

  beforeAll(() => {
    // One tsc run for the documentation and the broken page together.
    diagnostics = typecheckModules([...content.modules, ...broken.modules]);
  });

  const ofFile = (file: string): ContentDiagnostic[] => diagnostics.filter((d) => d.location?.file === file);

  test('the documentation has TypeScript blocks, all correctly marked', () => {
    expect(content.pages).toContain('content/index.md');
    expect(content.blockCount).toBeGreaterThan(0);
    expect(content.modules.length).toBeGreaterThan(0);
    expect(content.problems.map((p) => `${p.file}:${p.line}: ${p.message}`)).toEqual([]);
  });

  test('every TypeScript block of the documentation compiles', () => {
    const found = diagnostics.filter((d) => d.location?.file !== BROKEN_FILE).map(formatDiagnostic);
    expect(found).toEqual([]);
  });

  test('a broken sample is reported at its markdown line, through a continued block', () => {
    expect(broken.problems).toEqual([]);
    const lines = ofFile(BROKEN_FILE).map((d) => `${d.location?.line} ${d.code}`);
    expect(lines).toContain(`${lineOf(BROKEN, 'const text: string = count;')} TS2322`);
    // The undeclared status 201 is refused by charter's handler types, so the built types were used.
    const get = lineOf(
      BROKEN,
      "app.get('/n', { responses: { 200: { body: type({ n: 'number' }) } } }, () => ({",
    );
    const statusError = ofFile(BROKEN_FILE).find((d) => d.location?.line === get);
    expect(statusError?.message).toContain('HandlerReturn');
  });

  test('a named block is importable by later blocks of its page', () => {
    const mismatch = ofFile(BROKEN_FILE).find(
      (d) => d.location?.line === lineOf(BROKEN, 'const three: number = two;'),
    );
    // `two` has its declared type (string), so './helper.ts' resolved.
    expect(mismatch?.code).toBe('TS2322');
    expect(ofFile(BROKEN_FILE).some((d) => d.message.includes('./helper.ts'))).toBe(false);
  });

  test('a block indented in a list item is reported at its markdown line and column', () => {
    const line = lineOf(BROKEN, 'export const four: number = two;');
    const found = ofFile(BROKEN_FILE).find((d) => d.location?.line === line);
    const markdownLine = BROKEN.split('\n')[line - 1] ?? '';
    expect(found?.code).toBe('TS2322');
    expect(found?.location?.column).toBe(markdownLine.indexOf('four') + 1);
  });

  test('shell and no-check blocks are not compiled, and nothing else is reported', () => {
    expect(
      ofFile(BROKEN_FILE)
        .map((d) => d.location?.line ?? 0)
        .sort((a, b) => a - b),
    ).toEqual([
      lineOf(BROKEN, "app.get('/n', { responses: { 200: { body: type({ n: 'number' }) } } }, () => ({"),
      lineOf(BROKEN, 'const text: string = count;'),
      lineOf(BROKEN, 'export const four: number = two;'),
      lineOf(BROKEN, 'const three: number = two;'),
    ]);
    expect(diagnostics.filter((d) => d.location === undefined).map(formatDiagnostic)).toEqual([]);
  });

  test('a diagnostic prints as file:line: code message', () => {
    const first = ofFile(BROKEN_FILE).find(
      (d) => d.code === 'TS2322' && d.message.startsWith("Type 'number'"),
    );
    expect(first === undefined ? '' : formatDiagnostic(first)).toBe(
      `${BROKEN_FILE}:${lineOf(BROKEN, 'const text: string = count;')}: TS2322 Type 'number' is not assignable to type 'string'.`,
    );
  });
});
