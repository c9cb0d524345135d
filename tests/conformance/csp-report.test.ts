import { describe, expect, test } from 'bun:test';
import { App, type CspViolation, type Logger } from '@charter/core';
import { expectProblem } from './support/problem.ts';

function reportApp(options: Parameters<App['cspReportRoute']>[0] = {}) {
  const warnings: Array<{ message: string; fields?: Record<string, unknown> }> = [];
  const logger: Logger = {
    debug() {},
    info() {},
    warn: (message, fields) => void warnings.push({ message, fields }),
    error() {},
  };
  const received: CspViolation[] = [];
  const app = new App({ logger });
  app.cspReportRoute({ onReport: (v) => void received.push(v), ...options });
  return { app, warnings, received };
}

const legacy = {
  'csp-report': {
    'document-uri': 'https://app.example/page',
    'violated-directive': "script-src-elem 'self'",
    'effective-directive': 'script-src-elem',
    'blocked-uri': 'https://evil.example/x.js',
    'line-number': 12,
    'column-number': 4,
    disposition: 'enforce',
  },
};

const reportingApi = [
  {
    type: 'csp-violation',
    age: 10,
    url: 'https://app.example/page',
    body: {
      documentURL: 'https://app.example/page',
      effectiveDirective: 'img-src',
      blockedURL: 'https://tracker.example/p.gif',
      disposition: 'report',
      statusCode: 200,
    },
  },
  { type: 'deprecation', url: 'https://app.example/page', body: { id: 'x' } },
];

const post = (app: App, body: string, contentType: string, headers: Record<string, string> = {}) =>
  app.request('/csp-report', { method: 'POST', headers: { 'content-type': contentType, ...headers }, body });

describe('cspReportRoute', () => {
  test('accepts a report-uri report (application/csp-report), logs it and answers 204', async () => {
    const { app, warnings, received } = reportApp();
    const response = await post(app, JSON.stringify(legacy), 'application/csp-report');
    expect(response.status).toBe(204);
    expect(await response.text()).toBe('');
    const expected = {
      documentUrl: 'https://app.example/page',
      directive: 'script-src-elem',
      blockedUrl: 'https://evil.example/x.js',
      line: 12,
      column: 4,
      disposition: 'enforce',
    };
    expect(received).toEqual([expected]);
    expect(warnings).toEqual([{ message: 'CSP violation', fields: expected }]);
  });

  test('accepts a Reporting API batch (application/reports+json), keeping only CSP violations', async () => {
    const { app, received } = reportApp();
    const response = await post(app, JSON.stringify(reportingApi), 'application/reports+json');
    expect(response.status).toBe(204);
    expect(received).toEqual([
      {
        documentUrl: 'https://app.example/page',
        directive: 'img-src',
        blockedUrl: 'https://tracker.example/p.gif',
        disposition: 'report',
        statusCode: 200,
      },
    ]);
  });

  test('a report posted cross-site by a browser is accepted (the cross-origin guard admits it)', async () => {
    const { app } = reportApp();
    const response = await post(app, JSON.stringify(legacy), 'application/csp-report', {
      'sec-fetch-site': 'cross-site',
      origin: 'https://app.example',
    });
    expect(response.status).toBe(204);
  });

  test('long strings are cut at 512 characters', async () => {
    const { app, received } = reportApp();
    const long = { 'csp-report': { 'blocked-uri': `https://x.example/${'a'.repeat(2000)}` } };
    expect((await post(app, JSON.stringify(long), 'application/csp-report')).status).toBe(204);
    expect(received[0]?.blockedUrl).toHaveLength(512);
  });

  test('refuses another media type with 415', async () => {
    const { app, received } = reportApp();
    await expectProblem(await post(app, JSON.stringify(legacy), 'text/plain'), 415, 'unsupported-media-type');
    expect(received).toEqual([]);
  });

  test('refuses a body over maxBodyBytes with 413', async () => {
    const { app } = reportApp({ maxBodyBytes: 100 });
    await expectProblem(
      await post(app, JSON.stringify(legacy), 'application/csp-report'),
      413,
      'payload-too-large',
    );
  });

  test('refuses malformed JSON and bodies that are not reports with 400', async () => {
    const { app, received } = reportApp();
    await expectProblem(await post(app, '{"csp-report":', 'application/csp-report'), 400, 'bad-request');
    await expectProblem(await post(app, '{"hello":1}', 'application/csp-report'), 400, 'bad-request');
    await expectProblem(
      await post(app, '[{"type":"csp-violation"}]', 'application/reports+json'),
      400,
      'bad-request',
    );
    await expectProblem(
      await post(app, '{"csp-report":{"__proto__":{"x":1}}}', 'application/csp-report'),
      400,
      'bad-request',
    );
    expect(received).toEqual([]);
  });

  test('logs at most maxLoggedPerMinute violations, still counting the rest', async () => {
    const { app, warnings, received } = reportApp({ maxLoggedPerMinute: 2 });
    for (let i = 0; i < 5; i++) {
      expect((await post(app, JSON.stringify(legacy), 'application/csp-report')).status).toBe(204);
    }
    expect(received).toHaveLength(5);
    expect(warnings.filter((w) => w.message === 'CSP violation')).toHaveLength(2);
  });

  test('the path is configurable and invalid options throw', async () => {
    const { app } = reportApp({ path: '/reports/csp' });
    const response = await app.request('/reports/csp', {
      method: 'POST',
      headers: { 'content-type': 'application/csp-report' },
      body: JSON.stringify(legacy),
    });
    expect(response.status).toBe(204);
    expect(() => new App({ logger: false }).cspReportRoute({ maxBodyBytes: 0 })).toThrow(/maxBodyBytes/);
  });
});
