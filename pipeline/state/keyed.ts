// Own-key access for records keyed by user-given ids, so ids like "constructor" or "__proto__"
// never reach Object.prototype.

export function getOwn<V>(record: Readonly<Record<string, V>>, key: string): V | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

/**
 * Records a batch replay may change in place: inside `replayBatch`, the first change to a record
 * copies it and later changes reuse that copy, so replaying N events over L lessons costs O(N + L)
 * instead of O(N × L). Only copies made inside the batch are reused; nothing given to it changes.
 */
let owned: WeakSet<object> | null = null;

/** Runs `fn` (a replay whose intermediate states nobody keeps) with in-place reuse of its copies. */
export function replayBatch<T>(fn: () => T): T {
  const outer = owned;
  owned = new WeakSet();
  try {
    return fn();
  } finally {
    owned = outer;
  }
}

/**
 * A copy of `record`, own keys only, in its order. Built as a dictionary-mode object (V8 turns an
 * object whose property was deleted into one): `{ ...record }` gives each of 1,000 lessons a hidden
 * class transition, about 6 ms of CPU on a first run, where this takes 0.4 (docs/performance.md).
 */
function copyOf<V>(
  record: Readonly<Record<string, V>>,
  keep: (key: string) => boolean = () => true,
): Record<string, V> {
  const copy: Record<string, V> = { dictionary: undefined as V };
  delete copy.dictionary;
  for (const key of Object.keys(record)) {
    if (!keep(key)) continue;
    if (key === '__proto__')
      Object.defineProperty(copy, key, { value: record[key], enumerable: true, writable: true, configurable: true });
    else copy[key] = record[key]!;
  }
  return copy;
}

/** A copy of `record` with `key` set; a defined property is always own, never the prototype. */
export function withOwn<V>(record: Readonly<Record<string, V>>, key: string, value: V): Record<string, V> {
  const copy = owned?.has(record) ? (record as Record<string, V>) : copyOf(record);
  Object.defineProperty(copy, key, { value, enumerable: true, writable: true, configurable: true });
  owned?.add(copy);
  return copy;
}

export function withoutOwn<V>(record: Readonly<Record<string, V>>, keys: readonly string[]): Record<string, V> {
  const drop = new Set(keys);
  const copy = copyOf(record, (key) => !drop.has(key));
  owned?.add(copy);
  return copy;
}
