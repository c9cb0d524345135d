import type { Logger } from '../logger/index.ts';
import { LoadShedder } from '../pipeline/load-shedding.ts';
import { type PerimeterPlan, problemHeaderSet } from '../pipeline/perimeter.ts';
import {
  type AssertSecureConfigOptions,
  collectSecurityIssues,
  type GuardedRoute,
  InsecureConfigError,
  REQUIRE_AUTH_META,
  type SecurityIssue,
} from './boot-guards.ts';
import type { ResolvedAppOptions } from './options.ts';
import type { Registry } from './registry.ts';

/** The step-0 and response guards of an App, from its resolved options. */
export function perimeterPlan(options: ResolvedAppOptions): PerimeterPlan {
  const security = options.security;
  return Object.freeze({
    maxHeaderCount: options.maxHeaderCount,
    shedder: security.loadShedding === undefined ? undefined : new LoadShedder(security.loadShedding),
    refuseForwarded: options.production && security.proxy.kind === 'unset',
    responseHeaders: security.responseHeaders,
    stripServerHeaders: security.stripServerHeaders,
    problemHeaders: problemHeaderSet(security.responseHeaders),
  });
}

function guardedRoutes(registry: Registry): GuardedRoute[] {
  return registry.records.map((record) => {
    const meta = record.definition.meta as Record<string, unknown> | undefined;
    return {
      method: record.definition.method,
      path: record.path,
      traits: registry.traitsOf(record),
      requiresAuth: meta?.[REQUIRE_AUTH_META] === true,
      declaresAuth: record.auth !== undefined,
    };
  });
}

/**
 * Runs the boot guards once per state of the routes and hooks: at `ready()` and before the first
 * request, again only after routes or hooks changed. In production an `error` issue refuses to
 * boot; elsewhere every issue is logged once as a warning.
 */
export class BootGuards {
  readonly #registry: Registry;
  readonly #options: ResolvedAppOptions;
  readonly #logger: Logger;
  // The state last checked: route count and hook generation (numbers, so the per-request
  // `current` read compares two fields and builds nothing). -1 means never checked.
  #checkedRoutes = -1;
  #checkedGeneration = -1;
  #failure: unknown = undefined;
  readonly #logged = new Set<string>();

  constructor(registry: Registry, options: ResolvedAppOptions, logger: Logger) {
    this.#registry = registry;
    this.#options = options;
    this.#logger = logger;
  }

  /** True when nothing changed since the last check (the hot path reads only this). */
  get current(): boolean {
    const registry = this.#registry;
    return this.#checkedRoutes === registry.records.length && this.#checkedGeneration === registry.generation;
  }

  /** The issues of the current configuration, without throwing. */
  collect(options: AssertSecureConfigOptions = {}): SecurityIssue[] {
    const production = options.production ?? this.#options.production;
    return collectSecurityIssues(this.#options, guardedRoutes(this.#registry), production);
  }

  /** `app.assertSecureConfig`: the issues; throws InsecureConfigError in production on an error issue. */
  assert(options: AssertSecureConfigOptions = {}): SecurityIssue[] {
    const issues = this.collect(options);
    const production = options.production ?? this.#options.production;
    if (production && issues.some((issue) => issue.severity === 'error'))
      throw new InsecureConfigError(issues);
    return issues;
  }

  /** The boot-time run: throws in production, logs each new issue once otherwise. */
  check(): void {
    if (this.current) {
      if (this.#failure !== undefined) throw this.#failure;
      return;
    }
    this.#checkedRoutes = this.#registry.records.length;
    this.#checkedGeneration = this.#registry.generation;
    this.#failure = undefined;
    let issues: SecurityIssue[];
    try {
      issues = this.assert();
    } catch (error) {
      // Kept, so a refused configuration is not re-checked on every request until it changes.
      this.#failure = error;
      throw error;
    }
    for (const issue of issues) {
      const id = `${issue.code} ${issue.route ?? ''}`;
      if (this.#logged.has(id)) continue;
      this.#logged.add(id);
      this.#logger.warn(issue.message, { code: issue.code, route: issue.route });
    }
  }
}

type RejectionListener = (reason: unknown) => void;

interface ProcessLike {
  on(event: 'unhandledRejection', listener: RejectionListener): unknown;
  off(event: 'unhandledRejection', listener: RejectionListener): unknown;
  exit(code: number): never;
}

const watchers = new Set<{ logger: Logger; crash: boolean }>();
let installed: RejectionListener | undefined;

function processOf(): ProcessLike | undefined {
  const candidate = (globalThis as { process?: Partial<ProcessLike> }).process;
  return typeof candidate?.on === 'function' && typeof candidate.off === 'function'
    ? (candidate as ProcessLike)
    : undefined;
}

/**
 * Watches for unhandled promise rejections while an App serves. Every watching App logs the
 * rejection; if any of them asks to crash (`crashOnUnhandledRejection`, the production default),
 * the process exits with status 1 after logging: a process in an unknown state should be
 * restarted by its supervisor rather than keep serving. Returns the function that stops watching.
 */
export function watchUnhandledRejections(logger: Logger, crash: boolean): () => void {
  const proc = processOf();
  if (proc === undefined) return () => {};
  const watcher = { logger, crash };
  watchers.add(watcher);
  if (installed === undefined) {
    installed = (reason) => {
      let exit = false;
      for (const w of watchers) {
        w.logger.error('Unhandled promise rejection', { error: reason, crash: w.crash });
        exit ||= w.crash;
      }
      if (exit) proc.exit(1);
    };
    proc.on('unhandledRejection', installed);
  }
  return () => {
    watchers.delete(watcher);
    if (watchers.size === 0 && installed !== undefined) {
      proc.off('unhandledRejection', installed);
      installed = undefined;
    }
  };
}
