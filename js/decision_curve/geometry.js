// DecisionCurveView geometry: the plot box, the scales, the strategies' rows and the cursor's
// readout (pure; every number comes from Python, the cursor only picks a column).
import { formatNumber } from "../shared/format.js";
import { linearScale } from "../shared/scale.js";

/** Margins of the canvas (CSS pixels). */
export const MARGINS = { top: 12, right: 14, bottom: 40, left: 56 };
/** Height of the plot box per unit of width. */
export const ASPECT = 0.55;

/** The canvas size and its plot box for a width. */
export function layout(width) {
  const w = Math.max(320, width);
  const plotWidth = w - MARGINS.left - MARGINS.right;
  const plotHeight = Math.round(plotWidth * ASPECT);
  return {
    width: w,
    height: MARGINS.top + plotHeight + MARGINS.bottom,
    box: { left: MARGINS.left, top: MARGINS.top, width: plotWidth, height: plotHeight },
  };
}

/** The x domain: the thresholds' range (a single threshold gets a unit-wide window). */
export function xDomain(thresholds) {
  if (thresholds.length === 0) return [0, 1];
  let lo = Infinity;
  let hi = -Infinity;
  for (const t of thresholds) {
    if (t < lo) lo = t;
    if (t > hi) hi = t;
  }
  return hi > lo ? [lo, hi] : [lo - 0.5, lo + 0.5];
}

/** The y domain Python chose (`y_range`), or [−0.05, 1] when it is missing or unusable. */
export function yDomain(summary) {
  const r = summary?.y_range;
  if (Array.isArray(r) && r.length === 2 && Number.isFinite(r[0]) && Number.isFinite(r[1]) && r[1] > r[0]) return r;
  return [-0.05, 1];
}

/** Data → pixel scales of the box. */
export function scales(box, [x0, x1], [y0, y1]) {
  return {
    x: linearScale(x0, x1, box.left, box.left + box.width),
    y: linearScale(y0, y1, box.top + box.height, box.top),
  };
}

export { nearestIndex } from "../shared/search.js";

/** Strategy `s`'s row of a buffer holding one row of `size` values per strategy. */
export function row(buffer, s, size) {
  return buffer.subarray(s * size, (s + 1) * size);
}

/** Whether the buffers agree with the summary's strategies and the thresholds (else nothing is drawn). */
export function consistent(state) {
  const K = state.thresholds.length;
  const S = state.names.length;
  const M = state.models;
  if (K === 0 || S < 2 || M !== S - 2) return false;
  const rows = [state.netBenefit, state.lower, state.upper, state.bandLower, state.bandUpper];
  return rows.every((b) => b.length === S * K) && state.probUseful.length === M * K;
}

/** A "lo to hi" text of two numbers. */
export function rangeText(lo, hi) {
  return `${formatNumber(lo)} to ${formatNumber(hi)}`;
}

/**
 * The cursor's readout at column `k`: one line per model (net benefit, its pointwise interval,
 * the simultaneous band, P(useful)) and one for treating all.
 */
export function readoutLines(state, k) {
  if (!consistent(state) || k < 0) return [];
  const K = state.thresholds.length;
  const pct = `${Math.round(state.confidence * 100)}%`;
  const at = (buffer, s) => buffer[s * K + k];
  const lines = [];
  for (let s = 0; s < state.names.length - 1; s++) {
    const head = `${state.names[s]}: net benefit ${formatNumber(at(state.netBenefit, s))}`;
    const interval = `${pct} interval ${rangeText(at(state.lower, s), at(state.upper, s))}`;
    const band = `${pct} band ${rangeText(at(state.bandLower, s), at(state.bandUpper, s))}`;
    const useful = s < state.models ? `, P(useful) = ${formatNumber(state.probUseful[s * K + k])}` : "";
    lines.push(`${head} (${interval}; ${band})${useful}`);
  }
  return lines;
}
