// Axis helpers shared by the widgets: round ticks and the largest entry of an array.

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
