// View geometry of the AuditView: grid layout, hit-testing, verdict colours and the scale of
// one cell's interval against its band. Nothing here judges bias: verdicts, values and
// intervals arrive from Python (confusionlab.bias.audit).
import { PALETTE } from "../shared/palette.js";

/** Verdict codes as Python sends them (one byte per cell); 255 = no row. */
export const VERDICTS = ["bias", "no material bias", "insufficient evidence"];

/** Fill colours per verdict code (PALETTE.verdicts: their own colours, never a group's). */
export const VERDICT_COLOURS = VERDICTS.map((verdict) => PALETTE.verdicts[verdict]);
/** Fill of a cell with no row (the page's background). */
export const EMPTY_COLOUR = PALETTE.theme.background;

/** Colour of a verdict code. */
export function verdictColour(code) {
  return VERDICT_COLOURS[code] ?? EMPTY_COLOUR;
}

/** Width in CSS pixels reserved for a text of n characters at the label font. */
export const textWidth = (n) => Math.ceil(n * 6.2) + 8;

/**
 * Layout of the grid: row labels on the left, metric names on top, square cells.
 * @returns {{labelWidth: number, headerHeight: number, cell: number, width: number, height: number}}
 */
export function gridLayout(groups, metrics, cell) {
  const longest = groups.reduce((m, g) => Math.max(m, String(g).length), 4);
  const labelWidth = Math.min(280, textWidth(longest));
  const headerHeight = 22;
  const width = labelWidth + metrics.length * cell + 1;
  const height = headerHeight + groups.length * cell + 1;
  return { labelWidth, headerHeight, cell, width, height };
}

/** Index (row-major) of the cell under (x, y) in CSS pixels, or -1 outside the grid. */
export function cellAt(layout, x, y, nGroups, nMetrics) {
  const col = Math.floor((x - layout.labelWidth) / layout.cell);
  const row = Math.floor((y - layout.headerHeight) / layout.cell);
  if (!(col >= 0 && col < nMetrics && row >= 0 && row < nGroups)) return -1;
  return row * nMetrics + col;
}

/** Cells per verdict: {bias, fair, insufficient, empty}. */
export function countVerdicts(codes) {
  const out = { bias: 0, fair: 0, insufficient: 0, empty: 0 };
  for (const c of codes) {
    if (c === 0) out.bias += 1;
    else if (c === 1) out.fair += 1;
    else if (c === 2) out.insufficient += 1;
    else out.empty += 1;
  }
  return out;
}

/**
 * Value range of the detail strip: the band no_bias ± margin, the value and the finite
 * interval ends, padded by 10 %. Infinite ends are drawn as arrows to the edge.
 * @returns {[number, number]}
 */
export function detailDomain(lower, upper, value, noBias, margin) {
  const points = [noBias - margin, noBias + margin, lower, upper, value].filter((v) => Number.isFinite(v));
  const lo = Math.min(...points);
  const hi = Math.max(...points);
  const pad = (hi - lo) * 0.1 || Math.max(Math.abs(lo), 1) * 0.1;
  return [lo - pad, hi + pad];
}

/** Pixel position of v on [d0, d1] → [r0, r1]; ±Infinity go to the ends. */
export function position(v, [d0, d1], r0, r1) {
  if (v === Infinity) return r1;
  if (v === -Infinity) return r0;
  const t = d1 > d0 ? (v - d0) / (d1 - d0) : 0.5;
  return r0 + Math.min(1, Math.max(0, t)) * (r1 - r0);
}
