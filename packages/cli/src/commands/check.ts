/** `charter check [entry] [--json]`: runContractTests over the App; exit 1 when it finds issues. */
import { runContractTests } from '@charter/client';
import { type Command, EXIT } from '../context.ts';
import { cell } from '../output.ts';
import { appOf, ENTRY_DETAIL, HELP_FLAG, JSON_FLAG } from './shared.ts';

export const checkCommand: Command = {
  name: 'check',
  usage: 'check [entry] [--json]',
  summary: 'run the contract tests (runContractTests); exit 1 on issues',
  details: [
    ENTRY_DETAIL,
    'Checks every route against its own contract: operationIds, declared responses, examples, and (in mock mode) its answers.',
  ],
  flags: { json: JSON_FLAG, help: HELP_FLAG },
  maxPositionals: 1,
  async run(args, context) {
    const { app } = await appOf(args, context);
    const report = await runContractTests(app as unknown as Parameters<typeof runContractTests>[0]);
    if (args.flags.json === true) {
      context.stdout(`${JSON.stringify(report, null, 2)}\n`);
    } else {
      const routes = `${report.checked} route${report.checked === 1 ? '' : 's'}`;
      if (report.ok) {
        context.stdout(`ok: ${routes} checked, no contract issue\n`);
      } else {
        const lines = report.issues.map(
          (issue) =>
            `  ${cell(issue.method)} ${cell(issue.route, 200)}  [${issue.code}] ${cell(issue.message, 400)}`,
        );
        const count = `${report.issues.length} contract issue${report.issues.length === 1 ? '' : 's'}`;
        context.stdout(`${count} in ${routes}:\n${lines.join('\n')}\n`);
      }
    }
    return report.ok ? EXIT.ok : EXIT.findings;
  },
};
