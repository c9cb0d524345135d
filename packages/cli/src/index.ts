/**
 * @module charter/cli — the `charter` command line and its parts: the argument parser, runtime
 * detection, the dev command builder, the entry-path guards, the OpenAPI diff and the AI catalogue.
 * Importing it runs nothing; the package's `charter` bin runs `runCli` when it is the main module.
 */
export { buildAiDump, schemaToType, type AiDumpExtraRoute } from './ai-dump.ts';
export { closest, type FlagSpec, type ParsedArgs, parseArgs, UsageError } from './args.ts';
export { isMainModule } from './bin.ts';
export { type CliContext, type Command, EXIT } from './context.ts';
export { type SchemaChange, diffSchemas } from './diff-schema.ts';
export {
  appFromModule,
  type CliApp,
  DEFAULT_DEV_ENTRIES,
  DEFAULT_ENTRIES,
  ENTRY_EXTENSIONS,
  findEntry,
  isCliApp,
  resolveEntryPath,
} from './entry.ts';
export { EntryLoadError, loadApp } from './load.ts';
export { type ApiChange, type ApiDiff, assertOpenAPIDocument, diffOpenAPI } from './openapi-diff.ts';
export {
  buildDevCommand,
  type DevCommandOptions,
  detectRuntime,
  RUNTIMES,
  type RuntimeName,
  resolveRuntime,
  runtimeExecutable,
} from './runtime.ts';
export { formatRoutesTable } from './commands/routes.ts';
export { runtimeFinding } from './commands/doctor.ts';
export { COMMANDS, cliVersion, commandHelp, mainHelp, processContext, runCli } from './run.ts';
