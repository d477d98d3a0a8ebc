// Summary statistics for benchmark samples: median, p95, p99 (nearest rank) and ratios.

/** The q-quantile (0..1) of `samples` by nearest rank; NaN for no samples. */
export function quantile(samples: readonly number[], q: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank] ?? Number.NaN;
}

export interface Summary {
  n: number;
  median_ms: number;
  p95_ms: number;
  p99_ms: number;
}

export function summarize(samples: readonly number[]): Summary {
  return {
    n: samples.length,
    median_ms: round(quantile(samples, 0.5)),
    p95_ms: round(quantile(samples, 0.95)),
    p99_ms: round(quantile(samples, 0.99)),
  };
}

/** a / b rounded to two decimals (NaN-safe: null when either is not a positive number). */
export function ratio(a: number, b: number): number | null {
  return Number.isFinite(a) && Number.isFinite(b) && b > 0 ? Math.round((a / b) * 100) / 100 : null;
}

export function round(value: number, digits = 1): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}

/** Milliseconds since `start` (a process.hrtime.bigint() reading). */
export function since(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1e6;
}
