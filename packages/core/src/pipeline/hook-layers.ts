import {
  HOOK_PHASES,
  type HookInput,
  type HookPhase,
  type Hooks,
  type HookTraits,
  hookTraitsOf,
} from '../types/index.ts';

/** Every hook of one phase, in composition order, or undefined when there are none. */
export type PhaseList<P extends HookPhase> = readonly NonNullable<Hooks[P]>[] | undefined;

/** Hooks regrouped by phase: decided once per route so the hot path loops over flat arrays. */
export type PhaseTable = { readonly [P in HookPhase]: PhaseList<P> };

/** Normalises `Hooks | Hooks[] | undefined` into an array, checking each hook is a function. */
export function hookList(input: HookInput | undefined, where: string): readonly Hooks[] {
  if (input === undefined) return [];
  const list = Array.isArray(input) ? (input as readonly Hooks[]) : [input as Hooks];
  for (const hooks of list) {
    if (typeof hooks !== 'object' || hooks === null) throw new TypeError(`${where}: hooks must be objects`);
    for (const key of Object.keys(hooks)) {
      if (!(HOOK_PHASES as readonly string[]).includes(key)) {
        throw new TypeError(`${where}: unknown hook "${key}"; expected one of ${HOOK_PHASES.join(', ')}`);
      }
      const fn = hooks[key as HookPhase];
      if (fn !== undefined && typeof fn !== 'function')
        throw new TypeError(`${where}: hook "${key}" must be a function`);
    }
  }
  return list;
}

/** Regroups hook layers (already in composition order) by phase. */
export function phaseTable(layers: readonly Hooks[]): PhaseTable {
  const table: Partial<Record<HookPhase, unknown[]>> = {};
  for (const hooks of layers) {
    for (const phase of HOOK_PHASES) {
      const fn = hooks[phase];
      if (fn !== undefined) (table[phase] ??= []).push(fn);
    }
  }
  return Object.freeze(table) as PhaseTable;
}

/** The traits the layers' builders declared, in layer order (layers without traits are skipped). */
export function layerTraits(layers: readonly Hooks[]): readonly HookTraits[] {
  const traits: HookTraits[] = [];
  for (const hooks of layers) {
    const t = hookTraitsOf(hooks);
    if (t !== undefined) traits.push(t);
  }
  return Object.freeze(traits);
}

export const EMPTY_PHASES: PhaseTable = phaseTable([]);
