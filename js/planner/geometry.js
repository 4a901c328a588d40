// Planner view geometry: pure functions (scales, the curve's path, the plan's mark), tested by vitest.
import { linearScale, niceTicks } from "../shared/scale.js";

export const MARGINS = { left: 56, right: 16, top: 14, bottom: 38 };
export const HEIGHT = 300;

/**
 * The drawing frame: x over the N range, y from 0 to the largest finite half-width shown
 * (the requested half-width included), with round ticks.
 */
export function frame(state, width) {
  const [lo, hi] = state.range;
  let yMax = state.requestedHalfWidth || 0;
  for (const arr of [state.approxH, state.exactH]) {
    for (let i = 0; i < arr.length; i++) if (Number.isFinite(arr[i]) && arr[i] > yMax) yMax = arr[i];
  }
  yMax = yMax > 0 ? yMax * 1.08 : 1;
  const x = linearScale(lo, hi, MARGINS.left, width - MARGINS.right);
  const y = linearScale(0, yMax, HEIGHT - MARGINS.bottom, MARGINS.top);
  return { x, y, yMax, xTicks: niceTicks(lo, hi, 6), yTicks: niceTicks(0, yMax, 5) };
}

/**
 * The approximation as a step line: each N holds its value until the next N, so the
 * jumps of the rounded counts show as vertical segments. NaN breaks the line.
 * @returns {Array<Array<[number, number]>>} polylines in pixels
 */
export function stepPaths(ns, hs, x, y) {
  const paths = [];
  let current = null;
  for (let i = 0; i < ns.length; i++) {
    if (!Number.isFinite(hs[i])) {
      current = null;
      continue;
    }
    if (!current) {
      current = [];
      paths.push(current);
    } else {
      current.push([x(ns[i]), current[current.length - 1][1]]);
    }
    current.push([x(ns[i]), y(hs[i])]);
  }
  return paths;
}

/** Count the upward jumps of a sequence (where the half-width grows with N). */
export function upwardJumps(hs) {
  let count = 0;
  for (let i = 1; i < hs.length; i++) if (hs[i] > hs[i - 1]) count += 1;
  return count;
}

/** The one-line summary of a plan. */
export function planSummary(plan, label) {
  if (!plan || plan.N === undefined) return "";
  const h = plan.half_width == null ? "∞" : plan.half_width.toFixed(4);
  const pct = Math.round((plan.confidence ?? 0.95) * 100);
  if (!plan.reached) {
    return `Not reached: no N up to the maximum gives ± ${plan.requested_half_width}; best N = ${plan.N.toLocaleString("en-US")} (± ${h}).`;
  }
  const question = plan.target === "next_test_set" ? "for a new test set" : "for the true value";
  const stable =
    plan.N_stable != null && plan.N_stable !== plan.N
      ? ` Every N from ${plan.N_stable.toLocaleString("en-US")} on meets it.`
      : "";
  return (
    `${label}: N = ${plan.N.toLocaleString("en-US")} (${plan.p} positives, ${plan.n} negatives) ` +
    `gives a ${pct} % interval of ± ${h} ≤ ${plan.requested_half_width} ${question}.${stable}${clusteredText(plan)}`
  );
}

/** With clustered rows (icc=, cluster_size=): the clustered plan beside the independent one. */
export function clusteredText(plan) {
  if (plan.N_clustered == null) return "";
  return (
    ` Clustered rows (ICC ${plan.icc}, clusters of ${plan.cluster_size} rows, design effect ` +
    `${Number(plan.design_effect.toFixed(3))}): plan ${plan.N_clustered.toLocaleString("en-US")} rows in ` +
    `${plan.n_clusters.toLocaleString("en-US")} clusters.`
  );
}
