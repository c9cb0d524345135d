/**
 * Lifecycle and utility methods. Legacy era (MCP 2025-11-25 "Lifecycle", "Utilities"): `initialize`
 * with version negotiation, `ping`, `logging/setLevel`. Modern era (2026-07-28 "Discovery"):
 * `server/discover`, which replaces the handshake.
 */
import { serverCapabilities } from '../catalog.ts';
import { MCP_LOG_LEVELS } from '../constants.ts';
import { type McpCall, type MethodResult, invalidParams, isRecord } from '../server.ts';

/**
 * `initialize`: echo the requested revision when it is a served legacy one; otherwise offer the
 * newest served legacy revision and let the client decide (2025-11-25 "Lifecycle" §Version
 * Negotiation). A modern revision is never offered here: the handshake does not exist there.
 */
export function initialize(call: McpCall): MethodResult {
  const { options } = call.server;
  const requested = call.params.protocolVersion;
  if (typeof requested !== 'string' || requested.length === 0) {
    throw invalidParams('initialize needs params.protocolVersion (a revision string such as "2025-11-25")');
  }
  if (call.params.capabilities !== undefined && !isRecord(call.params.capabilities)) {
    throw invalidParams('initialize params.capabilities must be an object');
  }
  const newestLegacy = options.legacyVersions[0];
  if (newestLegacy === undefined) {
    throw invalidParams('This server serves only the stateless 2026-07-28 era: no initialize handshake', {
      supported: options.protocolVersions,
      requested,
    });
  }
  const protocolVersion = options.legacyVersions.includes(requested) ? requested : newestLegacy;
  const result: Record<string, unknown> = {
    protocolVersion,
    capabilities: serverCapabilities(call.server.catalog, options, 'legacy'),
    serverInfo: options.serverInfo,
  };
  if (options.instructions !== undefined) result.instructions = options.instructions;
  return { result };
}

/** `ping`: an empty result, promptly. */
export function ping(): MethodResult {
  return { result: {} };
}

/**
 * `logging/setLevel`: checks the level (RFC 5424 names) and accepts it. This handler keeps no
 * session and answers with JSON, so there is no stream to send `notifications/message` on: the
 * level is accepted and no log notifications follow.
 */
export async function setLogLevel(call: McpCall): Promise<MethodResult> {
  const level = call.params.level;
  if (typeof level !== 'string' || !MCP_LOG_LEVELS.includes(level)) {
    throw invalidParams(`params.level must be one of ${MCP_LOG_LEVELS.join(', ')}`);
  }
  // Inside a session the level is remembered: later requests of the session log from it up.
  if (call.session !== undefined && call.server.sessions !== undefined)
    await call.server.sessions.update(call.session, { logLevel: level });
  return { result: {} };
}

/** `server/discover`: the revisions served (newest first), the capabilities and the instructions. */
export function discover(call: McpCall): MethodResult {
  const { options } = call.server;
  const result: Record<string, unknown> = {
    supportedVersions: [...options.protocolVersions].reverse(),
    capabilities: serverCapabilities(call.server.catalog, options, 'modern'),
  };
  if (options.instructions !== undefined) result.instructions = options.instructions;
  return { result, cacheable: true };
}
