import { assertAuthSpec } from '../auth/schemes.ts';
import { routeAuthHooks } from '../auth/route-auth.ts';
import type { Logger } from '../logger/index.ts';
import { type CompiledRoute, checkRoute, compileRoute } from '../pipeline/compiled-route.ts';
import type { RouteSlot } from '../pipeline/dispatch.ts';
import { layerTraits, type PhaseTable, phaseTable } from '../pipeline/hook-layers.ts';
import { Router } from '../router/index.ts';
import {
  type AnyRouteDefinition,
  type AuthSpec,
  HTTP_METHODS,
  type Hooks,
  type HookTraits,
} from '../types/index.ts';
import type { ResolvedAppOptions } from './options.ts';
import { assertCallbacks, assertResponses } from './route-shape.ts';
import type { PluginInstalledListener } from './plugins.ts';
import type { Scope } from './scope.ts';
import type { CloseListener, ShutdownListener } from './lifecycle.ts';

/** One registered route, as declared, with what its scope added (full path, tags, auth). */
export interface RouteRecord {
  readonly definition: AnyRouteDefinition;
  readonly scope: Scope;
  readonly path: string;
  readonly operationId: string | undefined;
  readonly tags: readonly string[] | undefined;
  readonly auth: AuthSpec | undefined;
}

interface UnmatchedPhases {
  readonly generation: number;
  readonly plain: PhaseTable;
  readonly guarded: PhaseTable;
  readonly perimeterOnRequest: PhaseTable['onRequest'];
}

/** The router's value: compiles its route on first use, and again after hooks change. */
class Slot implements RouteSlot {
  record: RouteRecord;
  readonly #registry: Registry;
  #compiled: CompiledRoute | undefined = undefined;
  #generation = -1;

  constructor(registry: Registry, record: RouteRecord) {
    this.#registry = registry;
    this.record = record;
  }

  /** Points the slot at another route (an explicit HEAD replacing the derived one). */
  replace(record: RouteRecord): void {
    this.record = record;
    this.#compiled = undefined;
  }

  compiled(): CompiledRoute {
    if (this.#generation !== this.#registry.generation || this.#compiled === undefined) {
      this.#compiled = this.#registry.compile(this.record);
      this.#generation = this.#registry.generation;
    }
    return this.#compiled;
  }
}

/** Shared state of one App and all its scopes: routes, router, hooks, plugins, listeners. */
export class Registry {
  readonly options: ResolvedAppOptions;
  readonly logger: Logger;
  readonly router = new Router<RouteSlot>();
  readonly records: RouteRecord[] = [];
  readonly constructorHooks: readonly Hooks[];
  readonly perimeterHooks: Hooks[] = [];
  /** Bumped whenever hooks change, so compiled routes are rebuilt with the new layers. */
  generation = 0;
  readonly #operationIds = new Set<string>();
  readonly #derivedHead = new Map<string, Slot>();
  readonly installedPlugins = new Map<string, { stateful: boolean }>();
  readonly pending: Promise<unknown>[] = [];
  readonly pluginListeners: PluginInstalledListener[] = [];
  /** Lifecycle listeners of every scope (plugins included), run by the App's shutdown. */
  readonly shutdownListeners: ShutdownListener[] = [];
  readonly closeListeners: CloseListener[] = [];
  #unmatched: UnmatchedPhases | undefined;
  /** The traits each route was last compiled with, and the hook generation they belong to. */
  readonly #traits = new WeakMap<RouteRecord, { generation: number; traits: readonly HookTraits[] }>();

  constructor(options: ResolvedAppOptions, logger: Logger, constructorHooks: readonly Hooks[]) {
    this.options = options;
    this.logger = logger;
    this.constructorHooks = constructorHooks;
  }

  invalidate(): void {
    this.generation++;
  }

  addRoute(record: RouteRecord): void {
    const { definition, path } = record;
    const where = `Route ${String(definition.method)} ${path}`;
    if (!HTTP_METHODS.includes(definition.method)) {
      throw new TypeError(`${where}: method must be one of ${HTTP_METHODS.join(', ')}`);
    }
    if (typeof definition.handler !== 'function') throw new TypeError(`${where}: handler must be a function`);
    assertResponses(where, definition.responses);
    // Checked now, so a malformed callback fails at registration, not when the document is generated.
    assertCallbacks(where, definition.callbacks);
    if (record.auth !== undefined) assertAuthSpec(record.auth, this.options.securitySchemes, where);
    if (record.operationId !== undefined) {
      if (typeof record.operationId !== 'string' || record.operationId === '') {
        throw new TypeError(`${where}: operationId must be a non-empty string`);
      }
      if (this.#operationIds.has(record.operationId)) {
        throw new TypeError(`${where}: operationId "${record.operationId}" is already used by another route`);
      }
    }
    // Bad schemas and content types fail at registration, not at the first request; the route is
    // compiled by the first request that reaches it (Slot.compiled), so an App's start pays only for
    // the routes it serves early (issue 18, start-up).
    checkRoute({ definition, path, options: this.options });
    const slot = new Slot(this, record);
    const headKey = `HEAD ${path}`;
    if (definition.method === 'HEAD' && this.#derivedHead.has(headKey)) {
      // An explicit HEAD takes over the one derived from GET.
      const derived = this.#derivedHead.get(headKey) as Slot;
      derived.replace(record);
      this.#derivedHead.delete(headKey);
    } else {
      this.router.add(definition.method, path, slot);
    }
    if (definition.method === 'GET' && !this.router.has('HEAD', path)) {
      const head = new Slot(this, record);
      this.router.add('HEAD', path, head);
      this.#derivedHead.set(headKey, head);
    }
    if (record.operationId !== undefined) this.#operationIds.add(record.operationId);
    this.records.push(record);
  }

  compile(record: RouteRecord): CompiledRoute {
    const compiled = compileRoute({
      definition: record.definition,
      path: record.path,
      operationId: record.operationId,
      auth: record.auth,
      globalLayers: this.#globalLayers(),
      scopedLayers: this.#scopedLayers(record),
      decorations: record.scope.decorations,
      options: this.options,
    });
    this.#traits.set(record, { generation: this.generation, traits: compiled.traits });
    return compiled;
  }

  /**
   * The traits of every hook layer of a route, outermost first, as its compiled form carries them;
   * read without compiling the route again (schemas, header sets), for the boot guards.
   */
  traitsOf(record: RouteRecord): readonly HookTraits[] {
    // The route's compiled traits while its hooks are the ones it was compiled with (the boot guards
    // run at ready(), after registration compiled every route: issue 18, start-up).
    const known = this.#traits.get(record);
    if (known !== undefined && known.generation === this.generation) return known.traits;
    return layerTraits([...this.#globalLayers(), ...this.#scopedLayers(record)]);
  }

  /** Constructor hooks, then root `app.use`. */
  #globalLayers(): Hooks[] {
    return [...this.constructorHooks, ...this.perimeterHooks];
  }

  /** Group and plugin layers (outermost first), the route's own hooks, then auth enforcement. */
  #scopedLayers(record: RouteRecord): Hooks[] {
    const scopedLayers: Hooks[] = [];
    const chain: Scope[] = [];
    for (let s: Scope | undefined = record.scope; s !== undefined && !s.isRoot; s = s.parent)
      chain.unshift(s);
    for (const scope of chain) scopedLayers.push(...scope.layers());
    scopedLayers.push(...record.scope.routeHookList(record.definition));
    // Last, so it sees what every authenticating hook of the route left on ctx.state.
    const enforceAuth = routeAuthHooks(record.auth, this.options.securitySchemes);
    if (enforceAuth !== undefined) scopedLayers.push(enforceAuth);
    return scopedLayers;
  }

  /** Hooks for requests that match no route: constructor hooks, plus app.use ones if a guard answered. */
  unmatchedPhases(): UnmatchedPhases {
    if (this.#unmatched === undefined || this.#unmatched.generation !== this.generation) {
      this.#unmatched = {
        generation: this.generation,
        plain: phaseTable(this.constructorHooks),
        guarded: phaseTable([...this.constructorHooks, ...this.perimeterHooks]),
        perimeterOnRequest: phaseTable(this.perimeterHooks).onRequest,
      };
    }
    return this.#unmatched;
  }
}
