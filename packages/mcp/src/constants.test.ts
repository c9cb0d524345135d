import { describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  MCP_DEFAULT_MAX_BODY_BYTES,
  MCP_DEFAULT_MAX_RESOURCE_URI_LENGTH,
  MCP_DISCOVERY_METHODS,
  MCP_ERROR_CODES,
  MCP_MAX_REQUEST_STATE_LENGTH,
  MCP_META_KEYS,
  MCP_MODERN_MIN_VERSION,
  MCP_PROTOCOL_VERSION,
  MCP_SUPPORTED_VERSIONS,
} from './constants.ts';
import { isModernProtocolVersion } from './era.ts';
import { MCP_UNENFORCED_KEYWORDS } from './input-schema.ts';

describe('tool-server constants (framework.md "Tool-server module (MCP)")', () => {
  test('are exactly the values the spec lists', () => {
    expect(MCP_PROTOCOL_VERSION).toBe('2026-07-28');
    expect(MCP_MODERN_MIN_VERSION).toBe('2026-07-28');
    expect(MCP_SUPPORTED_VERSIONS).toEqual([
      '2024-11-05',
      '2025-03-26',
      '2025-06-18',
      '2025-11-25',
      '2026-07-28',
    ]);
    expect(MCP_DEFAULT_MAX_BODY_BYTES).toBe(262144);
    expect(MCP_MAX_REQUEST_STATE_LENGTH).toBe(8192);
    expect(MCP_DEFAULT_MAX_RESOURCE_URI_LENGTH).toBe(8192);
    expect(MCP_META_KEYS).toEqual({
      protocolVersion: 'io.modelcontextprotocol/protocolVersion',
      clientInfo: 'io.modelcontextprotocol/clientInfo',
      clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
      logLevel: 'io.modelcontextprotocol/logLevel',
      serverInfo: 'io.modelcontextprotocol/serverInfo',
    });
    expect(MCP_DISCOVERY_METHODS).toEqual([
      'server/discover',
      'tools/list',
      'resources/list',
      'resources/templates/list',
      'prompts/list',
    ]);
    expect(MCP_ERROR_CODES).toMatchObject({
      headerMismatch: -32020,
      missingRequiredClientCapability: -32021,
      unsupportedProtocolVersion: -32022,
    });
    expect(Object.isFrozen(MCP_SUPPORTED_VERSIONS)).toBe(true);
  });

  test('isModernProtocolVersion: 2026-07-28 and later revisions are modern', () => {
    expect(isModernProtocolVersion('2026-07-28')).toBe(true);
    expect(isModernProtocolVersion('2027-01-01')).toBe(true);
  });

  test('isModernProtocolVersion: earlier revisions and strings that are not revisions are not', () => {
    for (const version of ['2025-11-25', '2024-11-05', 'latest', 'zzzz-99-99', '2026-7-28', '']) {
      expect(isModernProtocolVersion(version)).toBe(false);
    }
  });

  test('the docs page names every keyword the input validation advertises without enforcing', () => {
    const page = readFileSync(join(import.meta.dir, '../../../content/docs/tool-server.md'), 'utf8');
    const missing = MCP_UNENFORCED_KEYWORDS.filter((keyword) => !page.includes(`\`${keyword}\``));
    expect(missing).toEqual([]);
  });
});
