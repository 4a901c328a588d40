// Pure helpers of the RocView / PrecisionRecallView: the plot's layout, the curve's vertices
// (the ROC staircase as given; the PR curve as the steps average precision sums), the band's
// polygon, the nearest point to a pixel and the operating point's readout. Nothing here
// computes a rate or a statistic: coordinates, counts and thresholds arrive from Python.
import { formatNumber } from "../shared/format.js";

/** Margins (CSS pixels) around the square plot. */
export const MARGINS = { left: 46, right: 12, top: 12, bottom: 40 };

/** The plot's box for a side of `size` CSS pixels, and the canvas size around it. */
export function layout(size) {
  const side = Math.max(50, size - MARGINS.left - MARGINS.right);
  const box = { left: MARGINS.left, top: MARGINS.top, width: side, height: side };
  return { box, width: MARGINS.left + side + MARGINS.right, height: MARGINS.top + side + MARGINS.bottom };
}

/** An index clamped to [0, count − 1] (0 when the curve is empty or the index is not a number). */
export function clampIndex(index, count) {
  if (!(count > 0) || !Number.isFinite(index)) return 0;
  return Math.min(count - 1, Math.max(0, Math.round(index)));
}

/**
 * The curve's vertices as a flat [x0, y0, x1, y1, …] array: for "roc" the points themselves
 * (the staircase: flat, vertical and, for tied blocks, diagonal steps); for "pr" each point k ≥ 1
 * is reached by the step (x_{k−1}, y_k) → (x_k, y_k).
 * @param {ArrayLike<number>} xs
 * @param {ArrayLike<number>} ys
 * @param {"roc"|"pr"} kind
 * @returns {Float64Array}
 */
export function curveVertices(xs, ys, kind) {
  const m = Math.min(xs.length, ys.length);
  if (kind !== "pr") {
    const out = new Float64Array(2 * m);
    for (let k = 0; k < m; k++) {
      out[2 * k] = xs[k];
      out[2 * k + 1] = ys[k];
    }
    return out;
  }
  if (m === 0) return new Float64Array(0);
  const out = new Float64Array(4 * m - 2);
  out[0] = xs[0];
  out[1] = ys[0];
  for (let k = 1; k < m; k++) {
    const j = 4 * k - 2;
    out[j] = xs[k - 1];
    out[j + 1] = ys[k];
    out[j + 2] = xs[k];
    out[j + 3] = ys[k];
  }
  return out;
}

/** The band as a closed polygon [x, y, …]: along the lower edge, back along the upper one. */
export function bandPolygon(xs, lower, upper) {
  const m = Math.min(xs.length, lower.length, upper.length);
  const out = new Float64Array(4 * m);
  for (let k = 0; k < m; k++) {
    out[2 * k] = xs[k];
    out[2 * k + 1] = lower[k];
    const j = 2 * (2 * m - 1 - k);
    out[j] = xs[k];
    out[j + 1] = upper[k];
  }
  return out;
}

/**
 * The index of the point nearest to the pixel (px, py), given the scales data → pixel.
 * @returns {number} −1 when there are no points
 */
export function nearestIndex(xs, ys, px, py, x, y) {
  let best = -1;
  let bestDistance = Infinity;
  for (let k = 0; k < Math.min(xs.length, ys.length); k++) {
    const dx = x(xs[k]) - px;
    const dy = y(ys[k]) - py;
    const d = dx * dx + dy * dy;
    if (d < bestDistance) {
      bestDistance = d;
      best = k;
    }
  }
  return best;
}

/** The operating point `index`: {x, y, tp, fp, threshold} (null when out of range). */
export function operatingPoint(state, index) {
  if (!(index >= 0 && index < state.count)) return null;
  return {
    x: state.x[index],
    y: state.y[index],
    tp: state.tp[index],
    fp: state.fp[index],
    threshold: state.thresholds[index],
  };
}

/** One line about the operating point, in words. */
export function readout(state, point) {
  if (!point) return "";
  const { p, n } = state.summary;
  const rule = point.threshold === Infinity ? "nobody called positive" : `positive when score ≥ ${formatNumber(point.threshold)}`;
  const axes = state.kind === "pr" ? ["recall", "precision"] : ["FPR", "TPR"];
  return (
    `${rule}: TP ${point.tp} of ${p}, FP ${point.fp} of ${n} · ` +
    `${axes[0]} ${formatNumber(point.x)}, ${axes[1]} ${formatNumber(point.y)}`
  );
}

/** The summary line: the statistic with its interval (the legend under the plot says what the band is). */
export function summaryText(summary) {
  if (!summary || summary.value === undefined) return "";
  const pct = Math.round((summary.confidence ?? 0.95) * 100);
  const [lo, hi] = summary.interval ?? [null, null];
  return (
    `${summary.label} ${formatNumber(summary.value)} · ${pct}% interval [${formatNumber(lo)}, ${formatNumber(hi)}] ` +
    `(${summary.method}) on ${summary.p} positives and ${summary.n} negatives`
  );
}

/**
 * The legend in words (issue 38): what the pale region and the dashed line are.
 * @returns {{mark: "band" | "dashed", text: string}[]} one item per mark drawn
 */
export function legendItems(summary, kind) {
  if (!summary || summary.value === undefined) return [];
  const pct = Math.round((summary.confidence ?? 0.95) * 100);
  const curve = kind === "pr" ? "precision–recall curve" : "ROC curve";
  const items = [
    {
      mark: "band",
      text:
        `pale region: with ${pct}% confidence the whole true ${curve} lies inside it ` +
        `(${summary.band}, for every point of the curve at once)`,
    },
  ];
  if (kind === "pr" && Number.isFinite(summary.baseline)) {
    items.push({
      mark: "dashed",
      text:
        `dashed: no skill, precision ${formatNumber(summary.baseline)} = the share of positives ` +
        `(${summary.p} of ${summary.p + summary.n}), what scores unrelated to the label give`,
    });
  } else if (kind !== "pr") {
    items.push({ mark: "dashed", text: "dashed: chance, what scores unrelated to the label give (AUC 0.5)" });
  }
  return items;
}

/** The label written on the plot beside the precision–recall chart's no-skill line. */
export const noSkillLabel = (baseline) => `no skill (${formatNumber(baseline)})`;
