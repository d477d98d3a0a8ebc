// An endless source: the natural numbers, as a generator that reports when it yields and stops.

/**
 * Yields 1, 2, 3, ... forever. `onYield(n)` is called before each value and
 * `onFinally()` when the generator is closed, so callers can see laziness and cleanup.
 */
export function* naturals({ onYield = () => {}, onFinally = () => {} } = {}) {
  try {
    for (let n = 1; ; n += 1) {
      onYield(n);
      yield n;
    }
  } finally {
    onFinally(); // runs when a consumer stops early: the place to release resources
  }
}
