// Small validators shared by the signer and verifier option resolvers: each throws
// JwtError('invalid-options') naming the option.
import { JwtError } from './errors.ts';

/** A non-empty string, or `undefined` when absent. */
export function optionalText(value: unknown, name: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.length === 0) {
    throw new JwtError('invalid-options', `${name} must be a non-empty string`);
  }
  return value;
}

/** A non-empty string or a non-empty list of them, as a frozen list; `undefined` when absent. */
export function optionalTextList(value: unknown, name: string): readonly string[] | undefined {
  if (value === undefined) return undefined;
  const list = typeof value === 'string' ? [value] : value;
  if (
    !Array.isArray(list) ||
    list.length === 0 ||
    !list.every((item) => typeof item === 'string' && item.length > 0)
  ) {
    throw new JwtError('invalid-options', `${name} must be a non-empty string or a non-empty array of them`);
  }
  return Object.freeze([...(list as string[])]);
}

/** A function, or `undefined` when absent. */
export function optionalFunction<T extends (...args: never[]) => unknown>(
  value: unknown,
  name: string,
): T | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'function') throw new JwtError('invalid-options', `${name} must be a function`);
  return value as T;
}

/** A plain options object (an empty one when absent). */
export function optionsObject<T extends object>(value: unknown, name: string): Partial<T> {
  if (value === undefined) return {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new JwtError('invalid-options', `${name} must be an object`);
  }
  return value as Partial<T>;
}
