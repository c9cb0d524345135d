/**
 * The field rules of the records a server lists (`Tool`, `Resource`, `ResourceTemplate`, `Prompt`,
 * `PromptArgument` and what they hold: `Icon`, `Annotations`, `ToolAnnotations`, `_meta`), taken from
 * `schema/<revision>/schema.ts` of every revision served, 2024-11-05 through 2026-07-28. A record is
 * refused only for what the protocol refuses: a required field that is missing, a field of the wrong
 * type, a value outside its enumeration or range, a `_meta` key that breaks the key naming rules.
 * Optional fields stay optional (`description` of a tool or a prompt among them); fields the schema
 * does not name pass through, as its open objects allow.
 *
 * Required in every revision: `Tool.name`, `Tool.inputSchema`, `Resource.uri`, `Resource.name`,
 * `ResourceTemplate.uriTemplate`, `ResourceTemplate.name`, `Prompt.name`, `PromptArgument.name`,
 * `Icon.src`. Nothing else.
 */

/** Throws the module's TypeError: `createMcpHandler: <where> <message>`. */
export function fail(where: string, message: string): never {
  throw new TypeError(`createMcpHandler: ${where} ${message}`);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** What a value is, for messages (never the value itself: it may be long). */
function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

function wrongType(where: string, field: string, wanted: string, value: unknown): never {
  fail(`${where}:`, `${field} is ${kindOf(value)}; MCP wants ${wanted}`);
}

/** A required string: any string, the empty one included (no revision gives it a minimum length). */
export function requiredString(where: string, record: Record<string, unknown>, field: string): string {
  const value = record[field];
  if (typeof value !== 'string') fail(where, `needs a string ${field} (MCP requires it)`);
  return value;
}

function optionalString(where: string, record: Record<string, unknown>, field: string, label = field): void {
  const value = record[field];
  if (value !== undefined && typeof value !== 'string') wrongType(where, label, 'a string', value);
}

function optionalBoolean(where: string, record: Record<string, unknown>, field: string, label = field): void {
  const value = record[field];
  if (value !== undefined && typeof value !== 'boolean') wrongType(where, label, 'a boolean', value);
}

function optionalObject(
  where: string,
  record: Record<string, unknown>,
  field: string,
  label = field,
): Record<string, unknown> | undefined {
  const value = record[field];
  if (value === undefined) return undefined;
  if (!isPlainObject(value)) wrongType(where, label, 'an object', value);
  return value;
}

function optionalArray(
  where: string,
  record: Record<string, unknown>,
  field: string,
  label = field,
): readonly unknown[] | undefined {
  const value = record[field];
  if (value === undefined) return undefined;
  if (!Array.isArray(value)) wrongType(where, label, 'an array', value);
  return value;
}

/** An absolute URI (`format: "uri"`, RFC 3986 §4.3); custom schemes (`docs://`, `data:`) are welcome. */
export function isAbsoluteUri(value: string): boolean {
  return URL.canParse(value);
}

// `_meta` key naming (2025-06-18 and later, "General fields: _meta"): an optional prefix of labels
// separated by dots and ended by a slash, each label starting with a letter and ending with a letter
// or digit, hyphens inside; then a name, empty or starting and ending with an ASCII letter or digit,
// with `-`, `_` and `.` inside.
const LABEL = /^[A-Za-z](?:[A-Za-z0-9-]*[A-Za-z0-9])?$/;
const NAME = /^(?:[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)?$/;

/**
 * Why `key` breaks the `_meta` key naming rules, or undefined when it keeps them. With
 * `prefixRequired` (extension identifiers, 2026-07-28 "Extension Negotiation": "MUST follow the `_meta`
 * key naming rules, with a mandatory prefix") a key without a prefix is refused too.
 */
export function metaKeyProblem(key: string, prefixRequired: boolean): string | undefined {
  const slash = key.indexOf('/');
  if (slash === -1) {
    if (prefixRequired) return 'has no prefix (labels separated by dots, then "/")';
    return NAME.test(key)
      ? undefined
      : 'has a name that does not start and end with a letter or digit, or holds other characters than letters, digits, "-", "_" and "."';
  }
  for (const label of key.slice(0, slash).split('.')) {
    if (!LABEL.test(label)) {
      return `has the prefix label ${JSON.stringify(label)}; a label starts with a letter, ends with a letter or digit, and holds only letters, digits and "-"`;
    }
  }
  return NAME.test(key.slice(slash + 1))
    ? undefined
    : 'has a name (after "/") that does not start and end with a letter or digit, or holds other characters than letters, digits, "-", "_" and "."';
}

/** `_meta`: an object whose keys keep the naming rules. */
function checkMeta(where: string, record: Record<string, unknown>): void {
  const meta = optionalObject(where, record, '_meta');
  if (meta === undefined) return;
  for (const key of Object.keys(meta)) {
    const problem = metaKeyProblem(key, false);
    if (problem !== undefined) fail(`${where}:`, `the _meta key ${JSON.stringify(key)} ${problem}`);
  }
}

const THEMES: ReadonlySet<unknown> = new Set(['light', 'dark']);
const ROLES: ReadonlySet<unknown> = new Set(['user', 'assistant']);
const TASK_SUPPORT: ReadonlySet<unknown> = new Set(['forbidden', 'optional', 'required']);

/** `icons`: an array of `Icon { src (a URI), mimeType?, sizes?: string[], theme?: "light" | "dark" }`. */
function checkIcons(where: string, record: Record<string, unknown>): void {
  const icons = optionalArray(where, record, 'icons');
  icons?.forEach((icon, i) => {
    const at = `icons[${i}]`;
    if (!isPlainObject(icon)) wrongType(where, at, 'an Icon object { src, mimeType?, sizes?, theme? }', icon);
    if (typeof icon.src !== 'string') fail(where, `needs a string ${at}.src (MCP requires it)`);
    if (!isAbsoluteUri(icon.src)) fail(`${where}:`, `${at}.src is not an absolute URI`);
    optionalString(where, icon, 'mimeType', `${at}.mimeType`);
    const sizes = optionalArray(where, icon, 'sizes', `${at}.sizes`);
    sizes?.forEach((size, j) => {
      if (typeof size !== 'string') wrongType(where, `${at}.sizes[${j}]`, 'a string', size);
    });
    if (icon.theme !== undefined && !THEMES.has(icon.theme))
      fail(`${where}:`, `${at}.theme is neither "light" nor "dark"`);
  });
}

/** `annotations` of a resource or template: `{ audience?: ("user" | "assistant")[], priority?: 0..1, lastModified?: string }`. */
function checkAnnotations(where: string, record: Record<string, unknown>): void {
  const annotations = optionalObject(where, record, 'annotations');
  if (annotations === undefined) return;
  const audience = optionalArray(where, annotations, 'audience', 'annotations.audience');
  audience?.forEach((role, i) => {
    if (!ROLES.has(role)) fail(`${where}:`, `annotations.audience[${i}] is neither "user" nor "assistant"`);
  });
  const { priority } = annotations;
  if (priority !== undefined && (typeof priority !== 'number' || !(priority >= 0 && priority <= 1)))
    fail(`${where}:`, 'annotations.priority is not a number from 0 to 1');
  optionalString(where, annotations, 'lastModified', 'annotations.lastModified');
}

const TOOL_HINTS = ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const;

/** The optional fields of a `Tool` (name, inputSchema and outputSchema are the catalog's). */
export function checkToolFields(where: string, tool: Record<string, unknown>): void {
  optionalString(where, tool, 'title');
  optionalString(where, tool, 'description');
  const annotations = optionalObject(where, tool, 'annotations');
  if (annotations !== undefined) {
    optionalString(where, annotations, 'title', 'annotations.title');
    for (const hint of TOOL_HINTS) optionalBoolean(where, annotations, hint, `annotations.${hint}`);
  }
  // 2025-11-25 `ToolExecution`; later revisions moved tasks to an extension and ignore the field.
  const execution = optionalObject(where, tool, 'execution');
  if (execution?.taskSupport !== undefined && !TASK_SUPPORT.has(execution.taskSupport))
    fail(`${where}:`, 'execution.taskSupport is not "forbidden", "optional" or "required"');
  checkIcons(where, tool);
  checkMeta(where, tool);
}

/** The optional fields of a `Resource` (uri and name are the catalog's). */
export function checkResourceFields(where: string, resource: Record<string, unknown>): void {
  optionalString(where, resource, 'title');
  optionalString(where, resource, 'description');
  optionalString(where, resource, 'mimeType');
  const { size } = resource;
  if (size !== undefined && (typeof size !== 'number' || !Number.isInteger(size)))
    wrongType(where, 'size', 'an integer', size);
  checkAnnotations(where, resource);
  checkIcons(where, resource);
  checkMeta(where, resource);
}

/** The optional fields of a `ResourceTemplate` (uriTemplate and name are the catalog's). */
export function checkTemplateFields(where: string, template: Record<string, unknown>): void {
  optionalString(where, template, 'title');
  optionalString(where, template, 'description');
  optionalString(where, template, 'mimeType');
  checkAnnotations(where, template);
  checkIcons(where, template);
  checkMeta(where, template);
}

/** The optional fields of a `Prompt` (name, and each argument, are the catalog's). */
export function checkPromptFields(where: string, prompt: Record<string, unknown>): void {
  optionalString(where, prompt, 'title');
  optionalString(where, prompt, 'description');
  optionalArray(where, prompt, 'arguments');
  checkIcons(where, prompt);
  checkMeta(where, prompt);
}

/** A `PromptArgument { name, title?, description?, required?: boolean }`; returns its name. */
export function checkPromptArgument(where: string, argument: unknown, index: number): string {
  const at = `arguments[${index}]`;
  if (!isPlainObject(argument))
    wrongType(where, at, 'a PromptArgument object { name, title?, description?, required? }', argument);
  if (typeof argument.name !== 'string') fail(where, `needs a string ${at}.name (MCP requires it)`);
  optionalString(where, argument, 'title', `${at}.title`);
  optionalString(where, argument, 'description', `${at}.description`);
  optionalBoolean(where, argument, 'required', `${at}.required`);
  return argument.name;
}
