/**
 * A handler that breaks its response contract (issue 19): an undeclared status, a body its schema
 * refuses, a result that is no result. The client gets a 500 problem (detail in development,
 * redacted in production) and the log gets one error-level line naming the route, the status and the
 * schema issues, in both modes; a handler that keeps its contract logs nothing.
 */
import { describe, expect, test } from 'bun:test';
import { App, type Logger } from '@charter/core';
import { type } from 'arktype';

interface Line {
  readonly level: string;
  readonly message: string;
  readonly fields: Record<string, unknown> | undefined;
}

function recorder(): { logger: Logger; lines: Line[] } {
  const lines: Line[] = [];
  const at =
    (level: string) =>
    (message: string, fields?: Record<string, unknown>): void => {
      lines.push({ level, message, fields });
    };
  // Only errors are kept: production's boot warnings (proxy posture) are not what is tested here.
  const ignore = (): void => {};
  return { logger: { debug: ignore, info: ignore, warn: ignore, error: at('error') }, lines };
}

const User = type({ id: 'number.integer', name: 'string' });

function appWith(production: boolean) {
  const { logger, lines } = recorder();
  const app = new App({ production, logger, behindProxy: 'none' });
  app.get('/users/:id', { responses: { 200: { body: User }, 404: {} } }, (ctx) => {
    const id = ctx.params.id;
    if (id === 'ok') return { status: 200, body: { id: 1, name: 'Ada' } };
    if (id === 'teapot') return { status: 418 as 200, body: { id: 1, name: 'Ada' } };
    if (id === 'shape')
      return { status: 200, body: { id: 'one', name: 7 } as unknown as { id: number; name: string } };
    return 'not a result' as unknown as { status: 404 };
  });
  return { app, lines };
}

async function problemOf(response: Response): Promise<Record<string, unknown>> {
  expect(response.status).toBe(500);
  expect(response.headers.get('content-type')).toBe('application/problem+json');
  return (await response.json()) as Record<string, unknown>;
}

for (const production of [false, true]) {
  describe(`contract violations, ${production ? 'production' : 'development'}`, () => {
    test('a kept contract answers and logs nothing', async () => {
      const { app, lines } = appWith(production);
      const response = await app.request('/users/ok');
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ id: 1, name: 'Ada' });
      expect(lines.filter((line) => line.level === 'error')).toEqual([]);
    });

    test('an undeclared status: 500, and an error line with the route, the status and why', async () => {
      const { app, lines } = appWith(production);
      const problem = await problemOf(await app.request('/users/teapot'));
      if (production) expect(problem.detail).toBeUndefined();
      else expect(String(problem.detail)).toContain('returned status 418, which the route does not declare');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatchObject({
        level: 'error',
        message: 'Response contract violation',
        fields: {
          route: 'GET /users/:id',
          status: 418,
          issues: ['status 418 is not declared (declared: 200, 404)'],
        },
      });
    });

    test('a body off its schema: 500, and an error line listing each schema issue by path', async () => {
      const { app, lines } = appWith(production);
      const problem = await problemOf(await app.request('/users/shape'));
      // Production keeps the issues out of the answer only.
      expect(JSON.stringify(problem).includes('must be')).toBe(!production);
      expect(lines).toHaveLength(1);
      const fields = lines[0]?.fields as { route: string; status: number; issues: string[] };
      expect(lines[0]?.level).toBe('error');
      expect(fields.route).toBe('GET /users/:id');
      expect(fields.status).toBe(200);
      expect(fields.issues).toHaveLength(2);
      expect(fields.issues.some((issue) => issue.startsWith('id: '))).toBe(true);
      expect(fields.issues.some((issue) => issue.startsWith('name: '))).toBe(true);
    });

    test('a result that is not { status, body?, headers? }: 500 and an error line', async () => {
      const { app, lines } = appWith(production);
      await problemOf(await app.request('/users/else'));
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatchObject({
        level: 'error',
        message: 'Response contract violation',
        fields: { route: 'GET /users/:id', status: undefined },
      });
    });

    test('a header no field can carry, and an unacknowledged raw success Response: 500 and an error line', async () => {
      const { logger, lines } = recorder();
      const app = new App({ production, logger, behindProxy: 'none' });
      app.get('/h', { responses: { 200: {} } }, () => ({ status: 200, headers: { 'x-note': 'a\r\nb' } }));
      app.get('/raw', { responses: { 200: {} } }, () => new Response('raw') as never);
      await problemOf(await app.request('/h'));
      await problemOf(await app.request('/raw'));
      expect(lines.map((line) => [line.message, line.fields?.route])).toEqual([
        ['Response contract violation', 'GET /h'],
        ['Response contract violation', 'GET /raw'],
      ]);
      expect(lines[1]?.fields?.status).toBe(200);
    });

    test('an onError hook that answers does not hide the violation from the log', async () => {
      const { logger, lines } = recorder();
      const app = new App({ production, logger, behindProxy: 'none' });
      app.get(
        '/x',
        {
          responses: { 200: { body: User } },
          hooks: { onError: () => new Response('handled', { status: 503 }) },
        },
        () => ({ status: 201 as 200, body: { id: 1, name: 'Ada' } }),
      );
      const response = await app.request('/x');
      expect(response.status).toBe(503);
      expect(lines.map((line) => [line.level, line.message])).toEqual([
        ['error', 'Response contract violation'],
      ]);
    });
  });
}
