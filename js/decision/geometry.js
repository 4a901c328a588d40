// DecisionView geometry: the two panels' boxes, the slider's p_t ↔ cost pair, the iso-cost line
// clipped to the ROC square, the cost panel's x positions (the "none positive" candidate right of
// the scores), the plausible runs and the texts. Every value drawn arrives from Python (the
// candidates, their values, both bands, the chosen index); nothing here computes a statistic.
import { formatNumber } from "../shared/format.js";

/** Margins (CSS pixels) around each panel's plot. */
export const MARGINS = { left: 50, right: 14, top: 12, bottom: 42 };
/** Pixels between the two panels. */
export const GAP = 20;
/** Share of the finite thresholds' range the "none positive" candidate stands right of the last score. */
export const NONE_OFFSET = 0.06;

/** The ROC panel (a square) and the cost panel side by side in `width` CSS pixels. */
export function layout(width) {
  const panel = Math.max(180, Math.floor((Math.max(0, width) - GAP) / 2));
  const side = panel - MARGINS.left - MARGINS.right;
  const top = MARGINS.top;
  return {
    roc: { left: MARGINS.left, top, width: side, height: side },
    cost: { left: panel + GAP + MARGINS.left, top, width: side, height: side },
    width: 2 * panel + GAP,
    height: top + side + MARGINS.bottom,
  };
}

/** The threshold probability p_t = cost_fp / (cost_fp + cost_fn) of a cost pair (null: no cost). */
export function ptFromCost(cost) {
  if (!Array.isArray(cost) || cost.length !== 2) return null;
  const [fp, fn] = cost.map(Number);
  const total = fp + fn;
  return total > 0 && Number.isFinite(total) ? fp / total : null;
}

/** The cost pair of p_t that keeps the total `total` (cost_fp + cost_fn) of the current pair. */
export function costFromPt(pt, total) {
  const p = Math.min(1, Math.max(0, Number(pt)));
  const t = total > 0 && Number.isFinite(total) ? total : 1;
  return [t * p, t * (1 - p)];
}

/**
 * The iso-cost line through (x0, y0) of slope `slope` (null: vertical) clipped to the unit square,
 * as [xa, ya, xb, yb] (xa ≤ xb), or null when it does not cross the square.
 */
export function isoCostSegment(x0, y0, slope) {
  if (![x0, y0].every(Number.isFinite)) return null;
  if (slope === null || slope === undefined || !Number.isFinite(slope)) {
    return x0 >= 0 && x0 <= 1 ? [x0, 0, x0, 1] : null;
  }
  if (slope === 0) return y0 >= 0 && y0 <= 1 ? [0, y0, 1, y0] : null;
  const at = (x) => y0 + slope * (x - x0);
  const xAt = (y) => x0 + (y - y0) / slope;
  let xa = Math.max(0, Math.min(xAt(0), xAt(1)));
  let xb = Math.min(1, Math.max(xAt(0), xAt(1)));
  if (xa > xb) return null;
  xa = Math.min(Math.max(xa, 0), 1);
  xb = Math.min(Math.max(xb, 0), 1);
  const clip = (y) => Math.min(1, Math.max(0, y));
  return [xa, clip(at(xa)), xb, clip(at(xb))];
}

/** The finite thresholds' [lo, hi] (a unit range around a single score; [0, 1] when none). */
export function finiteRange(thresholds) {
  let lo = Infinity;
  let hi = -Infinity;
  for (const t of thresholds) {
    if (Number.isFinite(t)) {
      if (t < lo) lo = t;
      if (t > hi) hi = t;
    }
  }
  if (lo > hi) return [0, 1];
  if (lo === hi) return [lo - 0.5, hi + 0.5];
  return [lo, hi];
}

/** Where each candidate stands on the cost panel's axis: its threshold, "none positive" right of the scores. */
export function candidateX(thresholds) {
  const [lo, hi] = finiteRange(thresholds);
  const none = hi + NONE_OFFSET * (hi - lo);
  return Float64Array.from(thresholds, (t) => (Number.isFinite(t) ? t : none));
}

/** The x domain of the cost panel: the scores and the "none positive" position, padded a little. */
export function xDomain(thresholds) {
  const [lo, hi] = finiteRange(thresholds);
  return [lo, hi + 2 * NONE_OFFSET * (hi - lo)];
}

/** The y domain of the cost panel: every finite value and band bound, padded; [0, 1] when none. */
export function yDomain(...arrays) {
  let lo = Infinity;
  let hi = -Infinity;
  for (const a of arrays) {
    for (const v of a) {
      if (Number.isFinite(v)) {
        if (v < lo) lo = v;
        if (v > hi) hi = v;
      }
    }
  }
  if (lo > hi) return [0, 1];
  const pad = hi > lo ? 0.04 * (hi - lo) : 0.5;
  return [lo - pad, hi + pad];
}

/** The runs of plausible candidates as [first, last] index pairs (inclusive). */
export function plausibleRuns(plausible) {
  const runs = [];
  let start = -1;
  for (let k = 0; k <= plausible.length; k++) {
    const on = k < plausible.length && plausible[k] > 0;
    if (on && start < 0) start = k;
    if (!on && start >= 0) {
      runs.push([start, k - 1]);
      start = -1;
    }
  }
  return runs;
}

/**
 * The span [left, right] of x a run of candidates stands for: candidate k stands for the thresholds
 * above candidate k − 1 up to its own (the first one from its own position).
 */
export function runSpan(xs, [first, last]) {
  return [xs[first > 0 ? first - 1 : first], xs[last]];
}

/** The rule of the chosen threshold, in words. */
export function ruleText(summary) {
  if (summary.none_positive) return "no example positive (threshold above every score)";
  if (summary.threshold === null || summary.threshold === undefined) return "";
  return `positive when score ≥ ${formatNumber(summary.threshold)}`;
}

/** One line about the chosen point: the rule, its counts, the value with both intervals. */
export function readout(summary) {
  if (!summary || summary.value === undefined) return "";
  const pct = Math.round((summary.confidence ?? 0.95) * 100);
  const [lo, hi] = summary.interval ?? [null, null];
  const [plo, phi] = summary.pointwise ?? [null, null];
  return (
    `${ruleText(summary)}: TP ${summary.tp}, FN ${summary.fn}, FP ${summary.fp}, TN ${summary.tn} · ` +
    `${summary.y_label} ${formatNumber(summary.value)}, ${pct}% after selection [${formatNumber(lo)}, ` +
    `${formatNumber(hi)}], as if fixed in advance [${formatNumber(plo)}, ${formatNumber(phi)}]`
  );
}

/** The slider's label: p_t and the cost pair (or why there is no slider). */
export function costText(summary) {
  if (!summary || !Array.isArray(summary.cost)) return `chosen by maximising ${summary?.objective ?? "a metric"}: no cost to vary`;
  const [fp, fn] = summary.cost;
  return `p_t ${formatNumber(summary.p_t)} · cost FP ${formatNumber(fp)}, FN ${formatNumber(fn)}`;
}

/** Whether two cost pairs are the same (to rounding); two missing costs are the same. */
export function sameCost(a, b) {
  const pa = ptFromCost(a);
  const pb = ptFromCost(b);
  if (pa === null || pb === null) return pa === pb;
  return a.every((v, i) => Math.abs(Number(v) - Number(b[i])) <= 1e-12 * Math.max(1, Math.abs(Number(v))));
}

/** What the view says while the cost asked for is not the one drawn ("" when they agree). */
export function pendingText(asked, summary) {
  if (sameCost(asked, summary?.cost) || ptFromCost(asked) === null) return "";
  return (
    `Asked for p_t ${formatNumber(ptFromCost(asked))}: the kernel recomputes the choice (a static page has no ` +
    `kernel; it keeps showing p_t ${formatNumber(ptFromCost(summary?.cost))}).`
  );
}
