/**
 * `charter doctor [entry] [--strict] [--json]`: the App judged as it would be in production. The entry
 * is loaded with `NODE_ENV=production` (so its production choices are the ones checked), then every boot
 * guard runs as production (`app.assertSecureConfig({ production: true })`), and the runtime's version is
 * checked against the package's `engines`. Exit 1 on an error issue (with `--strict`, on any issue).
 */
import type { SecurityIssue } from '@charter/core';
import { type CliContext, type Command, EXIT } from '../context.ts';
import { findEntry } from '../entry.ts';
import { EntryLoadError, loadApp } from '../load.ts';
import { cell } from '../output.ts';
import { detectRuntime } from '../runtime.ts';
import { ENTRY_DETAIL, HELP_FLAG, JSON_FLAG } from './shared.ts';

/** Oldest supported runtime versions (packages/charter/package.json `engines`). */
export const MIN_VERSIONS = { node: 24, bun: [1, 3] } as const;

interface Finding {
  code: string;
  severity: 'error' | 'warning';
  message: string;
  route?: string;
}

/** A finding when the runtime running `charter` is older than Charter supports. */
export function runtimeFinding(global: object): Finding | undefined {
  const runtime = detectRuntime(global);
  const g = global as { Bun?: { version?: string }; process?: { versions?: { node?: string } } };
  if (runtime === 'bun') {
    const [major = 0, minor = 0] = (g.Bun?.version ?? '0.0').split('.').map(Number);
    const [needMajor, needMinor] = MIN_VERSIONS.bun;
    if (major < needMajor || (major === needMajor && minor < needMinor)) {
      return {
        code: 'runtime-too-old',
        severity: 'error',
        message: `Bun ${g.Bun?.version} is older than ${needMajor}.${needMinor}, the oldest Charter supports`,
      };
    }
  } else if (runtime === 'node') {
    const version = g.process?.versions?.node ?? '0';
    if (Number(version.split('.')[0]) < MIN_VERSIONS.node) {
      return {
        code: 'runtime-too-old',
        severity: 'error',
        message: `Node ${version} is older than ${MIN_VERSIONS.node}, the oldest Charter supports`,
      };
    }
  }
  return undefined;
}

/** `error.issues` of an InsecureConfigError (checked by shape: the App may come from another copy of charter). */
function insecureIssues(error: unknown): readonly SecurityIssue[] | undefined {
  const e = error as { name?: unknown; issues?: unknown } | null;
  return e?.name === 'InsecureConfigError' && Array.isArray(e.issues)
    ? (e.issues as SecurityIssue[])
    : undefined;
}

async function securityFindings(entry: string, context: CliContext): Promise<Finding[]> {
  let app: Awaited<ReturnType<typeof loadApp>>;
  try {
    app = await loadApp(entry, context.cwd);
    await app.ready();
  } catch (error) {
    // Refused while it was built or started (a guard that runs in the constructor or at ready()).
    const issues = insecureIssues(error instanceof EntryLoadError ? error.cause : error);
    if (issues !== undefined) return [...issues];
    throw error;
  }
  const assertSecureConfig = (app as { assertSecureConfig?: unknown }).assertSecureConfig;
  if (typeof assertSecureConfig !== 'function') {
    throw new EntryLoadError('the app has no assertSecureConfig(): is it a Charter App?');
  }
  try {
    return [...(assertSecureConfig.call(app, { production: true }) as SecurityIssue[])];
  } catch (error) {
    const issues = insecureIssues(error);
    if (issues === undefined) throw error;
    return [...issues];
  }
}

export const doctorCommand: Command = {
  name: 'doctor',
  usage: 'doctor [entry] [--strict] [--json]',
  summary: 'run the boot guards as production (assertSecureConfig); exit 1 on issues',
  details: [
    ENTRY_DETAIL,
    'The entry is loaded with NODE_ENV=production, then every boot guard runs as production: wildcard CORS with credentials, weak secrets, session routes without CSRF protection, tool/agent routes without auth, the proxy posture... The runtime version is checked too.',
    'Errors exit 1; warnings are listed and exit 0 unless --strict.',
  ],
  flags: {
    strict: { type: 'boolean', description: 'warnings fail too' },
    json: JSON_FLAG,
    help: HELP_FLAG,
  },
  maxPositionals: 1,
  async run(args, context) {
    const entry = findEntry(args.positionals[0], context.cwd);
    context.env.NODE_ENV = 'production';
    const findings: Finding[] = [];
    const runtime = runtimeFinding(context.global);
    if (runtime !== undefined) findings.push(runtime);
    findings.push(...(await securityFindings(entry, context)));
    const errors = findings.filter((f) => f.severity === 'error').length;
    const warnings = findings.length - errors;
    const failed = errors > 0 || (args.flags.strict === true && warnings > 0);
    if (args.flags.json === true) {
      context.stdout(`${JSON.stringify({ ok: !failed, errors, warnings, issues: findings }, null, 2)}\n`);
    } else if (findings.length === 0) {
      context.stdout('ok: no issue found with NODE_ENV=production\n');
    } else {
      const lines = findings.map(
        (f) =>
          `  ${f.severity === 'error' ? 'error  ' : 'warning'} [${cell(f.code)}] ${cell(f.message, 600)}`,
      );
      context.stdout(
        `${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'} with NODE_ENV=production:\n${lines.join('\n')}\n`,
      );
    }
    return failed ? EXIT.findings : EXIT.ok;
  },
};
