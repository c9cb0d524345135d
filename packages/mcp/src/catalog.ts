/**
 * The server's tools, resources, templates and prompts, checked and compiled once when the handler
 * is created: names, JSON Schemas (derived from Standard Schemas), header parameters, URI
 * templates, the wire form of every list entry, and the capabilities they add up to (MCP
 * 2025-11-25 and 2026-07-28 "Tools", "Resources", "Prompts", "Completion").
 */
import { type AnySchema, describeJsonSchema, isStandardSchema, type JsonSchema } from '@charter/core';
import { collectMcpHeaderParams, type McpHeaderParam } from './headers.ts';
import { assertMcpInputSchema } from './input-schema.ts';
import type { ResolvedMcpOptions } from './options.ts';
import {
  checkPromptArgument,
  checkPromptFields,
  checkResourceFields,
  checkTemplateFields,
  checkToolFields,
  fail,
  isAbsoluteUri,
  requiredString,
} from './records.ts';
import type {
  McpCompleter,
  McpPrompt,
  McpResource,
  McpResourceTemplate,
  McpTool,
  McpToolSchema,
} from './types.ts';
import { type CompiledUriTemplate, compileUriTemplate } from './uri-template.ts';

/** A tool, ready to call. */
export interface CompiledTool {
  // biome-ignore lint/suspicious/noExplicitAny: the catalog holds tools of every argument type.
  readonly tool: McpTool<any>;
  /** The `tools/list` entry. */
  readonly entry: Record<string, unknown>;
  readonly inputSchema: JsonSchema;
  readonly outputSchema: JsonSchema | undefined;
  /** The Standard Schemas, when the tool was declared with them: they validate (and may transform) too. */
  readonly inputStandard: AnySchema | undefined;
  readonly outputStandard: AnySchema | undefined;
  /** `x-mcp-header` parameters to check against `Mcp-Param-*` headers. */
  readonly headerParams: readonly McpHeaderParam[];
}

/** A resource template, ready to match. */
export interface CompiledTemplate {
  readonly template: McpResourceTemplate;
  readonly compiled: CompiledUriTemplate;
  readonly entry: Record<string, unknown>;
}

/** Everything the method handlers look up. */
export interface Catalog {
  readonly tools: ReadonlyMap<string, CompiledTool>;
  readonly toolEntries: readonly Record<string, unknown>[];
  readonly resources: ReadonlyMap<string, McpResource>;
  readonly resourceEntries: readonly Record<string, unknown>[];
  readonly templates: readonly CompiledTemplate[];
  readonly templateEntries: readonly Record<string, unknown>[];
  readonly prompts: ReadonlyMap<string, McpPrompt>;
  readonly promptEntries: readonly Record<string, unknown>[];
  /** Whether any prompt argument or template variable offers completions. */
  readonly completions: boolean;
}

// MCP 2025-11-25 and 2026-07-28 "Tools" §Tool names: 1-128 characters of ASCII letters, digits, `_`, `-`
// and `.`. The protocol says SHOULD; the module holds its own tools to it, because clients may drop
// or refuse a tool whose name breaks it (and model APIs limit tool names the same way).
const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

function assertFunction(where: string, value: unknown, name: string): void {
  if (typeof value !== 'function') fail(where, `needs a ${name} function`);
}

/** The wire fields of a record: everything declared except functions, with `undefined` left out. */
function entryOf(record: object, omit: readonly string[]): Record<string, unknown> {
  const entry: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record)) {
    if (value === undefined || typeof value === 'function' || omit.includes(key)) continue;
    entry[key] = value;
  }
  return entry;
}

function jsonSchemaOf(where: string, schema: McpToolSchema, direction: 'input' | 'output'): JsonSchema {
  if (isStandardSchema(schema)) {
    const described = describeJsonSchema(schema, direction);
    if ('error' in described) fail(where, `cannot be described as JSON Schema: ${described.error}`);
    return described.schema;
  }
  return schema as JsonSchema;
}

function compileTool(tool: McpTool, index: number): CompiledTool {
  if (typeof tool !== 'object' || tool === null) fail(`tools[${index}]`, 'must be a tool object');
  if (typeof tool.name !== 'string' || !TOOL_NAME.test(tool.name)) {
    fail(
      `tools[${index}]`,
      `has the name ${JSON.stringify(tool.name)}; names are 1-128 characters of A-Z a-z 0-9 _ - .`,
    );
  }
  const where = `tool "${tool.name}"`;
  checkToolFields(where, tool as unknown as Record<string, unknown>);
  assertFunction(where, tool.handler, 'handler');
  if (tool.inputSchema === undefined)
    fail(where, 'needs an inputSchema (for no arguments: { type: "object" })');
  const inputSchema = jsonSchemaOf(`${where}: inputSchema`, tool.inputSchema, 'input');
  assertMcpInputSchema(inputSchema, `createMcpHandler: ${where}: inputSchema`);
  const outputSchema =
    tool.outputSchema === undefined
      ? undefined
      : jsonSchemaOf(`${where}: outputSchema`, tool.outputSchema, 'output');
  if (outputSchema !== undefined)
    assertMcpInputSchema(outputSchema, `createMcpHandler: ${where}: outputSchema`);
  const entry = entryOf(tool, ['handler', 'inputSchema', 'outputSchema']);
  entry.inputSchema = inputSchema;
  if (outputSchema !== undefined) entry.outputSchema = outputSchema;
  return Object.freeze({
    tool,
    entry: Object.freeze(entry),
    inputSchema,
    outputSchema,
    inputStandard: isStandardSchema(tool.inputSchema) ? tool.inputSchema : undefined,
    outputStandard: isStandardSchema(tool.outputSchema) ? tool.outputSchema : undefined,
    headerParams: collectMcpHeaderParams(inputSchema, `createMcpHandler: ${where}: inputSchema`),
  });
}

function assertUri(where: string, uri: unknown): string {
  if (typeof uri !== 'string') fail(where, 'needs a string uri (MCP requires it)');
  // RFC 3986 §4.3: `format: "uri"` is an absolute URI; custom schemes (`docs://`) are welcome.
  if (!isAbsoluteUri(uri)) fail(where, `has the uri ${JSON.stringify(uri)}, which is not an absolute URI`);
  return uri;
}

function compileResource(resource: McpResource, index: number, seen: Map<string, McpResource>): void {
  if (typeof resource !== 'object' || resource === null)
    fail(`resources[${index}]`, 'must be a resource object');
  const uri = assertUri(`resources[${index}]`, resource.uri);
  const where = `resource ${JSON.stringify(uri)}`;
  const record = resource as unknown as Record<string, unknown>;
  requiredString(where, record, 'name');
  checkResourceFields(where, record);
  assertFunction(where, resource.read, 'read');
  if (seen.has(uri)) fail(where, 'is declared twice');
  seen.set(uri, resource);
}

function compileTemplate(
  template: McpResourceTemplate,
  index: number,
  seen: Map<string, string>,
): CompiledTemplate {
  if (typeof template !== 'object' || template === null) {
    fail(`resourceTemplates[${index}]`, 'must be a resource template object');
  }
  if (typeof template.uriTemplate !== 'string')
    fail(`resourceTemplates[${index}]`, 'needs a string uriTemplate (MCP requires it)');
  const where = `resource template ${JSON.stringify(template.uriTemplate)}`;
  const record = template as unknown as Record<string, unknown>;
  requiredString(where, record, 'name');
  checkTemplateFields(where, record);
  assertFunction(where, template.read, 'read');
  const compiled = compileUriTemplate(template.uriTemplate, `createMcpHandler: ${where}`);
  for (const [variable, completer] of Object.entries(template.complete ?? {})) {
    if (!compiled.variables.includes(variable))
      fail(where, `completes ${JSON.stringify(variable)}, which is not one of its variables`);
    assertFunction(`${where} completion of ${JSON.stringify(variable)}`, completer, 'completer');
  }
  // Reads go to the first template that matches, so a second one that matches exactly the same URIs
  // would be listed but never read: refused like a second tool of the same name.
  const earlier = seen.get(compiled.shape);
  if (earlier === template.uriTemplate) fail(where, 'is declared twice');
  if (earlier !== undefined) {
    fail(
      where,
      `matches exactly the URIs of resource template ${JSON.stringify(earlier)}, declared before it, so it could never be read`,
    );
  }
  seen.set(compiled.shape, template.uriTemplate);
  return Object.freeze({ template, compiled, entry: Object.freeze(entryOf(template, ['read', 'complete'])) });
}

function compilePrompt(prompt: McpPrompt, index: number, seen: Map<string, McpPrompt>): void {
  if (typeof prompt !== 'object' || prompt === null) fail(`prompts[${index}]`, 'must be a prompt object');
  const record = prompt as unknown as Record<string, unknown>;
  requiredString(`prompts[${index}]`, record, 'name');
  const where = `prompt ${JSON.stringify(prompt.name)}`;
  checkPromptFields(where, record);
  assertFunction(where, prompt.get, 'get');
  if (seen.has(prompt.name)) fail(where, 'is declared twice');
  const names = new Set<string>();
  (prompt.arguments ?? []).forEach((argument, i) => {
    const name = checkPromptArgument(where, argument, i);
    // prompts/get names its arguments in an object, so two of one name could not both be given.
    if (names.has(name)) fail(where, `declares the argument ${JSON.stringify(name)} twice`);
    names.add(name);
    if (argument.complete !== undefined)
      assertFunction(`${where} argument ${name}`, argument.complete, 'complete');
  });
  seen.set(prompt.name, prompt);
}

function promptEntry(prompt: McpPrompt): Record<string, unknown> {
  const entry = entryOf(prompt, ['get', 'arguments']);
  if (prompt.arguments !== undefined)
    entry.arguments = prompt.arguments.map((argument) => entryOf(argument, ['complete']));
  return Object.freeze(entry);
}

/** Checks and compiles everything the server offers; throws a TypeError naming the first bad record. */
export function buildCatalog(options: ResolvedMcpOptions): Catalog {
  const tools = new Map<string, CompiledTool>();
  options.tools.forEach((tool, index) => {
    const compiled = compileTool(tool, index);
    if (tools.has(tool.name)) fail(`tool "${tool.name}"`, 'is declared twice');
    tools.set(tool.name, compiled);
  });
  const resources = new Map<string, McpResource>();
  options.resources.forEach((resource, index) => compileResource(resource, index, resources));
  const templateShapes = new Map<string, string>();
  const templates = options.resourceTemplates.map((template, index) =>
    compileTemplate(template, index, templateShapes),
  );
  const prompts = new Map<string, McpPrompt>();
  options.prompts.forEach((prompt, index) => compilePrompt(prompt, index, prompts));
  const completers: (McpCompleter | undefined)[] = [
    ...options.prompts.flatMap((prompt) => (prompt.arguments ?? []).map((argument) => argument.complete)),
    ...options.resourceTemplates.flatMap((template) => Object.values(template.complete ?? {})),
  ];
  return Object.freeze({
    tools,
    toolEntries: Object.freeze([...tools.values()].map((tool) => tool.entry)),
    resources,
    resourceEntries: Object.freeze(
      options.resources.map((resource) => Object.freeze(entryOf(resource, ['read']))),
    ),
    templates: Object.freeze(templates),
    templateEntries: Object.freeze(templates.map((template) => template.entry)),
    prompts,
    promptEntries: Object.freeze(options.prompts.map(promptEntry)),
    completions: completers.some((completer) => completer !== undefined),
  });
}

/** The server capabilities the catalog honours (declare only what is implemented, MCP "Lifecycle" §Capability Negotiation). */
export function serverCapabilities(
  catalog: Catalog,
  options: ResolvedMcpOptions,
  era: 'modern' | 'legacy',
): Record<string, unknown> {
  const capabilities: Record<string, unknown> = {};
  if (catalog.tools.size > 0) capabilities.tools = {};
  if (catalog.resources.size > 0 || catalog.templates.length > 0) {
    // Subscriptions need a stream to notify on: in the legacy era a session's GET stream, so only
    // with a store (subscriptions.ts); in the modern era a subscriptions/listen stream (listen.ts).
    capabilities.resources = era === 'modern' || options.sessions !== undefined ? { subscribe: true } : {};
  }
  if (catalog.prompts.size > 0) capabilities.prompts = {};
  if (catalog.completions) capabilities.completions = {};
  // logging/setLevel exists only in the legacy era; the modern one opts in per request with `_meta`.
  if (era === 'legacy') capabilities.logging = {};
  if (era === 'modern' && options.extensions !== undefined) capabilities.extensions = options.extensions;
  return capabilities;
}
