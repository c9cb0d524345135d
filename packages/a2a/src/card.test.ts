import { describe, expect, test } from 'bun:test';
import {
  buildAgentCard,
  cardEtag,
  ifNoneMatchHits,
  isLoopbackHostname,
  productionCardUrlProblem,
} from './card.ts';

const INPUT = { name: 'a', description: 'b', url: 'https://agent.example/a2a', version: '1' };

describe('buildAgentCard', () => {
  test('emits an A2A 1.0 card with defaults and a frozen tree', () => {
    const card = buildAgentCard({
      ...INPUT,
      provider: { organization: 'Org', url: 'https://org.example' },
      extensions: [{ uri: 'https://ext.example', required: false }],
    });
    expect(card.supportedInterfaces).toEqual([
      { url: INPUT.url, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
    ]);
    expect(card.defaultInputModes).toEqual(['text/plain']);
    expect(card.skills).toEqual([]);
    expect(card.capabilities.extensions?.[0]?.uri).toBe('https://ext.example');
    expect(Object.isFrozen(card.capabilities)).toBe(true);
    expect('url' in card).toBe(false);
  });

  test('refuses a missing or bad field, naming it', () => {
    expect(() => buildAgentCard(undefined)).toThrow(/option "card" is required/);
    expect(() => buildAgentCard({ ...INPUT, name: '' })).toThrow(/card\.name/);
    expect(() => buildAgentCard({ ...INPUT, url: '/a2a' })).toThrow(/card\.url.*absolute/);
    expect(() => buildAgentCard({ ...INPUT, url: 'ftp://x.example' })).toThrow(/card\.url/);
    expect(() => buildAgentCard({ ...INPUT, url: 'https://u:p@x.example' })).toThrow(/credentials/);
    expect(() => buildAgentCard({ ...INPUT, defaultOutputModes: ['plain'] })).toThrow(/defaultOutputModes/);
    const skill = { id: 's', name: 'S', description: 'd', tags: [] };
    expect(() => buildAgentCard({ ...INPUT, skills: [skill, skill] })).toThrow(/duplicates/);
    expect(() => buildAgentCard({ ...INPUT, skills: [{ ...skill, tags: 'x' }] })).toThrow(/tags/);
    expect(() => buildAgentCard({ ...INPUT, extensions: [{ uri: '' }] })).toThrow(/extensions\[0\]/);
  });
});

describe('productionCardUrlProblem', () => {
  test('accepts a public https url and refuses http or loopback', () => {
    expect(productionCardUrlProblem('https://agent.example/a2a')).toBeUndefined();
    expect(productionCardUrlProblem('http://agent.example/a2a')).toContain('https');
    expect(productionCardUrlProblem('https://127.0.0.1/a2a')).toContain('loopback');
    expect(productionCardUrlProblem('https://localhost:8443/a2a')).toContain('loopback');
  });

  test('isLoopbackHostname knows localhost, 127/8 and ::1 only', () => {
    for (const host of [
      'localhost',
      'localhost.',
      'api.localhost',
      '127.0.0.1',
      '127.9.9.9',
      '[::1]',
      new URL('https://[::ffff:127.0.0.1]/').hostname,
    ]) {
      expect(isLoopbackHostname(host)).toBe(true);
    }
    for (const host of ['agent.example', '128.0.0.1', '127.example', '10.0.0.1']) {
      expect(isLoopbackHostname(host)).toBe(false);
    }
  });
});

describe('card caching', () => {
  test('the ETag is a strong quoted hash that changes with the content', async () => {
    const a = await cardEtag('{"a":1}');
    expect(a).toMatch(/^"[0-9a-f]{32}"$/);
    expect(await cardEtag('{"a":1}')).toBe(a);
    expect(await cardEtag('{"a":2}')).not.toBe(a);
  });

  test('If-None-Match matches weakly, in a list, or with *', () => {
    expect(ifNoneMatchHits('"x"', '"x"')).toBe(true);
    expect(ifNoneMatchHits('W/"x"', '"x"')).toBe(true);
    expect(ifNoneMatchHits('"a", "x"', '"x"')).toBe(true);
    expect(ifNoneMatchHits('*', '"x"')).toBe(true);
    expect(ifNoneMatchHits('"y"', '"x"')).toBe(false);
    expect(ifNoneMatchHits(null, '"x"')).toBe(false);
  });
});
