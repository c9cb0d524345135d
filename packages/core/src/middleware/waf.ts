/**
 * A small web application firewall: the rules of `waf-rules.ts` (traversal, SQL injection and XSS
 * probes, scanner user agents) checked on the path, query, chosen headers and user agent before
 * routing, and on the string values of the parsed body before the handler.
 */
import { ForbiddenError } from '../errors/index.ts';
import { splitUrl } from '../pipeline/request-parts.ts';
import { isHttpToken } from '../security/header-guards.ts';
import { type AnyContext, type Hooks, withHookTraits } from '../types/index.ts';
import {
  BODY_SCAN_LIMIT_RULE,
  DEFAULT_WAF_RULES,
  normaliseWafText,
  WAF_RULE_GROUPS,
  WAF_TARGETS,
  type WafRule,
  type WafTarget,
} from './waf-rules.ts';

/** What `onMatch` learns about a rule that fired. Never the matched text: it is attacker-controlled. */
export interface WafMatch {
  /** The rule id. */
  readonly rule: string;
  readonly group: string | undefined;
  readonly where: WafTarget;
  /** The query parameter or header name, or the body path (`items.0.name`); undefined for the path and user agent. */
  readonly field: string | undefined;
  readonly method: string;
  /** The request path, as sent (percent-encoded). */
  readonly path: string;
  /** True in `block` mode: the request was refused with 403. */
  readonly blocked: boolean;
}

/** Options of `waf()`. */
export interface WafOptions {
  /** `block` answers 403 on the first match; `log` only calls `onMatch` and lets the request through. Default `block`. */
  mode?: 'block' | 'log';
  /** Rule groups (`traversal`, `sqli`, `xss`, `scanner`, `limits`) or rule ids to turn off. Default none. */
  disable?: readonly string[];
  /** Rules of your own, checked after the default ones. Default none. */
  rules?: readonly WafRule[];
  /** Request headers inspected by the `headers` rules, besides User-Agent (which has its own target). Default none. */
  headers?: readonly string[];
  /** Scan the string values (and keys) of the parsed body in beforeHandle. Default true. */
  inspectBody?: boolean;
  /** Deepest body nesting scanned; a deeper body fires `body-scan-limit`. Default 32. */
  maxBodyDepth?: number;
  /** Most body characters (strings and keys) scanned; a longer body fires `body-scan-limit`. Default 1 MiB of text (1048576). */
  maxBodyChars?: number;
  /** Called on every match (required in `log` mode). Errors it throws or rejects with are ignored. */
  onMatch?: (match: WafMatch) => void | Promise<void>;
}

interface CompiledRule {
  readonly id: string;
  readonly group: string | undefined;
  readonly test: (text: string, raw: string) => boolean;
}

/** WAF options with defaults filled in and rules compiled per target. */
export interface ResolvedWafOptions {
  readonly mode: 'block' | 'log';
  readonly headers: readonly string[];
  readonly inspectBody: boolean;
  readonly maxBodyDepth: number;
  readonly maxBodyChars: number;
  /** Whether `body-scan-limit` is on (it fires when a body exceeds the scan bounds). */
  readonly scanLimit: boolean;
  readonly onMatch: ((match: WafMatch) => void | Promise<void>) | undefined;
  readonly rules: ReadonlyMap<WafTarget, readonly CompiledRule[]>;
}

function isRuleId(id: unknown): id is string {
  if (typeof id !== 'string' || id.length === 0 || id.length > 64) return false;
  for (let i = 0; i < id.length; i++) {
    const c = id.charCodeAt(i);
    const ok =
      (c >= 48 && c <= 57) ||
      (c >= 65 && c <= 90) ||
      (c >= 97 && c <= 122) ||
      c === 45 ||
      c === 46 ||
      c === 95;
    if (!ok) return false;
  }
  return true;
}

function targetsOf(rule: WafRule, where: string): readonly WafTarget[] {
  const list = typeof rule.where === 'string' ? [rule.where] : rule.where;
  if (!Array.isArray(list) || list.length === 0) {
    throw new TypeError(`waf: ${where}.where must be a target or a non-empty array of targets`);
  }
  for (const target of list) {
    if (!WAF_TARGETS.includes(target)) {
      throw new TypeError(
        `waf: ${where}.where has an unknown target ${JSON.stringify(target)}; expected ${WAF_TARGETS.join(', ')}`,
      );
    }
  }
  return list;
}

function compileRule(rule: WafRule): CompiledRule {
  const { match } = rule;
  if (typeof match !== 'string') return { id: rule.id, group: rule.group, test: match };
  // Lower-cased once here, not on every request: the normalised text is lower case already.
  const needle = match.toLowerCase();
  return { id: rule.id, group: rule.group, test: (text: string) => text.includes(needle) };
}

function checkCustomRule(rule: WafRule, index: number, ids: Set<string>): void {
  const where = `rules[${index}]`;
  if (typeof rule !== 'object' || rule === null) throw new TypeError(`waf: ${where} must be an object`);
  if (!isRuleId(rule.id)) {
    throw new TypeError(`waf: ${where}.id must be 1 to 64 letters, digits, ".", "_" or "-"`);
  }
  if (ids.has(rule.id)) throw new TypeError(`waf: ${where}.id "${rule.id}" is already used`);
  ids.add(rule.id);
  const { match } = rule;
  if (!(typeof match === 'function' || (typeof match === 'string' && match.length > 0))) {
    throw new TypeError(`waf: ${where}.match must be a non-empty string or a function`);
  }
  if (rule.group !== undefined && typeof rule.group !== 'string') {
    throw new TypeError(`waf: ${where}.group must be a string`);
  }
}

function positiveInteger(name: string, value: unknown, fallback: number): number {
  const n = value ?? fallback;
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 1) {
    throw new RangeError(`waf: ${name} must be a positive integer, got ${String(n)}`);
  }
  return n;
}

/** Validates WAF options (TypeError/RangeError naming the option), fills defaults and compiles the rules. */
export function resolveWafOptions(options: WafOptions = {}): ResolvedWafOptions {
  if (typeof options !== 'object' || options === null) throw new TypeError('waf: options must be an object');
  const mode = options.mode ?? 'block';
  if (mode !== 'block' && mode !== 'log')
    throw new TypeError(`waf: mode must be "block" or "log", got ${String(mode)}`);
  const onMatch = options.onMatch;
  if (onMatch !== undefined && typeof onMatch !== 'function')
    throw new TypeError('waf: onMatch must be a function');
  // A log mode that reports to nobody would be a firewall doing nothing, silently.
  if (mode === 'log' && onMatch === undefined)
    throw new TypeError('waf: onMatch is required when mode is "log"');

  const custom = options.rules ?? [];
  if (!Array.isArray(custom)) throw new TypeError('waf: rules must be an array');
  const ids = new Set<string>([...DEFAULT_WAF_RULES.map((r) => r.id), BODY_SCAN_LIMIT_RULE]);
  custom.forEach((rule, index) => checkCustomRule(rule, index, ids));
  const groups = new Set<string>([
    ...WAF_RULE_GROUPS,
    ...custom.flatMap((r) => (r.group === undefined ? [] : [r.group])),
  ]);

  const disable = options.disable ?? [];
  if (!Array.isArray(disable)) throw new TypeError('waf: disable must be an array of rule ids or groups');
  for (const name of disable) {
    if (typeof name !== 'string' || !(ids.has(name) || groups.has(name))) {
      throw new TypeError(`waf: disable names an unknown rule or group ${JSON.stringify(name)}`);
    }
  }
  const off = new Set(disable);
  const rules = new Map<WafTarget, CompiledRule[]>(WAF_TARGETS.map((t) => [t, []]));
  const all: readonly WafRule[] = [...DEFAULT_WAF_RULES, ...custom];
  all.forEach((rule, index) => {
    const targets = targetsOf(
      rule,
      index < DEFAULT_WAF_RULES.length ? rule.id : `rules[${index - DEFAULT_WAF_RULES.length}]`,
    );
    if (off.has(rule.id) || (rule.group !== undefined && off.has(rule.group))) return;
    const compiled = compileRule(rule);
    for (const target of targets) rules.get(target)?.push(compiled);
  });

  const headers = options.headers ?? [];
  if (!Array.isArray(headers)) throw new TypeError('waf: headers must be an array of header names');
  for (const name of headers) {
    if (typeof name !== 'string' || !isHttpToken(name)) {
      throw new TypeError(`waf: headers has an invalid header name ${JSON.stringify(name)}`);
    }
  }
  const inspectBody = options.inspectBody ?? true;
  if (typeof inspectBody !== 'boolean') throw new TypeError('waf: inspectBody must be a boolean');
  return Object.freeze({
    mode,
    headers: Object.freeze(headers.map((h) => h.toLowerCase())),
    inspectBody,
    maxBodyDepth: positiveInteger('maxBodyDepth', options.maxBodyDepth, 32),
    maxBodyChars: positiveInteger('maxBodyChars', options.maxBodyChars, 1024 * 1024),
    scanLimit: !off.has(BODY_SCAN_LIMIT_RULE) && !off.has('limits'),
    onMatch,
    rules,
  });
}

/** The first rule of `target` that matches `input`. */
function firstMatch(
  resolved: ResolvedWafOptions,
  target: WafTarget,
  input: string,
): CompiledRule | undefined {
  const rules = resolved.rules.get(target);
  if (rules === undefined || rules.length === 0 || input.length === 0) return undefined;
  const text = normaliseWafText(input);
  const raw = input.toLowerCase();
  for (const rule of rules) if (rule.test(text, raw)) return rule;
  return undefined;
}

interface Hit {
  rule: string;
  group: string | undefined;
  where: WafTarget;
  field: string | undefined;
}

function hitOf(rule: CompiledRule, where: WafTarget, field?: string): Hit {
  return { rule: rule.id, group: rule.group, where, field };
}

function scanRequest(resolved: ResolvedWafOptions, request: Request): Hit | undefined {
  // The path and query as sent (the URL parser has already resolved dot segments).
  const { pathname: path, search: query } = splitUrl(request.url);
  let rule = firstMatch(resolved, 'path', path);
  if (rule !== undefined) return hitOf(rule, 'path');
  if (query.length > 0) {
    for (const pair of query.split('&')) {
      // application/x-www-form-urlencoded: `+` is a space (WHATWG URL §5.1).
      const plain = pair.replaceAll('+', ' ');
      const eq = plain.indexOf('=');
      const name = eq < 0 ? plain : plain.slice(0, eq);
      const field = normaliseWafText(name).slice(0, 100);
      rule =
        firstMatch(resolved, 'query', name) ??
        (eq < 0 ? undefined : firstMatch(resolved, 'query', plain.slice(eq + 1)));
      if (rule !== undefined) return hitOf(rule, 'query', field);
    }
  }
  for (const name of resolved.headers) {
    const value = request.headers.get(name);
    rule = value === null ? undefined : firstMatch(resolved, 'headers', value);
    if (rule !== undefined) return hitOf(rule, 'headers', name);
  }
  const agent = request.headers.get('user-agent');
  rule = agent === null ? undefined : firstMatch(resolved, 'user-agent', agent);
  return rule === undefined ? undefined : hitOf(rule, 'user-agent');
}

function isPlainObject(value: object): boolean {
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

const LIMIT_RULE: CompiledRule = { id: BODY_SCAN_LIMIT_RULE, group: 'limits', test: () => true };

/** Walks the parsed body (depth-first) within the depth and size bounds, checking strings and keys. */
function scanBody(resolved: ResolvedWafOptions, body: unknown): Hit | undefined {
  const stack: { value: unknown; depth: number; path: string }[] = [{ value: body, depth: 0, path: '' }];
  let chars = 0;
  const over = (path: string): Hit | undefined =>
    resolved.scanLimit ? hitOf(LIMIT_RULE, 'body', path || undefined) : undefined;
  while (stack.length > 0) {
    const { value, depth, path } = stack.pop() as { value: unknown; depth: number; path: string };
    let text: string | undefined;
    if (typeof value === 'string') text = value;
    else if (value instanceof Blob) {
      // An uploaded file: its name is attacker text; its content is the application's business.
      const name = (value as { name?: unknown }).name;
      if (typeof name === 'string') text = name;
    } else if (typeof value === 'object' && value !== null) {
      if (depth >= resolved.maxBodyDepth) return over(path);
      if (Array.isArray(value)) {
        for (let i = value.length - 1; i >= 0; i--) {
          stack.push({ value: value[i], depth: depth + 1, path: path ? `${path}.${i}` : String(i) });
        }
      } else if (isPlainObject(value)) {
        for (const key of Object.keys(value)) {
          const child = path ? `${path}.${key}` : key;
          chars += key.length;
          if (chars > resolved.maxBodyChars) return over(child);
          const rule = firstMatch(resolved, 'body', key);
          if (rule !== undefined) return hitOf(rule, 'body', child.slice(0, 200));
          stack.push({ value: (value as Record<string, unknown>)[key], depth: depth + 1, path: child });
        }
      }
    }
    if (text === undefined) continue;
    chars += text.length;
    if (chars > resolved.maxBodyChars) return over(path);
    const rule = firstMatch(resolved, 'body', text);
    if (rule !== undefined) return hitOf(rule, 'body', path ? path.slice(0, 200) : undefined);
  }
  return undefined;
}

function report(resolved: ResolvedWafOptions, hit: Hit, request: Request): void {
  const blocked = resolved.mode === 'block';
  if (resolved.onMatch !== undefined) {
    const match: WafMatch = {
      ...hit,
      method: request.method,
      path: splitUrl(request.url).pathname,
      blocked,
    };
    try {
      const out = resolved.onMatch(match);
      if (out instanceof Promise) out.catch(() => {});
    } catch {
      // A failing logger must not turn a refusal into a 500, nor let the request through.
    }
  }
  if (blocked) {
    // The detail names the rule, never the payload: echoing attacker text back is an XSS vector of its own.
    throw new ForbiddenError({
      detail: `The request was blocked by the web application firewall (rule ${hit.rule}).`,
      extensions: { rule: hit.rule },
    });
  }
}

/**
 * A small web application firewall. onRequest checks the path, query, configured headers and user
 * agent; beforeHandle checks the strings of the parsed body (bounded depth and size). A match
 * answers 403 (`forbidden` problem naming the rule id) in `block` mode, or is only reported in
 * `log` mode.
 *
 * @example app.use(waf({ disable: ['scanner'], onMatch: (m) => log.warn('waf', m) }));
 */
export function waf(options?: WafOptions): Hooks {
  const resolved = resolveWafOptions(options);
  const hooks: Hooks = {
    onRequest: (request) => {
      const hit = scanRequest(resolved, request);
      if (hit !== undefined) report(resolved, hit, request);
    },
  };
  const bodyRules = resolved.rules.get('body') ?? [];
  if (resolved.inspectBody && (bodyRules.length > 0 || resolved.scanLimit)) {
    hooks.beforeHandle = (ctx: AnyContext) => {
      if (ctx.body === undefined || ctx.body === null) return;
      const hit = scanBody(resolved, ctx.body);
      if (hit !== undefined) report(resolved, hit, ctx.request);
    };
  }
  // Log mode only reports: the 403 is an answer of block mode alone.
  if (resolved.mode !== 'block') return hooks;
  return withHookTraits(hooks, {
    answers: [
      { status: 403, description: 'Blocked by the web application firewall (the problem names the rule)' },
    ],
  });
}
