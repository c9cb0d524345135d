import { describe, expect, test } from 'bun:test';
import { type } from 'arktype';
import fc from 'fast-check';
import { App } from '../app/index.ts';
import { resolveWafOptions, type WafMatch, type WafOptions, waf } from './waf.ts';
import { DEFAULT_WAF_RULES, normaliseWafText } from './waf-rules.ts';

const Ok = type({ ok: 'boolean' });
const AnyBody = type({ '[string]': 'unknown' });

function buildApp(options?: WafOptions): App {
  const app = new App({ logger: false });
  app.use(waf(options));
  app.get('/search', { responses: { 200: { body: Ok } } }, () => ({
    status: 200 as const,
    body: { ok: true },
  }));
  app.get('/files/*path', { responses: { 200: { body: Ok } } }, () => ({
    status: 200 as const,
    body: { ok: true },
  }));
  app.post('/comments', { request: { body: AnyBody }, responses: { 200: { body: Ok } } }, () => ({
    status: 200 as const,
    body: { ok: true },
  }));
  return app;
}

const search = (q: string) => `/search?q=${encodeURIComponent(q)}`;
const post = (body: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(body),
});

async function expectPass(res: Response): Promise<void> {
  expect(res.status).toBe(200);
  expect(await res.json()).toEqual({ ok: true });
}

async function expectBlocked(res: Response, rule: string, payload?: string): Promise<void> {
  const text = await res.text();
  expect([res.status, text]).toEqual([403, expect.any(String)]);
  expect(res.headers.get('content-type')).toBe('application/problem+json');
  const problem = JSON.parse(text) as Record<string, unknown>;
  expect(problem.type).toBe('https://charter.dev/errors/forbidden');
  expect(problem.status).toBe(403);
  expect(problem.rule).toBe(rule);
  expect(problem.detail).toBe(`The request was blocked by the web application firewall (rule ${rule}).`);
  if (payload !== undefined) expect(text.toLowerCase()).not.toContain(payload.toLowerCase());
}

describe('waf: normalisation', () => {
  test('lower-cases, percent-decodes at most twice and collapses whitespace', () => {
    expect(normaliseWafText('UNION%20%0A%09Select')).toBe('union select');
    expect(normaliseWafText('%253Cscript%253E')).toBe('<script>');
    expect(normaliseWafText('%25253C')).toBe('%3c');
    expect(normaliseWafText('a%00b')).toBe('a\0b');
    expect(normaliseWafText('100% sure %zz %')).toBe('100% sure %zz %');
    expect(normaliseWafText('caf%C3%A9')).toBe('café');
  });
});

describe('waf: path traversal', () => {
  test('lets ordinary paths and values through', async () => {
    const app = buildApp();
    await expectPass(await app.request('/files/reports/2024/q1.pdf'));
    await expectPass(await app.request(search('a..b and ... and v1.2..v1.3')));
    await expectPass(await app.request('/comments', post({ text: 'see [the guide](../guide.md)' })));
  });

  test('blocks ../ and ..\\ in the query', async () => {
    const app = buildApp();
    await expectBlocked(await app.request('/search?q=../../etc/hosts'), 'traversal-dot-dot', '../');
    await expectBlocked(await app.request('/search?q=..\\..\\boot'), 'traversal-dot-dot');
    await expectBlocked(await app.request('/search?q=a/..'), 'traversal-dot-dot');
    await expectBlocked(await app.request('/search?q=%2e%2e%2fsecret'), 'traversal-encoded');
    await expectBlocked(await app.request('/search?q=%252e%252e%252fsecret'), 'traversal-encoded');
  });

  test('blocks encoded and double-encoded dots in the path', async () => {
    const app = buildApp();
    await expectBlocked(await app.request('/files/%252e%252e/%252e%252e/etc'), 'traversal-encoded', '%252e');
    await expectBlocked(await app.request('/files/..%2fsecret'), 'traversal-encoded');
    await expectBlocked(await app.request('/files/%c0%ae%c0%ae/x'), 'traversal-encoded');
  });

  test('blocks null bytes in the query and in the body', async () => {
    const app = buildApp();
    await expectBlocked(await app.request('/search?file=report.pdf%00.jpg'), 'traversal-null-byte');
    await expectBlocked(await app.request('/comments', post({ name: 'a\u0000b' })), 'traversal-null-byte');
  });

  test('blocks well-known sensitive files', async () => {
    await expectBlocked(await buildApp().request(search('/etc/passwd')), 'traversal-sensitive-file');
  });
});

describe('waf: SQL injection', () => {
  test('lets prose with SQL words and apostrophes through', async () => {
    const app = buildApp();
    const prose = [
      "O'Brien",
      'Please select the best option',
      'the union of sets A and B',
      "rock 'n' roll",
      "Tom's or Jerry's",
      "It's 'yes' or 'no'",
      'I need sleep (8 hours) tonight',
      "use the '--verbose' flag",
      'done; drop me a line',
      'sales and marketing = growth',
      'update the set; delete from the list later',
    ];
    for (const text of prose) await expectPass(await app.request(search(text)));
    await expectPass(await app.request('/comments', post({ text: prose.join(' ') })));
  });

  test('blocks tautologies', async () => {
    const app = buildApp();
    for (const probe of [
      "1' or '1'='1",
      "' OR 1=1--",
      'x" or "a"="a',
      "') or ('x'='x",
      '1 OR 2=2',
      "admin' or true--",
    ]) {
      await expectBlocked(await app.request(search(probe)), 'sqli-tautology', probe);
    }
    await expectBlocked(await app.request(search("'or'1'='1")), 'sqli-tautology');
  });

  test('blocks union select, also split by comments', async () => {
    const app = buildApp();
    await expectBlocked(await app.request(search('1 UNION SELECT password FROM users')), 'sqli-union-select');
    await expectBlocked(await app.request(search('1 union all select 1,2')), 'sqli-union-select');
    await expectBlocked(await app.request(search('1/**/UNION/**/SELECT/**/1')), 'sqli-union-select');
  });

  test('blocks stacked queries', async () => {
    const app = buildApp();
    await expectBlocked(await app.request(search("1'; DROP TABLE users")), 'sqli-stacked-query');
    await expectBlocked(await app.request(search('1; truncate table logs')), 'sqli-stacked-query');
    await expectBlocked(await app.request(search('1; exec xp_cmdshell')), 'sqli-stacked-query');
  });

  test('blocks time-based probes', async () => {
    const app = buildApp();
    await expectBlocked(await app.request(search('1 AND SLEEP(5)')), 'sqli-time-delay');
    await expectBlocked(await app.request(search('1; SELECT pg_sleep(10)')), 'sqli-time-delay');
    await expectBlocked(await app.request(search('benchmark(1000000,md5(1))')), 'sqli-time-delay');
    await expectBlocked(await app.request(search("1'; waitfor delay '0:0:5'--")), 'sqli-time-delay');
  });

  test('blocks a quote followed by a comment', async () => {
    const app = buildApp();
    await expectBlocked(await app.request(search("admin'--")), 'sqli-comment-after-quote');
    await expectBlocked(await app.request(search("admin' #")), 'sqli-comment-after-quote');
    await expectBlocked(await app.request(search('x")/*')), 'sqli-comment-after-quote');
  });

  test('blocks schema probes, in the body too', async () => {
    const app = buildApp();
    await expectBlocked(await app.request(search('select @@version')), 'sqli-schema-probe');
    await expectBlocked(
      await app.request('/comments', post({ q: 'x from information_schema.tables' })),
      'sqli-schema-probe',
    );
  });
});

describe('waf: XSS', () => {
  test('lets prose and harmless markup through', async () => {
    const app = buildApp();
    const prose = [
      'I like JavaScript: it is great',
      'on the one hand, online = fine',
      'a <b>bold</b> <em>claim</em>',
      'describe <scripting> in 3 < 4 terms',
      'the dragon = onion',
    ];
    for (const text of prose) await expectPass(await app.request(search(text)));
    await expectPass(await app.request('/comments', post({ html: prose.join(' ') })));
  });

  test('blocks script tags, also double-encoded', async () => {
    const app = buildApp();
    await expectBlocked(await app.request(search('<script>alert(1)</script>')), 'xss-script-tag', '<script');
    await expectBlocked(await app.request('/search?q=%253Cscript%253Ealert(1)'), 'xss-script-tag');
    await expectBlocked(
      await app.request('/comments', post({ a: { b: ['<SCRIPT src=//x>'] } })),
      'xss-script-tag',
    );
  });

  test('blocks event handlers, dangerous tags and script URLs', async () => {
    const app = buildApp();
    await expectBlocked(await app.request(search('<svg onload=alert(1)>')), 'xss-event-handler');
    await expectBlocked(await app.request(search('<img src=x onerror = alert(1)>')), 'xss-event-handler');
    await expectBlocked(await app.request(search('" onmouseover="alert(1)')), 'xss-event-handler');
    await expectBlocked(await app.request(search('<iframe src=//evil>')), 'xss-dangerous-tag');
    await expectBlocked(await app.request(search('<object data=x>')), 'xss-dangerous-tag');
    await expectBlocked(await app.request(search('javascript:alert(1)')), 'xss-script-url');
    await expectBlocked(await app.request(search('data:text/html;base64,PHNjcmlwdD4=')), 'xss-script-url');
  });
});

describe('waf: scanner user agents', () => {
  test('lets browsers and ordinary clients through', async () => {
    const app = buildApp();
    for (const agent of [
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/126.0 Safari/537.36',
      'curl/8.5.0',
      'python-requests/2.32',
    ]) {
      await expectPass(await app.request('/search?q=x', { headers: { 'user-agent': agent } }));
    }
  });

  test('blocks known scanners', async () => {
    const app = buildApp();
    for (const agent of [
      'sqlmap/1.7.2#stable (https://sqlmap.org)',
      'Mozilla/5.00 (Nikto/2.1.6)',
      'gobuster/3.6',
      'Nuclei - Open-source project',
    ]) {
      await expectBlocked(
        await app.request('/search', { headers: { 'user-agent': agent } }),
        'scanner-user-agent',
      );
    }
  });
});

describe('waf: body scanning', () => {
  test('names the body path of a match in onMatch, and never the payload', async () => {
    const matches: WafMatch[] = [];
    const app = buildApp({ onMatch: (m) => void matches.push(m) });
    const res = await app.request('/comments', post({ post: { tags: ['ok', "1' or '1'='1"] } }));
    await expectBlocked(res, 'sqli-tautology');
    expect(matches).toEqual([
      {
        rule: 'sqli-tautology',
        group: 'sqli',
        where: 'body',
        field: 'post.tags.1',
        method: 'POST',
        path: '/comments',
        blocked: true,
      },
    ]);
  });

  test('checks object keys too', async () => {
    await expectBlocked(await buildApp().request('/comments', post({ '<script>': 1 })), 'xss-script-tag');
  });

  test('refuses a body deeper than maxBodyDepth or longer than maxBodyChars', async () => {
    const app = buildApp({ maxBodyDepth: 4, maxBodyChars: 100 });
    await expectPass(await app.request('/comments', post({ a: { b: { c: 'x' } } })));
    await expectBlocked(
      await app.request('/comments', post({ a: { b: { c: { d: { e: 1 } } } } })),
      'body-scan-limit',
    );
    await expectBlocked(await app.request('/comments', post({ a: 'x'.repeat(101) })), 'body-scan-limit');
  });

  test('lets an oversized body through when body-scan-limit is disabled', async () => {
    const app = buildApp({ maxBodyChars: 10, disable: ['limits'] });
    await expectPass(await app.request('/comments', post({ a: 'x'.repeat(50) })));
  });

  test('does not scan bodies when inspectBody is false', async () => {
    const app = buildApp({ inspectBody: false });
    await expectPass(await app.request('/comments', post({ a: '<script>' })));
  });
});

describe('waf: configuration', () => {
  test('log mode reports and lets the request through', async () => {
    const matches: WafMatch[] = [];
    const app = buildApp({ mode: 'log', onMatch: (m) => void matches.push(m) });
    await expectPass(await app.request(search('<script>')));
    expect(matches).toHaveLength(1);
    expect(matches[0]).toMatchObject({ rule: 'xss-script-tag', where: 'query', field: 'q', blocked: false });
  });

  test('disables groups and single rules', async () => {
    const app = buildApp({ disable: ['xss', 'sqli-tautology'] });
    await expectPass(await app.request(search('<script>alert(1)</script>')));
    await expectPass(await app.request(search("1' or '1'='1")));
    await expectBlocked(await app.request(search('1 union select 1')), 'sqli-union-select');
  });

  test('adds custom rules on chosen targets, including configured headers', async () => {
    const app = buildApp({
      headers: ['X-Referrer-Note'],
      rules: [
        { id: 'no-internal', where: 'query', match: 'INTERNAL-ONLY' },
        { id: 'header-probe', where: ['headers'], match: (text) => text.startsWith('probe') },
      ],
    });
    await expectBlocked(await app.request(search('show internal-only data')), 'no-internal');
    await expectBlocked(
      await app.request('/search', { headers: { 'x-referrer-note': 'PROBE 1' } }),
      'header-probe',
    );
    await expectPass(await app.request('/search', { headers: { 'x-referrer-note': 'hello' } }));
    await expectPass(await app.request('/search', { headers: { 'x-other': 'probe' } }));
  });

  test('checks configured headers with the default rules, and no header otherwise', async () => {
    await expectPass(
      await buildApp().request('/search', { headers: { referer: "https://x/?q=' or 1=1--" } }),
    );
    const app = buildApp({ headers: ['referer'] });
    await expectBlocked(
      await app.request('/search', { headers: { referer: "https://x/?q=' or 1=1--" } }),
      'sqli-tautology',
    );
  });

  test('runs before routing when registered with app.use, so unmatched paths are checked', async () => {
    const res = await buildApp().request(`/nowhere?q=${encodeURIComponent('<script>')}`);
    await expectBlocked(res, 'xss-script-tag');
  });

  test('applies to one group when registered there', async () => {
    const app = new App({ logger: false });
    const route = { responses: { 200: { body: Ok } } };
    const ok = () => ({ status: 200 as const, body: { ok: true } });
    app.group('/api', { hooks: waf() }, (g) => g.get('/s', route, ok));
    app.get('/open', route, ok);
    await expectBlocked(await app.request('/api/s?q=%3Cscript%3E'), 'xss-script-tag');
    await expectPass(await app.request('/open?q=%3Cscript%3E'));
  });

  test('an onMatch that throws neither breaks the refusal nor lets the request through', async () => {
    const app = buildApp({
      onMatch: () => {
        throw new Error('logger down');
      },
    });
    await expectBlocked(await app.request(search('<script>')), 'xss-script-tag');
  });

  test('refuses bad options, naming the option', () => {
    expect(() => resolveWafOptions({ mode: 'deny' as never })).toThrow(/mode/);
    expect(() => resolveWafOptions({ mode: 'log' })).toThrow(/onMatch/);
    expect(() => resolveWafOptions({ disable: ['nope'] })).toThrow(/disable/);
    expect(() => resolveWafOptions({ rules: [{ id: 'bad id', where: 'query', match: 'x' }] })).toThrow(
      /rules\[0\]\.id/,
    );
    expect(() =>
      resolveWafOptions({ rules: [{ id: 'xss-script-tag', where: 'query', match: 'x' }] }),
    ).toThrow(/already used/);
    expect(() => resolveWafOptions({ rules: [{ id: 'r', where: 'cookie' as never, match: 'x' }] })).toThrow(
      /where/,
    );
    expect(() => resolveWafOptions({ rules: [{ id: 'r', where: 'query', match: '' }] })).toThrow(/match/);
    expect(() => resolveWafOptions({ headers: ['bad header'] })).toThrow(/headers/);
    expect(() => resolveWafOptions({ maxBodyDepth: 0 })).toThrow(RangeError);
    expect(() => resolveWafOptions({ maxBodyChars: 1.5 })).toThrow(/maxBodyChars/);
    expect(() => resolveWafOptions({ inspectBody: 'yes' as never })).toThrow(/inspectBody/);
  });
});

describe('waf: linear time', () => {
  const pathological = [
    "'".repeat(100_000),
    '%'.repeat(100_000),
    '%25'.repeat(33_000),
    '<'.repeat(100_000),
    'on'.repeat(50_000),
    ' or '.repeat(25_000),
    "' or ".repeat(20_000),
    'union '.repeat(16_000),
    '; drop '.repeat(14_000),
    'sleep('.repeat(16_000),
    '../'.repeat(33_000),
    'a'.repeat(100_000),
    '/*'.repeat(50_000),
    '\t \n'.repeat(33_000),
  ];

  test('every default rule finishes quickly on 100 KB of repeated characters', () => {
    for (const input of pathological) {
      const started = performance.now();
      const text = normaliseWafText(input);
      const raw = input.toLowerCase();
      for (const rule of DEFAULT_WAF_RULES) {
        if (typeof rule.match === 'function') rule.match(text, raw);
      }
      expect([input.slice(0, 10), performance.now() - started < 1000]).toEqual([input.slice(0, 10), true]);
    }
  });

  test('a 100 KB hostile body is scanned within a generous bound', async () => {
    const app = buildApp({ maxBodyChars: 2_000_000 });
    const started = performance.now();
    const res = await app.request('/comments', post({ a: "'".repeat(100_000), b: 'on'.repeat(50_000) }));
    expect(res.status).toBe(200);
    expect(performance.now() - started).toBeLessThan(2000);
  });

  test('normalisation never throws, lower-cases and leaves no runs of spaces (property)', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom('%', '2', '5', 'e', 'A', ' ', '\t', "'", '<', 'x') }),
        (s) => {
          const once = normaliseWafText(s);
          expect(typeof once).toBe('string');
          expect(once).toBe(once.toLowerCase());
          expect(once.includes('  ')).toBe(false);
        },
      ),
      { numRuns: 500 },
    );
  });
});
