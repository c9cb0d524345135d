/**
 * Step 6 of the handler: one JSON-RPC message, alone or as a member of a batch (MCP 2025-11-25
 * "Transports" §Sending Messages). Malformed messages answer -32600; notifications and a client's
 * responses need no answer (the transport acknowledges them with 202); requests go on to their era
 * and method (`dispatch.ts`).
 */
import { type ClassifiedMessage, JSON_RPC_ERROR_CODES, jsonRpcError } from '@charter/json-rpc';
import { MCP_META_KEYS } from './constants.ts';
import { type Answer, type RequestFrame, serveRequest } from './dispatch.ts';
import { requestMeta } from './era.ts';

const NOTIFICATION_PREFIX = 'notifications/';

/** The answer to one classified message, or undefined when it needs none. */
export async function serveMessage(
  frame: RequestFrame,
  classified: ClassifiedMessage,
  batch: boolean,
): Promise<Answer | undefined> {
  switch (classified.kind) {
    case 'invalid':
      return {
        status: 400,
        body: jsonRpcError(
          classified.id,
          classified.error.code,
          classified.error.message,
          classified.error.data,
        ),
      };
    case 'response':
    case 'notification':
      // Nothing to answer: the transport acknowledges with 202 (2025-11-25 §Sending Messages, 4).
      return undefined;
    case 'request': {
      const { message } = classified;
      if (message.method.startsWith(NOTIFICATION_PREFIX)) {
        return {
          status: 400,
          body: jsonRpcError(
            message.id,
            JSON_RPC_ERROR_CODES.invalidRequest,
            `Invalid Request: ${message.method.slice(0, 100)} is a notification and must not carry an id`,
          ),
        };
      }
      if (batch && message.method === 'initialize') {
        return {
          status: 400,
          body: jsonRpcError(
            message.id,
            JSON_RPC_ERROR_CODES.invalidRequest,
            'Invalid Request: initialize must not be part of a batch',
          ),
        };
      }
      if (batch && requestMeta(message.params)?.[MCP_META_KEYS.protocolVersion] !== undefined) {
        return {
          status: 400,
          body: jsonRpcError(
            message.id,
            JSON_RPC_ERROR_CODES.invalidRequest,
            'Invalid Request: a 2026-07-28 request cannot be part of a batch',
          ),
        };
      }
      return serveRequest(frame, message, batch ? 'legacy' : undefined);
    }
  }
}
