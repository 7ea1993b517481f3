export interface Distribution {
  n: number;
  median: number;
  p95: number;
  p99: number;
  max: number;
}

/** Nearest-rank percentiles of a sample (ms or any unit). */
export function distribution(values: readonly number[]): Distribution {
  if (values.length === 0) return { n: 0, median: Number.NaN, p95: Number.NaN, p99: Number.NaN, max: Number.NaN };
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
  return { n: sorted.length, median: at(0.5), p95: at(0.95), p99: at(0.99), max: sorted[sorted.length - 1]! };
}
