/**
 * Reads a CPU profile written by TypeScript 7's `tsc --pprofDir DIR` (a gzipped pprof `Profile`
 * protobuf) without Go's `pprof` tool, which this machine does not have:
 *
 *   bun bench/types/check.ts 1000 --single-threaded --pprof-dir /tmp/prof
 *   bun bench/types/pprof.ts /tmp/prof/<pid>-cpuprofile.pb.gz top 30
 *   bun bench/types/pprof.ts /tmp/prof/<pid>-cpuprofile.pb.gz cum 60
 *   bun bench/types/pprof.ts /tmp/prof/<pid>-cpuprofile.pb.gz callers GetSourceFileOfNode 12
 *
 * `top` lists functions by self time, `cum` by cumulative time (each sample counted once per
 * function on its stack), `callers NAME [DEPTH]` the stacks through the first function whose name
 * contains NAME, DEPTH frames upwards, heaviest first. Times are seconds of CPU. Profile one checker
 * (`--singleThreaded`): with several, the samples of all of them are summed.
 *
 * Only the messages read here are decoded (profile.proto: `sample` 2, `location` 4, `function` 5,
 * `string_table` 6; a sample's last value is its CPU nanoseconds).
 */
import { gunzipSync } from 'node:zlib';

type Field = { number: number; varint: bigint } | { number: number; bytes: Uint8Array };

/** The fields of one protobuf message (wire types 0, 1, 2 and 5; fixed-width values are skipped). */
function* fields(message: Uint8Array): Generator<Field> {
  let at = 0;
  const varint = (): bigint => {
    let value = 0n;
    for (let shift = 0n; ; shift += 7n) {
      const byte = message[at++];
      if (byte === undefined) throw new Error('truncated varint');
      value |= BigInt(byte & 0x7f) << shift;
      if (byte < 0x80) return value;
    }
  };
  while (at < message.length) {
    const key = Number(varint());
    const number = key >> 3;
    const wireType = key & 7;
    if (wireType === 0) yield { number, varint: varint() };
    else if (wireType === 2) {
      const length = Number(varint());
      yield { number, bytes: message.subarray(at, at + length) };
      at += length;
    } else if (wireType === 1) at += 8;
    else if (wireType === 5) at += 4;
    else throw new Error(`unsupported wire type ${wireType}`);
  }
}

/** A repeated integer field, packed (bytes) or not (one varint). */
function integers(field: Field): bigint[] {
  if ('varint' in field) return [field.varint];
  return [...fields(prefixEach(field.bytes))].map((f) => ('varint' in f ? f.varint : 0n));
}

// A packed run of varints is read as a message of field-1 varints: prefix each with the key byte 0x08.
function prefixEach(packed: Uint8Array): Uint8Array {
  const out: number[] = [];
  let start = true;
  for (const byte of packed) {
    if (start) out.push(0x08);
    out.push(byte);
    start = byte < 0x80;
  }
  return Uint8Array.from(out);
}

export interface CpuProfile {
  /** Each sample's stack, leaf first, as function names, and its CPU seconds. */
  samples: Array<{ stack: string[]; seconds: number }>;
}

export function readProfile(gzipped: Uint8Array): CpuProfile {
  const profile = gunzipSync(gzipped);
  const strings: string[] = [];
  const functionName = new Map<bigint, bigint>();
  const locationFunctions = new Map<bigint, bigint[]>();
  const raw: Array<{ locations: bigint[]; values: bigint[] }> = [];
  for (const field of fields(profile)) {
    if (!('bytes' in field)) continue;
    if (field.number === 6) strings.push(new TextDecoder().decode(field.bytes));
    else if (field.number === 2) {
      const sample = { locations: [] as bigint[], values: [] as bigint[] };
      for (const f of fields(field.bytes)) {
        if (f.number === 1) sample.locations.push(...integers(f));
        else if (f.number === 2) sample.values.push(...integers(f));
      }
      raw.push(sample);
    } else if (field.number === 4) {
      let id = 0n;
      const functions: bigint[] = [];
      for (const f of fields(field.bytes)) {
        if (f.number === 1 && 'varint' in f) id = f.varint;
        else if (f.number === 4 && 'bytes' in f) {
          // A Line message: function_id is field 1.
          for (const g of fields(f.bytes)) if (g.number === 1 && 'varint' in g) functions.push(g.varint);
        }
      }
      locationFunctions.set(id, functions);
    } else if (field.number === 5) {
      let id = 0n;
      let name = 0n;
      for (const f of fields(field.bytes)) {
        if (f.number === 1 && 'varint' in f) id = f.varint;
        else if (f.number === 2 && 'varint' in f) name = f.varint;
      }
      functionName.set(id, name);
    }
  }
  const nameOf = (id: bigint) =>
    (strings[Number(functionName.get(id) ?? 0n)] ?? '?').replace(
      'github.com/microsoft/typescript-go/internal/',
      '',
    );
  return {
    samples: raw.map(({ locations, values }) => ({
      stack: locations.flatMap((location) => (locationFunctions.get(location) ?? []).map(nameOf)),
      seconds: Number(values[values.length - 1] ?? 0n) / 1e9,
    })),
  };
}

function add(totals: Map<string, number>, key: string, seconds: number): void {
  totals.set(key, (totals.get(key) ?? 0) + seconds);
}

function heaviest(totals: Map<string, number>, count: number): Array<[string, number]> {
  return [...totals].sort((a, b) => b[1] - a[1]).slice(0, count);
}

if (import.meta.main) {
  const [file, mode = 'top', ...rest] = process.argv.slice(2);
  if (file === undefined) throw new Error('usage: bun bench/types/pprof.ts FILE [top|cum|callers NAME] [N]');
  const { samples } = readProfile(new Uint8Array(await Bun.file(file).arrayBuffer()));
  const self = new Map<string, number>();
  const cumulative = new Map<string, number>();
  let total = 0;
  for (const { stack, seconds } of samples) {
    total += seconds;
    if (stack[0] !== undefined) add(self, stack[0], seconds);
    for (const name of new Set(stack)) add(cumulative, name, seconds);
  }
  console.log(`total ${total.toFixed(2)} s in ${samples.length} samples`);
  if (mode === 'top' || mode === 'cum') {
    const [byValue, other] = mode === 'top' ? [self, cumulative] : [cumulative, self];
    console.log(mode === 'top' ? '  self    cum  function' : '   cum   self  function');
    for (const [name, seconds] of heaviest(byValue, Number(rest[0] ?? 40))) {
      console.log(
        `${seconds.toFixed(2).padStart(6)} ${(other.get(name) ?? 0).toFixed(2).padStart(6)}  ${name}`,
      );
    }
  } else if (mode === 'callers') {
    const [name, depth = '10'] = rest;
    if (name === undefined) throw new Error('callers needs a function name');
    const stacks = new Map<string, number>();
    for (const { stack, seconds } of samples) {
      const at = stack.findIndex((frame) => frame.includes(name));
      if (at < 0) continue;
      const shortNames = stack.slice(at, at + Number(depth)).map((frame) => frame.split('.').pop());
      add(stacks, shortNames.join(' < '), seconds);
    }
    for (const [stack, seconds] of heaviest(stacks, 15))
      console.log(`${seconds.toFixed(2).padStart(6)}  ${stack}`);
  } else throw new Error(`unknown mode ${mode}`);
}
