// MongoDB operator injection: a JSON body such as `{"password": {"$ne": null}}` handed to a query
// filter turns an equality test into an operator (`$ne`, `$gt`, `$regex`, `$where`...). The only
// spelling MongoDB reads as an operator is a key that starts with `$`, at any depth.
import { BadRequestError } from '../errors/index.ts';

/**
 * The deepest nesting scanned. MongoDB refuses BSON documents nested deeper than 100 levels, so a
 * value past that depth could never be a valid document or filter: it is refused rather than
 * scanned further (fail closed), and the scan never recurses, so no payload can exhaust the stack.
 */
export const MONGO_MAX_DEPTH = 100;

/** Options of `hasMongoOperatorKeys` and `assertNoMongoOperators`. */
export interface MongoKeyOptions {
  /**
   * Also refuse keys that contain a `.`. Default false: a dotted key is not an operator, but in an
   * update (`$set: body`) it addresses a nested field (`"profile.role"`), so turn this on when user
   * objects are spread into updates without a schema that lists their keys.
   */
  dottedKeys?: boolean;
}

/** Where a scan stopped: the path of the offending key, or of the value nested too deeply. */
interface Finding {
  path: string;
  reason: 'operator' | 'dotted' | 'depth';
}

interface Frame {
  value: object;
  path: string;
  depth: number;
}

function childPath(parent: string, key: string): string {
  // Identifier-like keys read as `a.b`; anything else is quoted so the path stays unambiguous.
  const plain = /^[A-Za-z_$][\w$]*$/.test(key);
  return plain ? (parent === '' ? key : `${parent}.${key}`) : `${parent}[${JSON.stringify(key)}]`;
}

function entriesOf(value: object): Iterable<[string, unknown]> {
  // BSON serialisers write a Map's string keys as document keys, so they are keys too.
  if (value instanceof Map) {
    const pairs: [string, unknown][] = [];
    for (const [key, item] of value) if (typeof key === 'string') pairs.push([key, item]);
    return pairs;
  }
  return Object.entries(value);
}

function findOffendingKey(root: unknown, dottedKeys: boolean): Finding | undefined {
  if (typeof root !== 'object' || root === null) return undefined;
  const seen = new WeakSet<object>();
  const stack: Frame[] = [{ value: root, path: '', depth: 0 }];
  while (stack.length > 0) {
    const frame = stack.pop() as Frame;
    if (seen.has(frame.value)) continue;
    seen.add(frame.value);
    if (frame.depth >= MONGO_MAX_DEPTH) return { path: frame.path, reason: 'depth' };
    // Binary data (Buffer, typed arrays) has index keys only: nothing to find, much to walk.
    if (ArrayBuffer.isView(frame.value)) continue;
    if (Array.isArray(frame.value)) {
      for (let i = frame.value.length - 1; i >= 0; i--) {
        const item: unknown = frame.value[i];
        if (typeof item === 'object' && item !== null) {
          stack.push({ value: item, path: `${frame.path}[${i}]`, depth: frame.depth + 1 });
        }
      }
      continue;
    }
    for (const [key, item] of entriesOf(frame.value)) {
      const path = childPath(frame.path, key);
      if (key.startsWith('$')) return { path, reason: 'operator' };
      if (dottedKeys && key.includes('.')) return { path, reason: 'dotted' };
      if (typeof item === 'object' && item !== null) {
        stack.push({ value: item, path, depth: frame.depth + 1 });
      }
    }
  }
  return undefined;
}

/**
 * True when `value` has an own key starting with `$` at any depth (arrays and Maps included), or
 * is nested deeper than `MONGO_MAX_DEPTH` levels. With `dottedKeys`, a key containing `.` counts too.
 */
export function hasMongoOperatorKeys(value: unknown, options: MongoKeyOptions = {}): boolean {
  return findOffendingKey(value, options.dottedKeys === true) !== undefined;
}

const MAX_PATH_IN_DETAIL = 200;

/** Throws a 400 naming the path of the first `$` key (or dotted key, or too deep a value) in `value`. */
export function assertNoMongoOperators(value: unknown, where = 'input', options: MongoKeyOptions = {}): void {
  const finding = findOffendingKey(value, options.dottedKeys === true);
  if (finding === undefined) return;
  // The key is attacker text: cap its length so the problem document stays small.
  const path =
    finding.path.length > MAX_PATH_IN_DETAIL
      ? `${finding.path.slice(0, MAX_PATH_IN_DETAIL)}...`
      : finding.path;
  const detail =
    finding.reason === 'depth'
      ? `The ${where} is nested deeper than ${MONGO_MAX_DEPTH} levels (at ${path})`
      : finding.reason === 'dotted'
        ? `The ${where} contains a key with a "." at ${path}`
        : `The ${where} contains the MongoDB operator key at ${path}`;
  throw new BadRequestError(detail);
}
