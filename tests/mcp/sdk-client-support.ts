/**
 * The official v1 SDK client as the session tests use it, and a dropped POST stream for the
 * resumption tests: shared by tests/mcp/session-sdk.test.ts and tests/scaling/mcp-instances.test.ts.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';

/**
 * A client that declares sampling, elicitation and roots and answers each: the model says "from the
 * sdk", the user accepts with `elicitedName`, the one root is `rootUri`.
 */
export function answeringClient(name: string, elicitedName: string, rootUri: string): Client {
  const client = new Client(
    { name, version: '1.0.0' },
    { capabilities: { sampling: {}, elicitation: {}, roots: { listChanged: false } } },
  );
  client.setRequestHandler(CreateMessageRequestSchema, async () => ({
    role: 'assistant',
    content: { type: 'text', text: 'from the sdk' },
    model: 'test-model',
    stopReason: 'endTurn',
  }));
  client.setRequestHandler(ElicitRequestSchema, async () => ({
    action: 'accept',
    content: { name: elicitedName },
  }));
  client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: [{ uri: rootUri }] }));
  return client;
}

/**
 * `response` with its event stream passed through until its first event with an id, then failed as
 * a dropped connection would fail it.
 */
export function cutAfterFirstEvent(response: Response): Response {
  if (response.body === null) return response;
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let passed = '';
  const broken = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (/(^|\n)id: /.test(passed) && passed.includes('\n\n')) {
        await reader.cancel();
        controller.error(new TypeError('connection dropped'));
        return;
      }
      const chunk = await reader.read();
      if (chunk.done) return controller.close();
      passed += decoder.decode(chunk.value, { stream: true });
      controller.enqueue(chunk.value);
    },
  });
  return new Response(broken, { status: response.status, headers: response.headers });
}
