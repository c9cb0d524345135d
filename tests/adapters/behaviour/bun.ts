/**
 * The behaviour suite as bun:test tests: `describeBehaviour('deno', () => target)` registers one test
 * per check of `./checks.ts`. Call it at the top level of a test file, and set the target up in a
 * `beforeAll` (the getter is read when each test runs).
 *
 * `except` names checks a platform cannot pass, each with the reason: such a check still runs and its
 * test asserts that it fails, so the day the platform (or the adapter) can do it, the test says so and
 * the exception is removed. Use it only for what the docs list as unsupported on that platform.
 */
import { describe, expect, test } from 'bun:test';
import { type BehaviourTarget, behaviourChecks } from './checks.ts';

export interface DescribeBehaviourOptions {
  /** Check name -> why this platform cannot pass it. */
  except?: Readonly<Record<string, string>>;
  /** Per-test timeout; default 30 s (the timeout and SSE checks wait on purpose). */
  timeoutMs?: number;
}

export function describeBehaviour(
  label: string,
  target: () => BehaviourTarget,
  options: DescribeBehaviourOptions = {},
): void {
  const except = options.except ?? {};
  for (const name of Object.keys(except)) {
    if (!behaviourChecks.some((check) => check.name === name)) {
      throw new Error(`describeBehaviour(${label}): no check is named ${JSON.stringify(name)}`);
    }
  }
  describe(`behaviour suite on ${label}`, () => {
    for (const check of behaviourChecks) {
      const reason = except[check.name];
      if (reason === undefined) {
        test(check.name, () => check.run(target()), options.timeoutMs ?? 30_000);
      } else {
        test(
          `${check.name} (not on ${label}: ${reason})`,
          async () => {
            let failed = false;
            try {
              await check.run(target());
            } catch {
              failed = true;
            }
            expect(failed).toBe(true);
          },
          options.timeoutMs ?? 30_000,
        );
      }
    }
  });
}
