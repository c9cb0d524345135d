/**
 * The fixture server of the official MCP conformance suite (`@modelcontextprotocol/conformance`):
 * the tools, resources, template and prompts its server scenarios call by name (`test_simple_text`,
 * `test://static-text`, `test_prompt_with_arguments`, the `test_input_required_result_*` family, ...),
 * built only from what `charter/mcp` offers: input-required through `inputRequired()`, tool errors
 * through `McpToolError`, completions through `complete`, `Mcp-Param-*` mirroring through an
 * `x-mcp-header` annotation in a JSON input schema. One Streamable HTTP endpoint serves both eras;
 * a session store gives the legacy era its sessions, subscriptions and server-to-client requests.
 *
 * Run it with `bun examples/mcp-conformance-server.ts` (PORT, default 3001), then
 * `bun node_modules/@modelcontextprotocol/conformance/dist/index.js server --url <url>
 * --requirements 2026-07-28 --expected-failures tests/mcp/conformance-baseline.yml`.
 * tests/mcp/conformance.test.ts runs both requirement sets (2025-11-25 and 2026-07-28) in CI.
 */
import { App } from 'charter';
import {
  createMcpHandler,
  defineMcpTool,
  inputRequired,
  type McpContent,
  type McpInputRequest,
  type McpPrompt,
  type McpRequestContext,
  type McpResource,
  type McpResourceTemplate,
  McpToolError,
  mcpRoutes,
  memoryMcpSessionStore,
} from 'charter/mcp';
import { serve } from 'charter/bun';

/** The path the endpoint is mounted at. */
export const CONFORMANCE_MCP_PATH = '/mcp';

/** A 1x1 red PNG. */
const RED_PIXEL_PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC';
/** Eight samples of 8-bit mono silence at 8 kHz, as a RIFF/WAVE file. */
const SILENT_WAV = 'UklGRiwAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YQgAAACAgICAgICAgA==';

/** No arguments. */
const NO_ARGUMENTS = { type: 'object', properties: {} } as const;

/** The schema the `json-schema-2020-12` scenario expects to find unaltered in `tools/list` (SEP-1613, SEP-2106). */
const JSON_SCHEMA_2020_12_INPUT = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  $defs: {
    address: {
      $anchor: 'addressDef',
      type: 'object',
      properties: { street: { type: 'string' }, city: { type: 'string' } },
    },
  },
  properties: {
    name: { type: 'string' },
    address: { $ref: '#/$defs/address' },
    contactMethod: { type: 'string', enum: ['phone', 'email'] },
    phone: { type: 'string' },
    email: { type: 'string' },
  },
  allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
  if: { properties: { contactMethod: { const: 'phone' } }, required: ['contactMethod'] },
  then: { required: ['phone'] },
  else: { required: ['email'] },
  additionalProperties: false,
} as const;

/** Arguments mirrored into `Mcp-Param-*` headers (2026-07-28, SEP-2243): one of each allowed type. */
const CUSTOM_HEADERS_INPUT = {
  type: 'object',
  properties: {
    region: { type: 'string', 'x-mcp-header': 'Region', description: 'Mirrored as Mcp-Param-Region' },
    priority: { type: 'integer', 'x-mcp-header': 'Priority', description: 'Mirrored as Mcp-Param-Priority' },
    verbose: { type: 'boolean', 'x-mcp-header': 'Verbose', description: 'Mirrored as Mcp-Param-Verbose' },
    query: { type: 'string', description: 'Not mirrored' },
  },
  required: ['region'],
} as const;

/** The SEP-1034 elicitation schema: a default for every primitive type. */
const SEP1034_SCHEMA = {
  type: 'object',
  properties: {
    name: { type: 'string', default: 'John Doe' },
    age: { type: 'integer', default: 30 },
    score: { type: 'number', default: 95.5 },
    status: { type: 'string', enum: ['active', 'inactive', 'pending'], default: 'active' },
    verified: { type: 'boolean', default: true },
  },
};

/** The SEP-1330 elicitation schema: the five enum shapes. */
const SEP1330_SCHEMA = {
  type: 'object',
  properties: {
    untitledSingle: { type: 'string', enum: ['option1', 'option2', 'option3'] },
    titledSingle: {
      type: 'string',
      oneOf: [
        { const: 'value1', title: 'First Option' },
        { const: 'value2', title: 'Second Option' },
        { const: 'value3', title: 'Third Option' },
      ],
    },
    legacyEnum: {
      type: 'string',
      enum: ['opt1', 'opt2', 'opt3'],
      enumNames: ['Option One', 'Option Two', 'Option Three'],
    },
    untitledMulti: { type: 'array', items: { type: 'string', enum: ['option1', 'option2', 'option3'] } },
    titledMulti: {
      type: 'array',
      items: {
        anyOf: [
          { const: 'value1', title: 'First Choice' },
          { const: 'value2', title: 'Second Choice' },
          { const: 'value3', title: 'Third Choice' },
        ],
      },
    },
  },
};

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function elicit(message: string, properties: Json, required?: readonly string[]): McpInputRequest {
  return {
    method: 'elicitation/create',
    params: {
      message,
      requestedSchema: { type: 'object', properties, ...(required === undefined ? {} : { required }) },
    },
  };
}

function sample(text: string, maxTokens: number): McpInputRequest {
  return {
    method: 'sampling/createMessage',
    params: { messages: [{ role: 'user', content: { type: 'text', text } }], maxTokens },
  };
}

const LIST_ROOTS: McpInputRequest = { method: 'roots/list', params: {} };

/**
 * The client's answer under `key`, when it has the shape `check` wants. The client controls these
 * bytes (only `requestState` is sealed), so a missing or malformed answer re-asks instead of failing
 * (SEP-2322: re-request what is missing).
 */
function answer(ctx: McpRequestContext, key: string, check: (value: Json) => boolean): Json | undefined {
  const value = ctx.inputResponses?.[key];
  return isObject(value) && check(value) ? value : undefined;
}

/** An accepted elicitation (`ElicitResult` with `action: "accept"` and a content object). */
function accepted(value: Json): boolean {
  return value.action === 'accept' && isObject(value.content);
}

/** A sampling result carrying a text block (`CreateMessageResult`). */
function sampled(value: Json): boolean {
  return isObject(value.content) && typeof value.content.text === 'string';
}

/** A roots/list result (`ListRootsResult`). */
function listedRoots(value: Json): boolean {
  return Array.isArray(value.roots);
}

function sampledText(value: Json): string {
  return (value.content as { text: string }).text;
}

function text(value: string): McpContent {
  return { type: 'text', text: value };
}

/** A tool without arguments that asks the client for input (input-required), then reports the answer. */
function askingTool(name: string, description: string, request: McpInputRequest) {
  const key = request.method === 'elicitation/create' ? 'input' : 'answer';
  const check = request.method === 'elicitation/create' ? accepted : sampled;
  return defineMcpTool({
    name,
    description,
    inputSchema: NO_ARGUMENTS,
    handler: (_args, ctx) => {
      const reply = answer(ctx, key, check);
      if (reply === undefined) return inputRequired({ inputRequests: { [key]: request } });
      return request.method === 'elicitation/create'
        ? `Elicitation completed: action=accept, content=${JSON.stringify(reply.content)}`
        : `LLM response: ${sampledText(reply)}`;
    },
  });
}

const tools = [
  // First on purpose: the header-validation scenario calls the first listed tool with `{}`.
  defineMcpTool({
    name: 'test_simple_text',
    description: 'Returns a simple text response',
    inputSchema: NO_ARGUMENTS,
    handler: () => 'This is a simple text response for testing.',
  }),
  defineMcpTool({
    name: 'test_image_content',
    description: 'Returns image content',
    inputSchema: NO_ARGUMENTS,
    handler: () => ({ content: [{ type: 'image', data: RED_PIXEL_PNG, mimeType: 'image/png' }] }),
  }),
  defineMcpTool({
    name: 'test_audio_content',
    description: 'Returns audio content',
    inputSchema: NO_ARGUMENTS,
    handler: () => ({ content: [{ type: 'audio', data: SILENT_WAV, mimeType: 'audio/wav' }] }),
  }),
  defineMcpTool({
    name: 'test_embedded_resource',
    description: 'Returns an embedded resource',
    inputSchema: NO_ARGUMENTS,
    handler: () => ({
      content: [
        {
          type: 'resource',
          resource: {
            uri: 'test://embedded-resource',
            mimeType: 'text/plain',
            text: 'This is an embedded resource content.',
          },
        },
      ],
    }),
  }),
  defineMcpTool({
    name: 'test_multiple_content_types',
    description: 'Returns text, image and resource content',
    inputSchema: NO_ARGUMENTS,
    handler: () => ({
      content: [
        text('Multiple content types test:'),
        { type: 'image', data: RED_PIXEL_PNG, mimeType: 'image/png' },
        {
          type: 'resource',
          resource: {
            uri: 'test://mixed-content-resource',
            mimeType: 'application/json',
            text: JSON.stringify({ test: 'data', value: 123 }),
          },
        },
      ],
    }),
  }),
  defineMcpTool({
    name: 'test_error_handling',
    description: 'Always fails with a tool error (an isError result)',
    inputSchema: NO_ARGUMENTS,
    handler: () => {
      throw new McpToolError('This tool intentionally returns an error for testing');
    },
  }),
  // Progress and log notifications switch the answer to an event stream (ctx.progress, ctx.log).
  defineMcpTool({
    name: 'test_tool_with_progress',
    description: 'Reports progress 0, 50 and 100 of 100 when the request sent a progressToken',
    inputSchema: NO_ARGUMENTS,
    handler: async (_args, ctx) => {
      for (const progress of [0, 50, 100]) {
        ctx.progress(progress, 100);
        await Bun.sleep(10);
      }
      return 'Progress tool completed';
    },
  }),
  defineMcpTool({
    name: 'test_tool_with_logging',
    description: 'Sends three info log messages while it runs',
    inputSchema: NO_ARGUMENTS,
    handler: async (_args, ctx) => {
      for (const step of ['Tool execution started', 'Tool processing data', 'Tool execution completed']) {
        ctx.log('info', step);
        await Bun.sleep(10);
      }
      return 'Logging tool completed';
    },
  }),
  defineMcpTool({
    name: 'test_logging_tool',
    description: 'Logs at info level; nothing is sent unless the request opts in with a log level',
    inputSchema: NO_ARGUMENTS,
    handler: (_args, ctx) => {
      ctx.log('info', 'Logging tool ran');
      return 'Logging tool completed';
    },
  }),
  defineMcpTool({
    name: 'test_sampling',
    description: 'Asks the client for an LLM completion of the prompt (2026-07-28 input-required)',
    inputSchema: {
      type: 'object',
      properties: { prompt: { type: 'string', description: 'The prompt to send to the LLM' } },
      required: ['prompt'],
    },
    handler: (args, ctx) => {
      const reply = answer(ctx, 'completion', sampled);
      if (reply === undefined) {
        return inputRequired({ inputRequests: { completion: sample(String(args.prompt), 100) } });
      }
      return `LLM response: ${sampledText(reply)}`;
    },
  }),
  defineMcpTool({
    name: 'test_elicitation',
    description: 'Asks the user for a username and an email (2026-07-28 input-required)',
    inputSchema: {
      type: 'object',
      properties: { message: { type: 'string', description: 'The message to show the user' } },
      required: ['message'],
    },
    handler: (args, ctx) => {
      const reply = answer(ctx, 'user', accepted);
      if (reply === undefined) {
        const request = elicit(
          String(args.message),
          {
            username: { type: 'string', description: "User's response" },
            email: { type: 'string', description: "User's email address" },
          },
          ['username', 'email'],
        );
        return inputRequired({ inputRequests: { user: request } });
      }
      return `User response: action=accept, content=${JSON.stringify(reply.content)}`;
    },
  }),
  askingTool('test_elicitation_sep1034_defaults', 'Elicits with a default for every primitive type', {
    method: 'elicitation/create',
    params: {
      message: 'Please review and update the form fields with defaults',
      requestedSchema: SEP1034_SCHEMA,
    },
  }),
  askingTool('test_elicitation_sep1330_enums', 'Elicits with the five enum schema shapes', {
    method: 'elicitation/create',
    params: { message: 'Please select options from the enum fields', requestedSchema: SEP1330_SCHEMA },
  }),
  askingTool(
    'test_streaming_elicitation',
    'Asks for input through an input-required result, never a server-to-client request',
    elicit('What should the tool use?', { value: { type: 'string' } }, ['value']),
  ),
  // Needs sampling: a request that does not declare it gets -32021 with requiredCapabilities.
  askingTool('test_missing_capability', 'Needs the sampling client capability', sample('Say hello', 20)),
  defineMcpTool({
    name: 'test_input_required_result_elicitation',
    description: 'Asks for the user name (SEP-2322 A1)',
    inputSchema: NO_ARGUMENTS,
    handler: (_args, ctx) => {
      const reply = answer(
        ctx,
        'user_name',
        (value) => accepted(value) && typeof (value.content as Json).name === 'string',
      );
      if (reply === undefined) {
        return inputRequired({
          inputRequests: { user_name: elicit('What is your name?', { name: { type: 'string' } }, ['name']) },
        });
      }
      return `Hello, ${(reply.content as Json).name}!`;
    },
  }),
  defineMcpTool({
    name: 'test_input_required_result_sampling',
    description: 'Asks the client LLM a question (SEP-2322)',
    inputSchema: NO_ARGUMENTS,
    handler: (_args, ctx) => {
      const reply = answer(ctx, 'capital_question', sampled);
      if (reply === undefined) {
        return inputRequired({
          inputRequests: { capital_question: sample('What is the capital of France?', 100) },
        });
      }
      return `The model said: ${sampledText(reply)}`;
    },
  }),
  defineMcpTool({
    name: 'test_input_required_result_list_roots',
    description: 'Asks the client for its roots (SEP-2322)',
    inputSchema: NO_ARGUMENTS,
    handler: (_args, ctx) => {
      const reply = answer(ctx, 'client_roots', listedRoots);
      if (reply === undefined) return inputRequired({ inputRequests: { client_roots: LIST_ROOTS } });
      const uris = (reply.roots as unknown[]).map((root) => (isObject(root) ? String(root.uri) : '?'));
      return `Client roots: ${uris.join(', ')}`;
    },
  }),
  defineMcpTool({
    name: 'test_input_required_result_request_state',
    description: 'Round-trips a sealed requestState (SEP-2322)',
    inputSchema: NO_ARGUMENTS,
    handler: (_args, ctx) => {
      const reply = answer(ctx, 'confirm', accepted);
      // The module verified the state (sealed, bound to this call, single-use) before this runs.
      if (reply !== undefined && isObject(ctx.requestState) && ctx.requestState.step === 'confirm') {
        return `state-ok: confirmed=${JSON.stringify((reply.content as Json).ok)}`;
      }
      return inputRequired({
        inputRequests: { confirm: elicit('Please confirm', { ok: { type: 'boolean' } }, ['ok']) },
        requestState: { step: 'confirm' },
      });
    },
  }),
  defineMcpTool({
    name: 'test_input_required_result_multiple_inputs',
    description: 'Asks for an elicitation, a sampling and the roots at once (SEP-2322)',
    inputSchema: NO_ARGUMENTS,
    handler: (_args, ctx) => {
      const name = answer(ctx, 'user_name', accepted);
      const greeting = answer(ctx, 'greeting', sampled);
      const roots = answer(ctx, 'client_roots', listedRoots);
      if (name !== undefined && greeting !== undefined && roots !== undefined && ctx.requestState === 'all') {
        return `Got ${JSON.stringify(name.content)}, "${sampledText(greeting)}" and ${(roots.roots as unknown[]).length} root(s)`;
      }
      return inputRequired({
        inputRequests: {
          user_name: elicit('What is your name?', { name: { type: 'string' } }, ['name']),
          greeting: sample('Generate a greeting', 50),
          client_roots: LIST_ROOTS,
        },
        requestState: 'all',
      });
    },
  }),
  defineMcpTool({
    name: 'test_input_required_result_multi_round',
    description: 'Asks two questions in two rounds, carrying the first answer in requestState (SEP-2322)',
    inputSchema: NO_ARGUMENTS,
    handler: (_args, ctx) => {
      const state = isObject(ctx.requestState) ? ctx.requestState : undefined;
      if (state?.round === 2) {
        const color = answer(ctx, 'step2', accepted);
        if (color !== undefined) return `${state.name} likes ${(color.content as Json).color}`;
      }
      if (state?.round === 1) {
        const name = answer(ctx, 'step1', accepted);
        if (name !== undefined) {
          return inputRequired({
            inputRequests: {
              step2: elicit('Step 2: What is your favorite color?', { color: { type: 'string' } }, ['color']),
            },
            requestState: { round: 2, name: (name.content as Json).name },
          });
        }
      }
      return inputRequired({
        inputRequests: {
          step1: elicit('Step 1: What is your name?', { name: { type: 'string' } }, ['name']),
        },
        requestState: { round: 1 },
      });
    },
  }),
  defineMcpTool({
    name: 'test_input_required_result_tampered_state',
    description: 'Issues a sealed requestState; an altered one is refused with -32602 (SEP-2322)',
    inputSchema: NO_ARGUMENTS,
    handler: (_args, ctx) => {
      if (ctx.requestState === 'issued' && answer(ctx, 'confirm', accepted) !== undefined)
        return 'state verified';
      return inputRequired({
        inputRequests: { confirm: elicit('Please confirm', { ok: { type: 'boolean' } }, ['ok']) },
        requestState: 'issued',
      });
    },
  }),
  defineMcpTool({
    name: 'test_input_required_result_capabilities',
    description: 'Asks only for what the client declared it can give (SEP-2322)',
    inputSchema: NO_ARGUMENTS,
    handler: (_args, ctx) => {
      const caps = ctx.clientCapabilities;
      const requests: Record<string, McpInputRequest> = {};
      if (isObject(caps.elicitation) && answer(ctx, 'user_name', accepted) === undefined)
        requests.user_name = elicit('What is your name?', { name: { type: 'string' } }, ['name']);
      if (isObject(caps.sampling) && answer(ctx, 'greeting', sampled) === undefined)
        requests.greeting = sample('Generate a greeting', 50);
      if (isObject(caps.roots) && answer(ctx, 'client_roots', listedRoots) === undefined)
        requests.client_roots = LIST_ROOTS;
      if (Object.keys(requests).length === 0) return 'Nothing more to ask';
      return inputRequired({ inputRequests: requests });
    },
  }),
  defineMcpTool({
    name: 'json_schema_2020_12_tool',
    description: 'Tool with JSON Schema 2020-12 features',
    inputSchema: JSON_SCHEMA_2020_12_INPUT,
    handler: (args) => `Received ${JSON.stringify(args)}`,
  }),
  defineMcpTool({
    name: 'test_custom_headers',
    description: 'Echoes arguments that clients mirror into Mcp-Param-* headers',
    inputSchema: CUSTOM_HEADERS_INPUT,
    handler: (args) => `Received ${JSON.stringify(args)}`,
  }),
];

const resources: McpResource[] = [
  {
    uri: 'test://static-text',
    name: 'static-text',
    description: 'A static text resource',
    mimeType: 'text/plain',
    read: () => 'This is the content of the static text resource.',
  },
  {
    uri: 'test://static-binary',
    name: 'static-binary',
    description: 'A static binary resource (a 1x1 PNG)',
    mimeType: 'image/png',
    read: () => [{ uri: 'test://static-binary', mimeType: 'image/png', blob: RED_PIXEL_PNG }],
  },
];

const resourceTemplates: McpResourceTemplate[] = [
  {
    uriTemplate: 'test://template/{id}/data',
    name: 'template-data',
    description: 'JSON data for an id',
    mimeType: 'application/json',
    complete: { id: (value) => ['123', '456', '789'].filter((id) => id.startsWith(value)) },
    read: (_uri, { id }) => JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }),
  },
];

const prompts: McpPrompt[] = [
  {
    name: 'test_simple_prompt',
    description: 'A prompt without arguments',
    get: () => ({
      messages: [{ role: 'user', content: text('This is a simple prompt for testing.') }],
    }),
  },
  {
    name: 'test_prompt_with_arguments',
    description: 'A prompt with two required arguments',
    arguments: [
      {
        name: 'arg1',
        description: 'First test argument',
        required: true,
        // The completion-complete scenario asks for suggestions of arg1.
        complete: (value) =>
          ['paris', 'park', 'party', 'test-value'].filter((word) => word.startsWith(value)),
      },
      { name: 'arg2', description: 'Second test argument', required: true },
    ],
    get: ({ arg1, arg2 }) => ({
      messages: [{ role: 'user', content: text(`Prompt with arguments: arg1='${arg1}', arg2='${arg2}'`) }],
    }),
  },
  {
    name: 'test_prompt_with_embedded_resource',
    description: 'A prompt embedding a resource',
    arguments: [{ name: 'resourceUri', description: 'URI of the resource to embed', required: true }],
    get: ({ resourceUri }) => ({
      messages: [
        {
          role: 'user',
          content: {
            type: 'resource',
            resource: {
              uri: resourceUri as string,
              mimeType: 'text/plain',
              text: 'Embedded resource content for testing.',
            },
          },
        },
        { role: 'user', content: text('Please process the embedded resource above.') },
      ],
    }),
  },
  {
    name: 'test_prompt_with_image',
    description: 'A prompt with an image',
    get: () => ({
      messages: [
        { role: 'user', content: { type: 'image', data: RED_PIXEL_PNG, mimeType: 'image/png' } },
        { role: 'user', content: text('Please analyze the image above.') },
      ],
    }),
  },
  {
    name: 'test_input_required_result_prompt',
    description: 'A prompt that asks the user for context first (SEP-2322 on prompts/get)',
    get: (_args, ctx) => {
      const reply = answer(ctx, 'user_context', accepted);
      if (reply === undefined) {
        return inputRequired({
          inputRequests: {
            user_context: elicit('What context should the prompt use?', { context: { type: 'string' } }, [
              'context',
            ]),
          },
        });
      }
      return {
        messages: [
          { role: 'user', content: text(`Use this context: ${String((reply.content as Json).context)}`) },
        ],
      };
    },
  },
];

/** The conformance fixture App: the tool server at `/mcp`, public (no authentication). */
export function createConformanceApp(): App {
  const handler = createMcpHandler({
    serverInfo: { name: 'charter-conformance-fixture', version: '1.0.0' },
    instructions: 'Fixture server for the MCP conformance suite.',
    tools,
    resources,
    resourceTemplates,
    prompts,
    // Handler bugs would surface as -32603; show their message, this is a test fixture.
    exposeInternalErrors: true,
    // Legacy-era sessions: Mcp-Session-Id, resource subscriptions on the GET stream, and the
    // sampling/elicitation requests the legacy scenarios expect on the POST stream. One process, so
    // the memory store; several instances would share redisMcpSessionStore (charter/redis).
    sessions: { store: memoryMcpSessionStore() },
  });
  const app = new App({ logger: false });
  app.registerRoutes(mcpRoutes(CONFORMANCE_MCP_PATH, handler, { public: true }));
  return app;
}

/** A running fixture server. */
export interface ConformanceServer {
  /** The MCP endpoint, e.g. `http://127.0.0.1:3001/mcp`. */
  readonly url: string;
  /** Stops listening and drains in-flight requests. */
  stop(): Promise<void>;
}

/** Starts the fixture on loopback; port 0 (the default here) picks a free one. */
export async function startConformanceServer(options: { port?: number } = {}): Promise<ConformanceServer> {
  const server = await serve(createConformanceApp(), {
    port: options.port ?? 0,
    hostname: '127.0.0.1',
    signals: false,
  });
  return { url: `${server.url}${CONFORMANCE_MCP_PATH}`, stop: () => server.close() };
}

if (import.meta.main) {
  const { url } = await startConformanceServer({ port: Number(process.env.PORT ?? 3001) });
  console.log(`MCP conformance fixture at ${url}
Try: bun node_modules/@modelcontextprotocol/conformance/dist/index.js server --url ${url} --requirements 2026-07-28 --expected-failures tests/mcp/conformance-baseline.yml`);
}
