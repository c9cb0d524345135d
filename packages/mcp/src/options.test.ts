import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { MCP_SUPPORTED_VERSIONS } from './constants.ts';
import { exposesInternalErrors, type McpHandlerOptions, resolveMcpOptions } from './options.ts';

const serverInfo = { name: 'notes', version: '1.0.0' };

const resolve = (options: Partial<McpHandlerOptions> | Record<string, unknown> = {}) =>
  resolveMcpOptions({ serverInfo, ...options } as McpHandlerOptions);

function refusal(options: Record<string, unknown>): string {
  try {
    resolveMcpOptions(options as unknown as McpHandlerOptions);
  } catch (error) {
    expect(error).toBeInstanceOf(TypeError);
    return (error as Error).message;
  }
  throw new Error('the options were accepted');
}

const refused = (options: Record<string, unknown>) => refusal({ serverInfo, ...options });

describe('resolveMcpOptions', () => {
  test('fills every default and freezes the result', () => {
    const resolved = resolve();
    expect(resolved.serverInfo).toEqual(serverInfo);
    expect(resolved.instructions).toBeUndefined();
    expect(resolved.tools).toEqual([]);
    expect(resolved.resources).toEqual([]);
    expect(resolved.resourceTemplates).toEqual([]);
    expect(resolved.prompts).toEqual([]);
    expect(resolved.extensions).toBeUndefined();
    expect(resolved.cache).toEqual({ ttlMs: 0, scope: 'private' });
    expect([...resolved.allowedOrigins]).toEqual([]);
    expect(resolved.protocolVersions).toEqual(MCP_SUPPORTED_VERSIONS);
    expect(resolved.legacyVersions).toEqual(['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05']);
    expect(resolved.preferredProtocolVersion).toBe('2026-07-28');
    expect(resolved.maxBodyBytes).toBe(262_144);
    expect(resolved.maxBatchSize).toBe(16);
    expect(resolved.maxBatchResponseBytes).toBe(1_048_576);
    expect(resolved.onBatch).toBeUndefined();
    expect(resolved.headers).toEqual({});
    expect(resolved.exposeInternalErrors).toBeUndefined();
    expect(resolved.maxResourceUriLength).toBe(8192);
    expect(resolved.pageSize).toBe(100);
    expect(resolved.requestStateKey).toBeUndefined();
    expect(resolved.requestStateTtlMs).toBe(600_000);
    expect(resolved.requestStatePrincipal).toBeUndefined();
    expect(typeof resolved.onError).toBe('function');
    for (const part of [
      resolved,
      resolved.serverInfo,
      resolved.cache,
      resolved.headers,
      resolved.legacyVersions,
    ]) {
      expect(Object.isFrozen(part)).toBe(true);
    }
  });

  test('copies and freezes what it was given, so later changes to the input do not leak in', () => {
    const tool = { name: 't' };
    const tools = [tool];
    const info = { ...serverInfo };
    const headers = { 'x-a': '1' };
    const resolved = resolve({ tools, serverInfo: info, headers } as never);
    tools.push({ name: 'u' });
    info.name = 'changed';
    headers['x-a'] = '2';
    expect(resolved.tools).toEqual([tool] as never);
    expect(Object.isFrozen(resolved.tools)).toBe(true);
    expect(resolved.serverInfo.name).toBe('notes');
    expect(resolved.headers).toEqual({ 'x-a': '1' });
  });

  test('refuses missing or non-object options', () => {
    for (const options of [undefined, null, 'x', 5]) {
      expect(refusal(options as never)).toBe(
        'createMcpHandler needs options: { serverInfo, tools?, resources?, prompts?, ... }',
      );
    }
  });

  test('serverInfo: name and version required, optional fields typed', () => {
    expect(refusal({})).toBe('createMcpHandler: option "serverInfo" is required: { name, version }');
    expect(refused({ serverInfo: null })).toBe(
      'createMcpHandler: option "serverInfo" is required: { name, version }',
    );
    expect(refused({ serverInfo: { version: '1' } })).toBe(
      'createMcpHandler: option "serverInfo.name" must be a non-empty string',
    );
    expect(refused({ serverInfo: { name: '', version: '1' } })).toBe(
      'createMcpHandler: option "serverInfo.name" must be a non-empty string',
    );
    expect(refused({ serverInfo: { name: 'a', version: 1 } })).toBe(
      'createMcpHandler: option "serverInfo.version" must be a non-empty string',
    );
    for (const key of ['title', 'description', 'websiteUrl']) {
      expect(refused({ serverInfo: { ...serverInfo, [key]: 5 } })).toBe(
        `createMcpHandler: option "serverInfo.${key}" must be a string`,
      );
    }
    expect(refused({ serverInfo: { ...serverInfo, icons: 'x' } })).toBe(
      'createMcpHandler: option "serverInfo.icons" must be an array',
    );
    const full = {
      ...serverInfo,
      title: 'Notes',
      description: 'd',
      websiteUrl: 'https://n.example',
      icons: [],
    };
    expect(resolve({ serverInfo: full }).serverInfo).toEqual(full);
  });

  test('instructions: a string', () => {
    expect(resolve({ instructions: 'Use search first.' }).instructions).toBe('Use search first.');
    expect(refused({ instructions: 5 })).toBe('createMcpHandler: option "instructions" must be a string');
  });

  test('tools, resources, resourceTemplates, prompts: arrays', () => {
    for (const option of ['tools', 'resources', 'resourceTemplates', 'prompts']) {
      expect(resolve({ [option]: [] })[option as 'tools']).toEqual([]);
      for (const value of [{}, 'x', null]) {
        expect(refused({ [option]: value })).toBe(`createMcpHandler: option "${option}" must be an array`);
      }
    }
  });

  test('extensions: an object', () => {
    const extensions = { 'io.example/audit': { level: 1 } };
    expect(resolve({ extensions }).extensions).toEqual(extensions);
    expect(Object.isFrozen(resolve({ extensions }).extensions)).toBe(true);
    for (const value of ['x', null, 5]) {
      expect(refused({ extensions: value })).toBe(
        'createMcpHandler: option "extensions" must be an object mapping extension ids to settings objects',
      );
    }
  });

  test('extensions: identifiers with a prefix, as MCP 2026-07-28 requires, are accepted', () => {
    const extensions = {
      'io.modelcontextprotocol/tasks': {},
      'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] },
      'com.example/audit-log': { level: 2 },
      'com.example.tools/v1.beta_2': {},
      'x/y': {},
      // The _meta rules let the name be empty; only the prefix is mandatory.
      'com.example/': {},
    };
    expect(resolve({ extensions }).extensions).toEqual(extensions);
  });

  test('extensions: an identifier without a prefix (tasks) or breaking the _meta key rules is refused, naming the rule', () => {
    const rule =
      'MCP 2026-07-28 extension identifiers follow the _meta key naming rules with a mandatory prefix, e.g. "io.modelcontextprotocol/tasks" or "com.example/audit"';
    expect(refused({ extensions: { tasks: {} } })).toBe(
      `createMcpHandler: option "extensions" has the identifier "tasks", which has no prefix (labels separated by dots, then "/"); ${rule}`,
    );
    for (const [id, problem] of [
      ['', 'has no prefix (labels separated by dots, then "/")'],
      ['io.modelcontextprotocol.tasks', 'has no prefix (labels separated by dots, then "/")'],
      ['/tasks', 'has the prefix label ""'],
      ['io..modelcontextprotocol/tasks', 'has the prefix label ""'],
      ['2io.example/tasks', 'has the prefix label "2io"'],
      ['io.example-/tasks', 'has the prefix label "example-"'],
      ['io.ex_ample/tasks', 'has the prefix label "ex_ample"'],
      ['io.example/-tasks', 'has a name (after "/")'],
      ['io.example/tasks.', 'has a name (after "/")'],
      ['io.example/ta sks', 'has a name (after "/")'],
      ['io.example/a/b', 'has a name (after "/")'],
    ] as const) {
      expect(refused({ extensions: { [id]: {} } })).toStartWith(
        `createMcpHandler: option "extensions" has the identifier ${JSON.stringify(id)}, which ${problem}`,
      );
    }
  });

  test('cache: ttlMs a non-negative integer, scope public or private', () => {
    expect(resolve({ cache: { ttlMs: 60_000, scope: 'public' } }).cache).toEqual({
      ttlMs: 60_000,
      scope: 'public',
    });
    expect(resolve({ cache: { ttlMs: 5 } }).cache).toEqual({ ttlMs: 5, scope: 'private' });
    expect(resolve({ cache: {} }).cache).toEqual({ ttlMs: 0, scope: 'private' });
    expect(refused({ cache: null })).toBe('createMcpHandler: option "cache" must be { ttlMs?, scope? }');
    expect(refused({ cache: 60 })).toBe('createMcpHandler: option "cache" must be { ttlMs?, scope? }');
    for (const ttlMs of [-1, 1.5, '60', Number.NaN]) {
      expect(refused({ cache: { ttlMs } })).toBe(
        'createMcpHandler: option "cache.ttlMs" must be a non-negative integer',
      );
    }
    expect(refused({ cache: { scope: 'shared' } })).toBe(
      'createMcpHandler: option "cache.scope" must be "public" or "private"',
    );
  });

  test('allowedOrigins: bare origins, plus "null"', () => {
    const origins = ['https://app.example', 'http://localhost:5173', 'https://[::1]:8443', 'null'];
    expect([...resolve({ allowedOrigins: origins }).allowedOrigins]).toEqual(origins);
    expect(refused({ allowedOrigins: 'https://app.example' })).toBe(
      'createMcpHandler: option "allowedOrigins" must be an array',
    );
    expect(refused({ allowedOrigins: [5] })).toBe(
      'createMcpHandler: option "allowedOrigins" must contain strings',
    );
    expect(refused({ allowedOrigins: ['app.example'] })).toBe(
      'createMcpHandler: option "allowedOrigins" entry "app.example" is not an origin',
    );
    // What an Origin header carries is the serialised origin (RFC 6454 §6.2): nothing after the port,
    // lower-case scheme and host, no default port.
    for (const entry of [
      'https://app.example/',
      'https://app.example/path',
      'https://app.example?q=1',
      'HTTPS://app.example',
      'https://APP.example',
      'https://app.example:443',
      'file:///etc',
      'data:text/plain,x',
    ]) {
      expect(refused({ allowedOrigins: [entry] })).toBe(
        `createMcpHandler: option "allowedOrigins" entry ${JSON.stringify(entry)} must be a bare origin such as "https://app.example" (no path, no trailing slash)`,
      );
    }
  });

  test('protocolVersions: a non-empty subset of the supported ones, sorted and deduplicated', () => {
    const resolved = resolve({ protocolVersions: ['2025-06-18', '2024-11-05', '2025-06-18'] });
    expect(resolved.protocolVersions).toEqual(['2024-11-05', '2025-06-18']);
    expect(Object.isFrozen(resolved.protocolVersions)).toBe(true);
    for (const value of [[], '2025-06-18', {}]) {
      expect(refused({ protocolVersions: value })).toBe(
        'createMcpHandler: option "protocolVersions" must be a non-empty array',
      );
    }
    for (const unknown of ['2025-01-01', '2026-07-29', 'latest', 5]) {
      expect(refused({ protocolVersions: ['2025-06-18', unknown] })).toBe(
        `createMcpHandler: option "protocolVersions" contains ${JSON.stringify(unknown)}; supported: ${MCP_SUPPORTED_VERSIONS.join(', ')}`,
      );
    }
  });

  test('legacyVersions: the served legacy revisions, newest first', () => {
    expect(resolve({ protocolVersions: ['2024-11-05', '2026-07-28', '2025-03-26'] }).legacyVersions).toEqual([
      '2025-03-26',
      '2024-11-05',
    ]);
    expect(resolve({ protocolVersions: ['2026-07-28'] }).legacyVersions).toEqual([]);
  });

  test('preferredProtocolVersion: 2026-07-28 when served, else the newest served; must be served', () => {
    expect(resolve({ protocolVersions: ['2025-03-26', '2025-11-25'] }).preferredProtocolVersion).toBe(
      '2025-11-25',
    );
    expect(resolve({ preferredProtocolVersion: '2025-06-18' }).preferredProtocolVersion).toBe('2025-06-18');
    expect(
      refused({ protocolVersions: ['2025-03-26', '2025-06-18'], preferredProtocolVersion: '2026-07-28' }),
    ).toBe(
      'createMcpHandler: option "preferredProtocolVersion" must be one of the served versions (2025-03-26, 2025-06-18)',
    );
    expect(refused({ preferredProtocolVersion: '2099-01-01' })).toBe(
      `createMcpHandler: option "preferredProtocolVersion" must be one of the served versions (${MCP_SUPPORTED_VERSIONS.join(', ')})`,
    );
  });

  test('maxBodyBytes, maxBatchResponseBytes, maxResourceUriLength, pageSize, requestStateTtlMs: positive integers', () => {
    const options = {
      maxBodyBytes: 1024,
      maxBatchResponseBytes: 4096,
      maxResourceUriLength: 300,
      pageSize: 2,
      requestStateTtlMs: 1000,
    } as const;
    const resolved = resolve(options);
    for (const [name, value] of Object.entries(options)) {
      expect(resolved[name as keyof typeof options]).toBe(value);
      for (const bad of [0, -1, 1.5, '10', Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53, null]) {
        expect(refused({ [name]: bad })).toBe(
          `createMcpHandler: option "${name}" must be a positive integer, got ${String(bad)}`,
        );
      }
    }
  });

  test('maxBatchSize: a non-negative integer, 0 refusing batches', () => {
    expect(resolve({ maxBatchSize: 0 }).maxBatchSize).toBe(0);
    expect(resolve({ maxBatchSize: 64 }).maxBatchSize).toBe(64);
    for (const bad of [-1, 1.5, '10', Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53, null]) {
      expect(refused({ maxBatchSize: bad })).toBe(
        `createMcpHandler: option "maxBatchSize" must be a non-negative integer, got ${String(bad)}`,
      );
    }
  });

  test('headers: an object of valid header names and values', () => {
    expect(
      resolve({ headers: { 'x-served-by': 'mcp', 'Access-Control-Allow-Origin': '*' } }).headers,
    ).toEqual({
      'x-served-by': 'mcp',
      'Access-Control-Allow-Origin': '*',
    });
    for (const value of [null, 'x-a: 1', 5]) {
      expect(refused({ headers: value })).toBe(
        'createMcpHandler: option "headers" must be an object of header values',
      );
    }
    expect(refused({ headers: { 'bad name': 'x' } })).toStartWith(
      'createMcpHandler: option "headers" is invalid: ',
    );
    expect(refused({ headers: { 'x-a': 'line\r\nx-b: injected' } })).toStartWith(
      'createMcpHandler: option "headers" is invalid: ',
    );
  });

  test('exposeInternalErrors: a boolean, kept as given', () => {
    expect(resolve({ exposeInternalErrors: true }).exposeInternalErrors).toBe(true);
    expect(resolve({ exposeInternalErrors: false }).exposeInternalErrors).toBe(false);
    for (const value of ['true', 1, null]) {
      expect(refused({ exposeInternalErrors: value })).toBe(
        'createMcpHandler: option "exposeInternalErrors" must be a boolean',
      );
    }
  });

  test('requestStatePrincipal, onError and onBatch: functions', () => {
    const principal = () => 'p';
    const onError = () => {};
    const onBatch = () => undefined;
    const resolved = resolve({ requestStatePrincipal: principal, onError, onBatch });
    expect(resolved.requestStatePrincipal).toBe(principal);
    expect(resolved.onError).toBe(onError);
    expect(resolved.onBatch).toBe(onBatch);
    for (const name of ['requestStatePrincipal', 'onError', 'onBatch']) {
      for (const value of ['x', {}, null]) {
        expect(refused({ [name]: value })).toBe(`createMcpHandler: option "${name}" must be a function`);
      }
    }
  });

  test('requestStateKey is passed through (the sealer judges its strength)', () => {
    const key = crypto.getRandomValues(new Uint8Array(32));
    expect(resolve({ requestStateKey: key }).requestStateKey).toBe(key);
  });

  test('the default onError reports to console.error with the method and the name', () => {
    const original = console.error;
    const calls: unknown[][] = [];
    console.error = (...args: unknown[]) => {
      calls.push(args);
    };
    try {
      const error = new Error('boom');
      resolve().onError(error, { method: 'tools/call', name: 'search' });
      resolve().onError(error, { method: 'prompts/list' });
      expect(calls).toEqual([
        ['[charter/mcp] unexpected error in tools/call search:', error],
        ['[charter/mcp] unexpected error in prompts/list:', error],
      ]);
    } finally {
      console.error = original;
    }
  });
});

describe('exposesInternalErrors', () => {
  const env = process.env;
  let saved: string | undefined;
  beforeEach(() => {
    saved = env.NODE_ENV;
  });
  afterEach(() => {
    if (saved === undefined) delete env.NODE_ENV;
    else env.NODE_ENV = saved;
  });

  const setNodeEnv = (value: string | undefined) => {
    if (value === undefined) delete env.NODE_ENV;
    else env.NODE_ENV = value;
  };

  test('an explicit option wins over the App and NODE_ENV', () => {
    for (const nodeEnv of ['production', 'development', undefined]) {
      setNodeEnv(nodeEnv);
      for (const app of [true, false, undefined]) {
        expect(exposesInternalErrors(resolve({ exposeInternalErrors: true }), app)).toBe(true);
        expect(exposesInternalErrors(resolve({ exposeInternalErrors: false }), app)).toBe(false);
      }
    }
  });

  test('unset: a production App always hides, whatever NODE_ENV says', () => {
    for (const nodeEnv of ['development', 'test', 'production', undefined]) {
      setNodeEnv(nodeEnv);
      expect(exposesInternalErrors(resolve(), true)).toBe(false);
    }
  });

  test('unset, outside a production App: shown only when NODE_ENV is development or test', () => {
    const table: Array<[string | undefined, boolean]> = [
      ['development', true],
      ['test', true],
      ['production', false],
      [undefined, false],
      ['', false],
      ['staging', false],
      ['Development', false],
    ];
    for (const [nodeEnv, expected] of table) {
      setNodeEnv(nodeEnv);
      expect(exposesInternalErrors(resolve(), false)).toBe(expected);
      expect(exposesInternalErrors(resolve(), undefined)).toBe(expected);
    }
  });
});
