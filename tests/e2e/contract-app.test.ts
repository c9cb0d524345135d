/**
 * The OpenAPI document of the rich example app (examples/contract-app.ts), as GET /openapi.json serves
 * it, checked by tools Charter does not control: an OpenAPI 3.1 schema validator, Redocly's linter with
 * its recommended rules, and openapi-typescript's type generator; and the app's contract tests.
 */
import { describe, expect, mock, test } from 'bun:test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import * as ts5 from 'typescript5';
import { parse } from 'yaml';
import { runContractTests } from 'charter/client';
import { createContractApp } from '../../examples/contract-app.ts';

// openapi-typescript builds its output with the TypeScript 5 compiler API, which TypeScript 7 (this
// repository's compiler) no longer has; it gets the real TypeScript 5 under its import name.
mock.module('typescript', () => ({ ...ts5, default: ts5 }));

const REDOCLY_CLI = join(import.meta.dir, '..', '..', 'node_modules', '@redocly', 'cli', 'bin', 'cli.js');

async function servedDocument(): Promise<Record<string, unknown>> {
  const res = await createContractApp().request('/openapi.json');
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/json');
  return (await res.json()) as Record<string, unknown>;
}

describe('the example app document, checked by outside tools', () => {
  test('@seriousme/openapi-schema-validator accepts it as OpenAPI 3.1', async () => {
    const doc = await servedDocument();
    const validator = new Validator();
    const result = await validator.validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  test('the validator refuses the document once a required member is broken (the check can fail)', async () => {
    const doc = await servedDocument();
    const broken = structuredClone(doc) as { paths: Record<string, Record<string, { responses?: unknown }>> };
    delete broken.paths['/pets']?.post?.responses;
    (broken as Record<string, unknown>).info = { title: 'no version' };
    const result = await new Validator().validate(broken);
    expect(result.valid).toBe(false);
  });

  test('the YAML document reads back (yaml package) to the same object as the JSON one', async () => {
    const app = createContractApp();
    const [json, yamlRes] = await Promise.all([app.request('/openapi.json'), app.request('/openapi.yaml')]);
    expect(yamlRes.status).toBe(200);
    expect(yamlRes.headers.get('content-type')).toBe('application/yaml');
    expect(parse(await yamlRes.text(), { version: '1.2' })).toEqual(await json.json());
  });

  test('Redocly CLI lint with the recommended rules reports no error and no warning', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'charter-redocly-'));
    try {
      const file = join(dir, 'openapi.json');
      writeFileSync(file, JSON.stringify(await servedDocument()));
      const run = Bun.spawnSync(
        [process.execPath, REDOCLY_CLI, 'lint', file, '--extends=recommended', '--format=json'],
        {
          cwd: dir,
          env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
        },
      );
      const report = JSON.parse(run.stdout.toString()) as {
        totals: { errors: number; warnings: number };
        problems: Array<{ ruleId: string; message: string }>;
      };
      expect(report.problems.map((p) => `${p.ruleId}: ${p.message}`)).toEqual([]);
      expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
      expect(run.exitCode).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);

  test('Redocly CLI lint fails a document without servers and summaries (the check can fail)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'charter-redocly-'));
    try {
      const doc = (await servedDocument()) as Record<string, unknown>;
      delete doc.servers;
      const file = join(dir, 'openapi.json');
      writeFileSync(file, JSON.stringify(doc));
      const run = Bun.spawnSync(
        [process.execPath, REDOCLY_CLI, 'lint', file, '--extends=recommended', '--format=json'],
        {
          cwd: dir,
          env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
        },
      );
      const report = JSON.parse(run.stdout.toString()) as { problems: Array<{ ruleId: string }> };
      expect(report.problems.map((p) => p.ruleId)).toContain('no-empty-servers');
      expect(run.exitCode).not.toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);

  test('openapi-typescript generates types for every operation, and they parse as TypeScript', async () => {
    const { default: openapiTS, astToString } = await import('openapi-typescript');
    const source = astToString(await openapiTS((await servedDocument()) as never));
    for (const id of [
      'listUsers',
      'createUser',
      'getUser',
      'deleteUser',
      'createPet',
      'readFile',
      'getStatus',
    ]) {
      expect(source).toContain(`${id}: {`);
    }
    expect(source).toContain('webhooks');
    expect(source).toMatch(/Cat: \{/);
    const file = ts5.createSourceFile('openapi.d.ts', source, ts5.ScriptTarget.ES2022, true);
    const diagnostics = (file as unknown as { parseDiagnostics: unknown[] }).parseDiagnostics;
    expect(diagnostics).toEqual([]);
  });
});

describe('the example app passes its own contract tests', () => {
  test('every route is well declared (operationIds, params schemas, examples that validate)', async () => {
    const report = await runContractTests(createContractApp());
    expect(report.issues).toEqual([]);
    // Eight routes of its own plus GET /openapi.json and /openapi.yaml.
    expect(report).toMatchObject({ ok: true, checked: 10 });
  });

  test('in mock mode every route answers with a response its contract allows', async () => {
    const report = await runContractTests(createContractApp({ mockMode: true }));
    expect(report.issues).toEqual([]);
    expect(report.ok).toBe(true);
  });
});
