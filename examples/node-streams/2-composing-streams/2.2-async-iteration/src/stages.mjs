// Pipeline stages written as async generator functions: each takes the previous stage as an
// async iterable and yields its own output.

export const map = (fn) =>
  async function* mapStage(source) {
    for await (const item of source) yield await fn(item);
  };

export const filter = (predicate) =>
  async function* filterStage(source) {
    for await (const item of source) {
      if (await predicate(item)) yield item;
    }
  };

export const take = (count) =>
  async function* takeStage(source) {
    if (count <= 0) return;
    let taken = 0;
    for await (const item of source) {
      yield item;
      taken += 1;
      if (taken === count) return; // leaving the loop closes the source
    }
  };

/** A final stage: an async function that consumes the source and returns a result. */
export async function toArray(source) {
  const items = [];
  for await (const item of source) items.push(item);
  return items;
}
