/**
 * `charter check [entry] [--json] [--fuzz [--seed n] [--requests n] [--strict]]`: runContractTests over
 * the App; exit 1 when it finds issues.
 */
import { runContractTests } from '@charter/client';
import { UsageError } from '../args.ts';
import { type Command, EXIT } from '../context.ts';
import { cell } from '../output.ts';
import { appOf, documentOf, ENTRY_DETAIL, HELP_FLAG, JSON_FLAG } from './shared.ts';

type ContractOptions = NonNullable<Parameters<typeof runContractTests>[1]>;

/** A whole number from `min` to `max` given to `--<name>`. */
function integerFlag(name: string, value: unknown, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (typeof value !== 'string' || !/^\d+$/.test(value) || n < min || n > max) {
    throw new UsageError(
      `--${name} must be a whole number from ${min} to ${max}; got ${JSON.stringify(value)}`,
    );
  }
  return n;
}

export const checkCommand: Command = {
  name: 'check',
  usage: 'check [entry] [--json] [--fuzz [--seed n] [--requests n] [--strict]]',
  summary: 'run the contract tests (runContractTests); exit 1 on issues',
  details: [
    ENTRY_DETAIL,
    'Checks every route against its own contract: operationIds, declared responses, examples, and (in mock mode) its answers.',
    "--fuzz adds the property-based mode: requests made from each operation's schemas, sent in process, every answer checked against the OpenAPI document (seeded: the same seed sends the same requests).",
  ],
  flags: {
    json: JSON_FLAG,
    fuzz: { type: 'boolean', description: 'also send generated requests and check the answers' },
    seed: { type: 'string', valueName: 'n', description: 'the fuzzer seed (default 1)' },
    requests: { type: 'string', valueName: 'n', description: 'requests per operation (default 40)' },
    strict: { type: 'boolean', description: 'with --fuzz: report the checks beyond the document too' },
    help: HELP_FLAG,
  },
  maxPositionals: 1,
  async run(args, context) {
    const fuzzOnly = ['seed', 'requests', 'strict'].filter((name) => args.flags[name] !== undefined);
    if (args.flags.fuzz !== true && fuzzOnly.length > 0) {
      throw new UsageError(`--${fuzzOnly[0]} needs --fuzz`);
    }
    const seed = integerFlag('seed', args.flags.seed, 0, 2 ** 32 - 1);
    const requestsPerRoute = integerFlag('requests', args.flags.requests, 1, 10_000);
    const { app } = await appOf(args, context);
    const options: ContractOptions = {};
    if (args.flags.fuzz === true) {
      options.fuzz = {
        // The document itself, so an App that does not serve one is fuzzed too.
        document: documentOf(app) as unknown as Readonly<Record<string, unknown>>,
        ...(seed === undefined ? {} : { seed }),
        ...(requestsPerRoute === undefined ? {} : { requestsPerRoute }),
        ...(args.flags.strict === true ? { strict: true } : {}),
      };
    }
    const report = await runContractTests(app as unknown as Parameters<typeof runContractTests>[0], options);
    if (args.flags.json === true) {
      context.stdout(`${JSON.stringify(report, null, 2)}\n`);
      return report.ok ? EXIT.ok : EXIT.findings;
    }
    const lines: string[] = [];
    const routes = `${report.checked} route${report.checked === 1 ? '' : 's'}`;
    if (report.ok) {
      lines.push(`ok: ${routes} checked, no contract issue`);
    } else {
      lines.push(
        `${report.issues.length} contract issue${report.issues.length === 1 ? '' : 's'} in ${routes}:`,
      );
      for (const issue of report.issues) {
        lines.push(
          `  ${cell(issue.method)} ${cell(issue.route, 200)}  [${issue.code}] ${cell(issue.message, 400)}`,
        );
      }
    }
    if (report.fuzz !== undefined) {
      const { fuzz } = report;
      lines.push(
        `fuzz: ${fuzz.requests} requests to ${fuzz.routes} operations (seed ${fuzz.seed}), ` +
          `${fuzz.findings.length} finding${fuzz.findings.length === 1 ? '' : 's'}, ${fuzz.warnings.length} warning${fuzz.warnings.length === 1 ? '' : 's'}`,
      );
      if (args.flags.strict !== true) {
        for (const warning of fuzz.warnings.slice(0, 20)) {
          lines.push(
            `  warning ${cell(warning.method)} ${cell(warning.route, 200)}  [${warning.code}] ${cell(warning.message, 400)}`,
          );
        }
      }
    }
    context.stdout(`${lines.join('\n')}\n`);
    return report.ok ? EXIT.ok : EXIT.findings;
  },
};
