/**
 * The tool-server module's constants, as https://charter.dev/docs/tool-server lists them; the
 * versions are the MCP revisions 2024-11-05 through 2026-07-28 (https://modelcontextprotocol.io/specification/versioning).
 */

/** The newest protocol revision this module speaks, and the default preferred one. */
export const MCP_PROTOCOL_VERSION = '2026-07-28';

/** The first revision of the modern (stateless, per-request `_meta`) era. */
export const MCP_MODERN_MIN_VERSION = '2026-07-28';

/** Every revision this module serves, oldest first. Revisions are dates: string order is time order. */
export const MCP_SUPPORTED_VERSIONS: readonly string[] = Object.freeze([
  '2024-11-05',
  '2025-03-26',
  '2025-06-18',
  '2025-11-25',
  '2026-07-28',
]);

/**
 * The revision assumed for a legacy request without `MCP-Protocol-Version` (Streamable HTTP
 * transport, 2025-06-18 §"Protocol Version Header": "SHOULD assume 2025-03-26").
 */
export const MCP_DEFAULT_LEGACY_VERSION = '2025-03-26';

/** Default cap of a request body, in bytes. */
export const MCP_DEFAULT_MAX_BODY_BYTES = 262_144;

/**
 * Default cap of the messages in one JSON-RPC batch (2025-03-26 only). Each message is a call the
 * server runs for the price of one HTTP request, so the cap bounds what one request can cost.
 */
export const MCP_DEFAULT_MAX_BATCH_SIZE = 16;

/** Default cap of the answers of one batch, together, in bytes of JSON (1 MiB). */
export const MCP_DEFAULT_MAX_BATCH_RESPONSE_BYTES = 1_048_576;

/** Longest `requestState` accepted back from a client, in characters. */
export const MCP_MAX_REQUEST_STATE_LENGTH = 8192;

/** Default longest URI `resources/read` accepts, in characters. */
export const MCP_DEFAULT_MAX_RESOURCE_URI_LENGTH = 8192;

/** The reserved `_meta` prefix of the protocol's own keys (2026-07-28 "_meta"). */
export const MCP_META_PREFIX = 'io.modelcontextprotocol/';

/** The protocol's `_meta` keys. */
export const MCP_META_KEYS = Object.freeze({
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  clientInfo: 'io.modelcontextprotocol/clientInfo',
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  logLevel: 'io.modelcontextprotocol/logLevel',
  serverInfo: 'io.modelcontextprotocol/serverInfo',
} as const);

/** The discovery methods: what a client calls to learn the server (methodAuth's default set). */
export const MCP_DISCOVERY_METHODS: readonly string[] = Object.freeze([
  'server/discover',
  'tools/list',
  'resources/list',
  'resources/templates/list',
  'prompts/list',
]);

/**
 * JSON-RPC error codes the module answers with: the JSON-RPC 2.0 ones, the legacy resource-not-found
 * code (2025-11-25 and older) and the three the 2026-07-28 revision allocates.
 */
export const MCP_ERROR_CODES = Object.freeze({
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internalError: -32603,
  /** Legacy only: a resource that does not exist. The modern era uses -32602. */
  resourceNotFound: -32002,
  /**
   * Batches only (2025-03-26): this member was not run because the batch's answers reached
   * `maxBatchResponseBytes`. JSON-RPC 2.0 §5.1 leaves -32000 to -32099 to implementations; -32000
   * is in the range the 2026-07-28 allocation policy keeps for legacy and implementation codes.
   */
  batchBudgetExhausted: -32000,
  /** A mirrored header is missing or disagrees with the body. */
  headerMismatch: -32020,
  /** The request needs a client capability it did not declare. */
  missingRequiredClientCapability: -32021,
  /** The requested protocol revision is not served. */
  unsupportedProtocolVersion: -32022,
} as const);

/** RFC 5424 severities as MCP names them, least severe first. */
export const MCP_LOG_LEVELS: readonly string[] = Object.freeze([
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
]);
