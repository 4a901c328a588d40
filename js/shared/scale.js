// Axis helpers shared by the widgets: round ticks, the largest entry of an array, linear scales.

/**
 * About `count` round tick values covering [lo, hi] (steps 1, 2, 2.5, 5 × 10^k).
 * @returns {number[]}
 */
export function niceTicks(lo, hi, count = 5) {
  if (!(hi > lo) || !Number.isFinite(lo) || !Number.isFinite(hi)) return [];
  const raw = (hi - lo) / Math.max(1, count);
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * mag).find((s) => s >= raw) ?? 10 * mag;
  const ticks = [];
  for (let i = Math.ceil(lo / step); i * step <= hi + 1e-9 * step; i++) {
    ticks.push(Number((i * step).toPrecision(12)));
  }
  return ticks;
}

/** Largest entry of an array (0 when empty or when every entry is negative). */
export function maxOf(values) {
  let m = 0;
  for (let i = 0; i < values.length; i++) if (values[i] > m) m = values[i];
  return m;
}

/**
 * Linear scale from [d0, d1] to [r0, r1]; a domain may run downwards (d1 < d0, as a pixel
 * → value map of a y axis does). Constant r0 when the domain is empty.
 */
export function linearScale(d0, d1, r0, r1) {
  const span = d1 - d0;
  const empty = span === 0 || Number.isNaN(span);
  return (v) => (empty ? r0 : r0 + ((v - d0) / span) * (r1 - r0));
}
