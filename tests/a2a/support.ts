/**
 * A Charter App serving an A2A agent on a loopback port (Bun adapter), shared by the server suites:
 * bearer authentication (`Bearer alice` / `Bearer bob` are the two callers, `Bearer nobody` has no
 * subject), a memory task store
 * scoped by the authenticated subject, and an agent whose answers depend on the message text.
 */
import { a2aRoutes, createA2aHandler, memoryTaskStore } from '@charter/a2a';
import { type BunServer, serve } from '@charter/bun';
import { App, bearer } from '@charter/core';

export interface AgentServer {
  readonly server: BunServer;
  /** Origin of the server, e.g. `http://127.0.0.1:40001`. */
  readonly base: string;
  /** The JSON-RPC endpoint. */
  readonly rpcUrl: string;
  /** Background releases of `slow` messages, by task id order. */
  readonly releases: Array<(text: string) => void>;
}

/** Starts the app; the card url needs the port, so the routes are registered once it is known. */
export async function startAgentServer(): Promise<AgentServer> {
  const app = new App({ logger: false });
  const server = await serve(app, { port: 0, signals: false });
  const base = server.url.replace(/\/$/, '');
  const releases: Array<(text: string) => void> = [];
  const agent = createA2aHandler({
    card: {
      name: 'echo-agent',
      description: 'Echoes text, asks for more when told to',
      url: `${base}/a2a`,
      version: '1.0.0',
      skills: [{ id: 'echo', name: 'Echo', description: 'Repeats the message', tags: ['test'] }],
    },
    taskStore: memoryTaskStore(),
    taskOwner: (host) => host.state?.user?.sub,
    allowedOrigins: ['https://app.example'],
    maxBodyBytes: 4096,
    exposeInternalErrors: false,
    onError: () => {},
    onMessage: (ctx) => {
      if (ctx.text === 'hello') return 'hi there';
      if (ctx.text === 'order pizza') return { status: 'input-required', message: 'Which size?' };
      if (ctx.text === 'slow') return new Promise<string>((resolve) => releases.push(resolve));
      if (ctx.text === 'boom') throw new Error('secret detail');
      const asked = ctx.task?.status.message !== undefined;
      return {
        status: 'completed',
        artifacts: [{ name: asked ? 'order' : 'echo', parts: `echo: ${ctx.text}` }],
      };
    },
  });
  const auth = bearer({
    // `nobody` authenticates without a subject: the task owner stays unresolved.
    verify: (token) => (token === 'alice' || token === 'bob' ? { sub: token } : token === 'nobody'),
  });
  app.registerRoutes(a2aRoutes('/a2a', agent, { hooks: auth }));
  return { server, base, rpcUrl: `${base}/a2a`, releases };
}
