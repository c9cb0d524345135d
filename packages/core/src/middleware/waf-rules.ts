/**
 * The WAF's default rule set and its text normalisation. Every matcher is a plain left-to-right
 * scan with bounded look-ahead (no regular expressions), so a rule costs time linear in its input
 * whatever an attacker sends.
 */
import { hexValue } from '../security/hex.ts';

/** Where in the request a rule looks. */
export type WafTarget = 'path' | 'query' | 'headers' | 'body' | 'user-agent';

/** Every place a rule can look (the body is checked in beforeHandle, the rest in onRequest). */
export const WAF_TARGETS: readonly WafTarget[] = ['path', 'query', 'headers', 'body', 'user-agent'];

/** The groups of the default rule set (`limits` holds the body-scan bound). */
export type WafRuleGroup = 'traversal' | 'sqli' | 'xss' | 'scanner' | 'limits';

/** Every group of the default rules, for `disable`. */
export const WAF_RULE_GROUPS: readonly WafRuleGroup[] = ['traversal', 'sqli', 'xss', 'scanner', 'limits'];

/**
 * One rule. `match` is a lower-case substring of the normalised text, or a function given the
 * normalised text (lower case, percent-decoded twice, whitespace collapsed) and the raw text (lower
 * case, not decoded).
 */
export interface WafRule {
  /** Named in the 403 detail and in `onMatch`: letters, digits, `.`, `_`, `-` (1 to 64). */
  readonly id: string;
  readonly where: WafTarget | readonly WafTarget[];
  readonly match: string | ((text: string, raw: string) => boolean);
  /** The default rules' group; custom rules may name one to be disabled with it. */
  readonly group?: string;
}

// `@__PURE__`: these tables have no effect but their value, so a bundle whose code never runs the WAF
// (the compiled site, issue 18 item 6) leaves the module out instead of building them at every start.
const decoder = /* @__PURE__ */ new TextDecoder('utf-8', { fatal: false });

/** One lenient pass of percent-decoding: valid `%XX` runs become UTF-8 text, anything else stays. */
function percentDecode(input: string): string {
  if (input.indexOf('%') < 0) return input;
  const parts: string[] = [];
  const bytes: number[] = [];
  let start = 0;
  let i = 0;
  const n = input.length;
  while (i < n) {
    if (input.charCodeAt(i) === 37 && i + 2 < n) {
      const hi = hexValue(input.charCodeAt(i + 1));
      const lo = hexValue(input.charCodeAt(i + 2));
      if (hi >= 0 && lo >= 0) {
        if (bytes.length === 0) parts.push(input.slice(start, i));
        bytes.push(hi * 16 + lo);
        i += 3;
        start = i;
        continue;
      }
    }
    if (bytes.length > 0) {
      parts.push(decoder.decode(new Uint8Array(bytes)));
      bytes.length = 0;
      start = i;
    }
    i++;
  }
  if (bytes.length > 0) parts.push(decoder.decode(new Uint8Array(bytes)));
  else parts.push(input.slice(start));
  return parts.join('');
}

function isSpace(c: number): boolean {
  return (c >= 9 && c <= 13) || c === 32 || c === 0xa0 || c === 0x2028 || c === 0x2029 || c === 0xfeff;
}

/** Runs of whitespace become one space, so `union\n\tselect` reads `union select`. */
function collapseWhitespace(input: string): string {
  let out = '';
  let start = 0;
  let i = 0;
  const n = input.length;
  while (i < n) {
    if (!isSpace(input.charCodeAt(i))) {
      i++;
      continue;
    }
    let end = i + 1;
    while (end < n && isSpace(input.charCodeAt(end))) end++;
    // A lone plain space is already normal: keep scanning without cutting the string.
    if (end === i + 1 && input.charCodeAt(i) === 32) {
      i = end;
      continue;
    }
    out += `${input.slice(start, i)} `;
    start = end;
    i = end;
  }
  return start === 0 ? input : out + input.slice(start);
}

/**
 * The text rules match against: percent-decoded at most twice (so `%252e` is seen as `.`, but a
 * deeper encoding is not unwrapped for free), lower-cased, whitespace runs collapsed to one space.
 * Null bytes are kept so a rule can see them.
 */
export function normaliseWafText(input: string): string {
  return collapseWhitespace(percentDecode(percentDecode(input)).toLowerCase());
}

/** Whether `text` contains any of `needles`. */
function containsAny(text: string, needles: readonly string[]): boolean {
  for (const needle of needles) if (text.includes(needle)) return true;
  return false;
}

function isWordCode(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 95 || c === 36 || c === 64 || c > 127;
}

function isDigits(token: string | undefined): boolean {
  if (token === undefined || token.length === 0) return false;
  for (let i = 0; i < token.length; i++) {
    const c = token.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

// --- traversal -------------------------------------------------------------------------------

function dotDotSegment(text: string): boolean {
  const slashed = text.includes('\\') ? text.replaceAll('\\', '/') : text;
  return slashed === '..' || slashed.includes('../') || slashed.endsWith('/..');
}

// Encoded dots and separators: `%2e%2e`, half-encoded `.%2e`, double-encoded `%252e`, overlong UTF-8.
const ENCODED_TRAVERSAL = [
  '%2e%2e',
  '.%2e',
  '%2e.',
  '..%2f',
  '..%5c',
  '%252e',
  '%252f',
  '%255c',
  '%c0%ae',
  '%c0%af',
  '%c1%9c',
  '%e0%80%ae',
];

const SENSITIVE_FILES = ['/etc/passwd', '/etc/shadow', '/proc/self/', 'win.ini', 'boot.ini', 'web.config'];

// --- SQL injection ---------------------------------------------------------------------------

let memoText: string | undefined;
let memoTokens: string[] = [];

/**
 * SQL-ish tokens of normalised text: words, quotes and operators; spaces and `/* *\/` markers
 * (used as whitespace in `union/**\/select`) are dropped. One pass, memoised for the rules sharing it.
 */
function sqlTokens(text: string): string[] {
  if (text === memoText) return memoTokens;
  const tokens: string[] = [];
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 32) {
      i++;
      continue;
    }
    if (isWordCode(c)) {
      let end = i + 1;
      while (end < n && isWordCode(text.charCodeAt(end))) end++;
      tokens.push(text.slice(i, end));
      i = end;
      continue;
    }
    const pair = text.slice(i, i + 2);
    if (pair === '/*' || pair === '*/') {
      i += text[i + 2] === '!' && pair === '/*' ? 3 : 2;
      continue;
    }
    if (pair === '--' || pair === '||' || pair === '&&' || pair === '<>' || pair === '!=') {
      tokens.push(pair);
      i += 2;
      continue;
    }
    tokens.push(text[i] as string);
    i++;
  }
  memoText = text;
  memoTokens = tokens;
  return tokens;
}

function isQuote(token: string | undefined): boolean {
  return token === "'" || token === '"' || token === '`';
}

const BOOLEAN_OPERATORS: ReadonlySet<string> = /* @__PURE__ */ new Set(['or', 'and', 'xor', '||', '&&']);
const COMMENT_OR_END: ReadonlySet<string> = /* @__PURE__ */ new Set(['--', '#', ';']);

/** A literal at `i`: a word or number, or a quoted word (`'1'`, `''`); an unclosed quote may end the input. */
function operand(tokens: readonly string[], i: number): { value: string; next: number } | undefined {
  const first = tokens[i];
  if (first === undefined) return undefined;
  if (isQuote(first)) {
    const second = tokens[i + 1];
    if (second === first) return { value: '', next: i + 2 };
    if (second === undefined || isQuote(second) || !isWordCode(second.charCodeAt(0))) return undefined;
    const third = tokens[i + 2];
    if (third === first || third === undefined) return { value: second, next: i + 3 };
    return undefined;
  }
  return isWordCode(first.charCodeAt(0)) ? { value: first, next: i + 1 } : undefined;
}

/** `' or 1=1`, `' or 'a'='a`, `1 or 2=2`, `') or ('x'='x`, `' or true--`: a quote closed, then a condition always true. */
function tautology(text: string): boolean {
  if (!containsAny(text, ['or', 'and', '||', '&&'])) return false;
  if (!containsAny(text, ['=', 'like', '--', '#', ';', 'true'])) return false;
  const tokens = sqlTokens(text);
  for (let i = 1; i < tokens.length; i++) {
    if (!BOOLEAN_OPERATORS.has(tokens[i] as string)) continue;
    const before = tokens[i - 1];
    if (!isQuote(before) && before !== ')' && !isDigits(before)) continue;
    let j = i + 1;
    while (tokens[j] === '(' && j < i + 4) j++;
    const left = operand(tokens, j);
    if (left === undefined) continue;
    const op = tokens[left.next];
    if (op === '=' || op === 'like') {
      let k = left.next + 1;
      while (tokens[k] === '(' && k < left.next + 4) k++;
      const right = operand(tokens, k);
      if (right !== undefined && right.value === left.value) return true;
      continue;
    }
    const alwaysTrue = left.value === 'true' || (isDigits(left.value) && Number(left.value) !== 0);
    if (alwaysTrue && (op === undefined ? left.value === 'true' : COMMENT_OR_END.has(op))) return true;
  }
  return false;
}

/** `union select`, `union all select`, `union/**\/select`. */
function unionSelect(text: string): boolean {
  if (!text.includes('union') || !text.includes('select')) return false;
  const tokens = sqlTokens(text);
  for (let i = 0; i < tokens.length; i++) {
    if (tokens[i] !== 'union') continue;
    let j = i + 1;
    while ((tokens[j] === 'all' || tokens[j] === 'distinct' || tokens[j] === '(') && j < i + 4) j++;
    if (tokens[j] === 'select') return true;
  }
  return false;
}

const DROPPABLE: ReadonlySet<string> = /* @__PURE__ */ new Set([
  'table',
  'database',
  'schema',
  'view',
  'user',
  'procedure',
]);

/** A second statement after `;`: `; drop table`, `; truncate table`, `; alter table`, `; exec xp_...`, `; shutdown`. */
function stackedQuery(text: string): boolean {
  if (!text.includes(';')) return false;
  const tokens = sqlTokens(text);
  for (let i = 0; i < tokens.length; i++) {
    if (tokens[i] !== ';') continue;
    const verb = tokens[i + 1];
    const object = tokens[i + 2];
    if (verb === 'drop' && object !== undefined && DROPPABLE.has(object)) return true;
    if ((verb === 'truncate' || verb === 'alter') && object === 'table') return true;
    if ((verb === 'exec' || verb === 'execute') && object !== undefined) {
      if (object.startsWith('xp_') || object.startsWith('sp_')) return true;
    }
    if (verb === 'shutdown' && (object === undefined || COMMENT_OR_END.has(object))) return true;
  }
  return false;
}

/** `sleep(5)`, `pg_sleep(5)`, `benchmark(1000000,...)`, `waitfor delay '0:0:5'`: time-based blind probes. */
function timeDelay(text: string): boolean {
  for (const fn of ['sleep(', 'benchmark(']) {
    let at = text.indexOf(fn);
    while (at >= 0) {
      let k = at + fn.length;
      if (text.charCodeAt(k) === 32) k++;
      const c = text.charCodeAt(k);
      if (c >= 48 && c <= 57) return true;
      at = text.indexOf(fn, at + 1);
    }
  }
  let at = text.indexOf('waitfor delay ');
  while (at >= 0) {
    if (isQuote(text[at + 14])) return true;
    at = text.indexOf('waitfor delay ', at + 1);
  }
  return false;
}

/** A quote closed, then the rest of the query commented out: `admin'--`, `x' #`, `1')/*`. */
function commentAfterQuote(text: string): boolean {
  for (const quote of ["'", '"']) {
    let at = text.indexOf(quote);
    while (at >= 0) {
      let k = at + 1;
      const limit = Math.min(text.length, k + 8);
      while (k < limit && (text[k] === ' ' || text[k] === ')' || text[k] === ';')) k++;
      const after = text[k + 1];
      if (text.startsWith('--', k)) {
        const third = text[k + 2];
        if (third === undefined || third === ' ' || third === '-') return true;
      } else if (text[k] === '#' && (after === undefined || after === ' ')) {
        return true;
      } else if (text.startsWith('/*', k)) {
        return true;
      }
      at = text.indexOf(quote, at + 1);
    }
  }
  return false;
}

const SCHEMA_PROBES = [
  'information_schema',
  '@@version',
  'xp_cmdshell',
  'load_file(',
  'into outfile',
  'into dumpfile',
  'pg_catalog.',
  'sqlite_master',
  'sysobjects',
];

// --- XSS -------------------------------------------------------------------------------------

const DANGEROUS_TAGS = ['iframe', 'frame', 'frameset', 'object', 'embed', 'applet', 'base', 'meta'];

/** Whether `text` opens (or, with `/`, closes) one of `tags`: `<` or `</`, the name, then a non-name character or the end. */
function hasTag(text: string, tags: readonly string[]): boolean {
  let at = text.indexOf('<');
  while (at >= 0) {
    const rest = text[at + 1] === '/' ? at + 2 : at + 1;
    for (const tag of tags) {
      if (!text.startsWith(tag, rest)) continue;
      const after = text.charCodeAt(rest + tag.length);
      if (Number.isNaN(after) || !((after >= 97 && after <= 122) || (after >= 48 && after <= 57)))
        return true;
    }
    at = text.indexOf('<', at + 1);
  }
  return false;
}

/** `javascript:alert(1)`, `vbscript:...`, `data:text/html,...`: a script URL (not the word "javascript: " in prose). */
function scriptUrl(text: string): boolean {
  for (const scheme of ['javascript:', 'vbscript:', 'livescript:']) {
    let at = text.indexOf(scheme);
    while (at >= 0) {
      const next = text[at + scheme.length];
      if (next !== undefined && next !== ' ') return true;
      at = text.indexOf(scheme, at + 1);
    }
  }
  return text.includes('data:text/html');
}

const EVENT_HANDLERS: ReadonlySet<string> = /* @__PURE__ */ new Set(
  /* @__PURE__ */ (
    'abort afterprint animationend animationiteration animationstart auxclick beforeinput beforeprint ' +
    'beforeunload begin blur canplay change click close contextmenu copy cut dblclick drag dragend ' +
    'dragenter dragleave dragover dragstart drop end ended error finish focus focusin focusout formdata ' +
    'hashchange input invalid keydown keypress keyup load loadeddata loadstart message mousedown ' +
    'mouseenter mouseleave mousemove mouseout mouseover mouseup paste pagehide pageshow play playing ' +
    'pointerdown pointerenter pointerleave pointermove pointerout pointerover pointerup popstate ' +
    'progress repeat reset resize scroll scrollend search select selectstart show start submit toggle ' +
    'touchend touchmove touchstart transitionend unload volumechange wheel'
  )
    .split(' ')
    .map((name) => `on${name}`),
);

/** `onerror=`, `<svg onload=...`, `" onfocus="...`: an HTML event-handler attribute being set. */
function eventHandler(text: string): boolean {
  let at = text.indexOf('on');
  while (at >= 0) {
    const before = at === 0 ? 32 : text.charCodeAt(at - 1);
    if (!isWordCode(before) && before !== 45) {
      let end = at + 2;
      while (end < text.length && end < at + 24) {
        const c = text.charCodeAt(end);
        if (c < 97 || c > 122) break;
        end++;
      }
      if (EVENT_HANDLERS.has(text.slice(at, end))) {
        let k = end;
        if (text.charCodeAt(k) === 32) k++;
        if (text.charCodeAt(k) === 61) return true;
      }
    }
    at = text.indexOf('on', at + 1);
  }
  return false;
}

// --- scanners --------------------------------------------------------------------------------

const SCANNER_AGENTS = [
  'sqlmap',
  'nikto',
  'nmap',
  'masscan',
  'acunetix',
  'nessus',
  'openvas',
  'wpscan',
  'dirbuster',
  'gobuster',
  'feroxbuster',
  'ffuf',
  'zgrab',
  'nuclei',
  'netsparker',
  'w3af',
  'arachni',
  'havij',
  'whatweb',
  'zmeu',
  'fimap',
  'commix',
  'xsstrike',
  'jaeles',
];

const URL_PARTS: readonly WafTarget[] = ['path', 'query', 'headers'];
const ALL_INPUTS: readonly WafTarget[] = ['path', 'query', 'headers', 'body'];

/** The default rule set. Each rule's `id` is what a 403 names; disable rules by id or by group. */
export const DEFAULT_WAF_RULES: readonly WafRule[] = /* @__PURE__ */ Object.freeze([
  {
    id: 'traversal-encoded',
    group: 'traversal',
    where: URL_PARTS,
    match: (_text: string, raw: string) => containsAny(raw, ENCODED_TRAVERSAL),
  },
  { id: 'traversal-dot-dot', group: 'traversal', where: URL_PARTS, match: dotDotSegment },
  {
    id: 'traversal-null-byte',
    group: 'traversal',
    where: ALL_INPUTS,
    match: (text: string) => text.includes('\0'),
  },
  {
    id: 'traversal-sensitive-file',
    group: 'traversal',
    where: URL_PARTS,
    match: (text: string) => containsAny(text, SENSITIVE_FILES),
  },
  { id: 'sqli-tautology', group: 'sqli', where: ALL_INPUTS, match: tautology },
  { id: 'sqli-union-select', group: 'sqli', where: ALL_INPUTS, match: unionSelect },
  { id: 'sqli-stacked-query', group: 'sqli', where: ALL_INPUTS, match: stackedQuery },
  { id: 'sqli-time-delay', group: 'sqli', where: ALL_INPUTS, match: timeDelay },
  { id: 'sqli-comment-after-quote', group: 'sqli', where: ALL_INPUTS, match: commentAfterQuote },
  {
    id: 'sqli-schema-probe',
    group: 'sqli',
    where: ALL_INPUTS,
    match: (text: string) => containsAny(text, SCHEMA_PROBES),
  },
  {
    id: 'xss-script-tag',
    group: 'xss',
    where: ALL_INPUTS,
    match: (text: string) => hasTag(text, ['script']),
  },
  {
    id: 'xss-dangerous-tag',
    group: 'xss',
    where: ALL_INPUTS,
    match: (text: string) => hasTag(text, DANGEROUS_TAGS),
  },
  { id: 'xss-script-url', group: 'xss', where: ALL_INPUTS, match: scriptUrl },
  { id: 'xss-event-handler', group: 'xss', where: ALL_INPUTS, match: eventHandler },
  {
    id: 'scanner-user-agent',
    group: 'scanner',
    where: 'user-agent',
    match: (text: string) => containsAny(text, SCANNER_AGENTS),
  },
]);

/** The id of the pseudo-rule that fires when a body is too deep or too long to scan (group `limits`). */
export const BODY_SCAN_LIMIT_RULE = 'body-scan-limit';
