/**
 * Finds the fenced TypeScript blocks of the documentation and assembles them into modules to type-check.
 *
 * Rules a page author relies on (documented in code-blocks.test.ts too):
 * - A block whose info string is `ts` or `typescript` (any case) is checked; other languages are not.
 * - Each block is a module of its own, written as `<page>/<page>-<n>.ts` (n counts the page's TypeScript
 *   blocks from 1), or under the name its first line gives as a comment (`// auth.ts`), so that a later
 *   block of the same page can `import ... from './auth.ts'`.
 * - `<!-- continues -->` on the line just before the fence appends the block to the previous TypeScript
 *   block of the page: the chain is checked as one module, so a block may use what an earlier one declared.
 * - `<!-- no-check: reason -->` leaves a block out; the reason is required. Use it only for a block that is
 *   deliberately not valid TypeScript.
 *
 * Fences follow CommonMark (§4.5): three or more backticks or tildes, closed by a fence of the same
 * character at least as long. A fence may be indented (inside a list item); the code loses that indent.
 */

/** One fenced TypeScript block of a markdown page. */
export interface CodeBlock {
  /** The page, as given to `extractCodeBlocks` (e.g. `content/docs/jwt.md`). */
  file: string;
  /** 1-based position among the page's TypeScript blocks. */
  index: number;
  /** 1-based markdown line of the opening fence. */
  fenceLine: number;
  /** 1-based markdown line of the first code line (the fence line + 1). */
  line: number;
  /** Spaces removed from the start of every code line (the fence's indent). */
  indent: number;
  /** 1-based markdown line of the closing fence (the last line of the page when unclosed). */
  endLine: number;
  /** The code, without the fences. */
  code: string;
  /** `<!-- continues -->` was given. */
  continues: boolean;
  /** The reason of `<!-- no-check: reason -->`, when given. */
  noCheck?: string;
}

/** A mistake in how a page marks its blocks. */
export interface ContentProblem {
  file: string;
  line: number;
  message: string;
}

/** One stretch of a module that comes from one block. */
export interface ModuleSegment {
  /** 1-based module line of the block's first code line. */
  moduleLine: number;
  lineCount: number;
  block: CodeBlock;
}

/** A module to type-check, assembled from one block or a chain of continued blocks. */
export interface CheckModule {
  /** Path inside the check project, `/`-separated: `<page>/<name>.ts`. */
  path: string;
  text: string;
  segments: ModuleSegment[];
}

/** Where a module line comes from in the markdown. */
export interface SourceLocation {
  file: string;
  line: number;
  /** 1-based column in the markdown, when the module column was known. */
  column?: number;
}

const CHECKED_LANGUAGES = new Set(['ts', 'typescript']);
const MARKER_OPEN = '<!--';
const MARKER_CLOSE = '-->';
// Appended to every module: makes it a module (top-level await) even when the sample has no import/export.
const MODULE_TRAILER = 'export {};';

interface Fence {
  indent: number;
  char: string;
  length: number;
  info: string;
}

/** Reads an opening fence, or undefined when the line is not one (CommonMark §4.5). */
function openingFence(line: string): Fence | undefined {
  let indent = 0;
  while (line[indent] === ' ') indent += 1;
  const char = line[indent];
  if (char !== '`' && char !== '~') return undefined;
  let end = indent;
  while (line[end] === char) end += 1;
  const length = end - indent;
  if (length < 3) return undefined;
  const info = line.slice(end).trim();
  // A backtick fence's info string cannot contain a backtick (it would be inline code).
  if (char === '`' && info.includes('`')) return undefined;
  return { indent, char, length, info };
}

/** True when the line closes the fence: the same character, at least as long, nothing else after it. */
function closesFence(line: string, fence: Fence): boolean {
  const trimmed = line.trim();
  if (trimmed.length < fence.length) return false;
  for (const character of trimmed) if (character !== fence.char) return false;
  return true;
}

/** Removes up to `indent` leading spaces, as CommonMark does for the content of an indented fence. */
function dedent(line: string, indent: number): string {
  let cut = 0;
  while (cut < indent && line[cut] === ' ') cut += 1;
  return line.slice(cut);
}

/** The text of an HTML comment that fills the whole line, or undefined. */
function commentText(line: string): string | undefined {
  const trimmed = line.trim();
  if (!trimmed.startsWith(MARKER_OPEN) || !trimmed.endsWith(MARKER_CLOSE)) return undefined;
  if (trimmed.length < MARKER_OPEN.length + MARKER_CLOSE.length) return undefined;
  return trimmed.slice(MARKER_OPEN.length, trimmed.length - MARKER_CLOSE.length).trim();
}

type Marker =
  | { kind: 'continues' }
  | { kind: 'no-check'; reason: string }
  | { kind: 'unknown'; text: string };

function parseMarker(text: string): Marker {
  if (text === 'continues') return { kind: 'continues' };
  if (text === 'no-check' || text.startsWith('no-check:') || text.startsWith('no-check ')) {
    const rest = text.slice('no-check'.length).trim();
    const reason = rest.startsWith(':') ? rest.slice(1).trim() : '';
    return { kind: 'no-check', reason };
  }
  return { kind: 'unknown', text };
}

/** Every fenced TypeScript block of a markdown page, and mistakes in its markers. */
export function extractCodeBlocks(
  markdown: string,
  file: string,
): { blocks: CodeBlock[]; problems: ContentProblem[] } {
  const lines = markdown.split(/\r?\n/);
  const blocks: CodeBlock[] = [];
  const problems: ContentProblem[] = [];
  let index = 0;
  for (let i = 0; i < lines.length; i += 1) {
    const fence = openingFence(lines[i] ?? '');
    if (fence === undefined) continue;
    let close = i + 1;
    while (close < lines.length && !closesFence(lines[close] ?? '', fence)) close += 1;
    const fenceLine = i + 1;
    const language = (fence.info.split(/\s/)[0] ?? '').toLowerCase();
    const checked = CHECKED_LANGUAGES.has(language);
    if (close === lines.length) {
      problems.push({ file, line: fenceLine, message: 'code fence is never closed' });
    }
    // Markers: the HTML comment lines directly above the fence.
    const markers: Array<{ marker: Marker; line: number }> = [];
    for (let m = i - 1; m >= 0; m -= 1) {
      const text = commentText(lines[m] ?? '');
      if (text === undefined) break;
      markers.unshift({ marker: parseMarker(text), line: m + 1 });
    }
    if (!checked) {
      for (const { marker, line } of markers) {
        if (marker.kind !== 'unknown') {
          problems.push({ file, line, message: `<!-- ${marker.kind} --> marks a \`${language}\` block` });
        }
      }
      i = close;
      continue;
    }
    index += 1;
    let continues = false;
    let noCheck: string | undefined;
    for (const { marker, line } of markers) {
      if (marker.kind === 'continues') continues = true;
      else if (marker.kind === 'no-check') {
        if (marker.reason === '') {
          problems.push({ file, line, message: '<!-- no-check --> needs a reason: <!-- no-check: why -->' });
        }
        noCheck = marker.reason;
      } else {
        problems.push({
          file,
          line,
          message: `unknown marker <!-- ${marker.text} --> before a TypeScript block (known: continues, no-check: reason)`,
        });
      }
    }
    const code = lines
      .slice(i + 1, close)
      .map((line) => dedent(line, fence.indent))
      .join('\n');
    blocks.push({
      file,
      index,
      fenceLine,
      line: fenceLine + 1,
      indent: fence.indent,
      endLine: Math.min(close + 1, lines.length),
      code,
      continues,
      ...(noCheck === undefined ? {} : { noCheck }),
    });
    i = close;
  }
  return { blocks, problems };
}

/** `content/docs/jwt.md` (relative to `root`) -> `docs-jwt`: the page's directory in the check project. */
export function pageName(file: string, root: string): string {
  const prefix = root.endsWith('/') ? root : `${root}/`;
  const relative = file.startsWith(prefix) ? file.slice(prefix.length) : file;
  const withoutExtension = relative.endsWith('.md') ? relative.slice(0, -'.md'.length) : relative;
  return withoutExtension.split('/').join('-');
}

/** The file name a block's first line gives (`// auth.ts`), or undefined. */
export function declaredFileName(code: string): string | undefined {
  const first = code.split('\n', 1)[0]?.trim() ?? '';
  if (!first.startsWith('//')) return undefined;
  const name = first.slice(2).trim();
  if (!name.endsWith('.ts') || name.length <= '.ts'.length) return undefined;
  for (const character of name) {
    const ok =
      (character >= 'a' && character <= 'z') ||
      (character >= 'A' && character <= 'Z') ||
      (character >= '0' && character <= '9') ||
      character === '-' ||
      character === '_' ||
      character === '.';
    if (!ok) return undefined;
  }
  return name;
}

/**
 * Groups a page's blocks into modules: a block starts a module, each `continues` block joins the module of
 * the block before it. `no-check` blocks are left out; continuing one, or continuing from the first block, is a
 * problem (the block is then checked on its own).
 */
export function assembleModules(
  blocks: readonly CodeBlock[],
  page: string,
): { modules: CheckModule[]; problems: ContentProblem[] } {
  const problems: ContentProblem[] = [];
  const chains: CodeBlock[][] = [];
  let previous: CodeBlock | undefined;
  for (const block of blocks) {
    let joins = block.continues;
    if (block.continues && previous === undefined) {
      problems.push({
        file: block.file,
        line: block.fenceLine,
        message: '<!-- continues --> on the first TypeScript block of the page',
      });
      joins = false;
    } else if (block.continues && previous?.noCheck !== undefined && block.noCheck === undefined) {
      problems.push({
        file: block.file,
        line: block.fenceLine,
        message: '<!-- continues --> continues a block marked no-check',
      });
      joins = false;
    }
    // A wrongly marked block is still checked, on its own.
    if (block.noCheck === undefined) {
      const chain = joins ? chains.at(-1) : undefined;
      if (chain === undefined) chains.push([block]);
      else chain.push(block);
    }
    previous = block;
  }
  const modules: CheckModule[] = [];
  const taken = new Set<string>();
  for (const chain of chains) {
    const first = chain[0] as CodeBlock;
    const name = declaredFileName(first.code) ?? `${page}-${first.index}.ts`;
    if (taken.has(name)) {
      problems.push({
        file: first.file,
        line: first.line,
        message: `a second block of the page is named ${name}`,
      });
      continue;
    }
    taken.add(name);
    const segments: ModuleSegment[] = [];
    const parts: string[] = [];
    let moduleLine = 1;
    for (const block of chain) {
      const lineCount = block.code === '' ? 0 : block.code.split('\n').length;
      segments.push({ moduleLine, lineCount, block });
      if (lineCount > 0) parts.push(block.code);
      moduleLine += lineCount;
    }
    parts.push(MODULE_TRAILER);
    modules.push({ path: `${page}/${name}`, text: `${parts.join('\n')}\n`, segments });
  }
  return { modules, problems };
}

/** The markdown location of a 1-based module line (and column); the trailer maps to the last closing fence. */
export function locate(module: CheckModule, line: number, column?: number): SourceLocation {
  for (const segment of module.segments) {
    if (line >= segment.moduleLine && line < segment.moduleLine + segment.lineCount) {
      const markdownLine = segment.block.line + (line - segment.moduleLine);
      return column === undefined
        ? { file: segment.block.file, line: markdownLine }
        : { file: segment.block.file, line: markdownLine, column: column + segment.block.indent };
    }
  }
  const last = module.segments.at(-1)?.block as CodeBlock;
  return { file: last.file, line: last.endLine };
}
