import { describe, expect, test } from 'bun:test';
import { App } from '@charter/core';
import * as z from 'zod';
import { generateOpenAPI } from './generate.ts';
import type { Operation } from './types.ts';

const info = { title: 'Also sent as', version: '1.0.0' };

function operationFor(responses: Record<string, unknown>): Operation {
  const app = new App({ logger: false });
  app.route({ method: 'POST', path: '/rpc', responses, handler: () => new Response(null) } as never);
  const doc = generateOpenAPI(app, { info });
  return (doc.paths['/rpc'] as Record<string, Operation>).post as Operation;
}

describe('ResponseSpec.alsoSentAs: the other media types of one status', () => {
  test('a text type without a schema is listed beside the declared type as a string', () => {
    const op = operationFor({
      200: { contentType: 'application/json', alsoSentAs: { 'text/event-stream': {} } },
    });
    expect(Object.keys(op.responses['200']?.content ?? {})).toEqual([
      'application/json',
      'text/event-stream',
    ]);
    expect(op.responses['200']?.content?.['text/event-stream']).toEqual({ schema: { type: 'string' } });
  });

  test('application/problem+json without a schema is the problem document (RFC 9457)', () => {
    const op = operationFor({
      404: { contentType: 'application/json', alsoSentAs: { 'application/problem+json': {} } },
    });
    expect(op.responses['404']?.content?.['application/problem+json']).toEqual({
      schema: { $ref: '#/components/schemas/ProblemDetails' },
    });
  });

  test('a given schema is converted like a body schema', () => {
    const op = operationFor({
      200: {
        body: z.object({ id: z.number() }),
        alsoSentAs: { 'application/x-ndjson': { schema: z.object({ line: z.string() }) } },
      },
    });
    const ndjson = op.responses['200']?.content?.['application/x-ndjson']?.schema as Record<string, any>;
    expect(ndjson.type).toBe('object');
    expect(ndjson.properties.line).toEqual({ type: 'string' });
    expect(op.responses['200']?.content?.['application/json']).toBeDefined();
  });

  test('without alsoSentAs a status lists only its declared type (the bad path: nothing is invented)', () => {
    const op = operationFor({ 200: { contentType: 'application/json' } });
    expect(Object.keys(op.responses['200']?.content ?? {})).toEqual(['application/json']);
  });

  test('the declared type wins when alsoSentAs names it again', () => {
    const op = operationFor({
      200: { contentType: 'text/event-stream', alsoSentAs: { 'text/event-stream': { schema: z.number() } } },
    });
    expect(op.responses['200']?.content?.['text/event-stream']).toEqual({ schema: { type: 'string' } });
  });
});
