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
 * interval ends, padded by 10 % and rounded outwards to a round step (1, 2, 2.5 or 5 × 10^k,
 * about an eighth of the range), so the axis ends read as round numbers. Infinite ends are
 * drawn as arrows to the edge.
 * @returns {[number, number]}
 */
export function detailDomain(lower, upper, value, noBias, margin) {
  const points = [noBias - margin, noBias + margin, lower, upper, value].filter((v) => Number.isFinite(v));
  const lo = Math.min(...points);
  const hi = Math.max(...points);
  const pad = (hi - lo) * 0.1 || Math.max(Math.abs(lo), 1) * 0.1;
  const raw = (hi - lo + 2 * pad) / 8;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * mag).find((t) => t >= raw * (1 - 1e-9)) ?? 10 * mag;
  const round = (v) => Number(v.toPrecision(12));
  return [round(Math.floor(round((lo - pad) / step)) * step), round(Math.ceil(round((hi + pad) / step)) * step)];
}

/**
 * Why a cell is "insufficient evidence", from its numbers (issue 38): no interval; an interval that
 * straddles an edge of the band (narrower than the band: the value sits near the margin, more rows
 * may not settle it; wider: too few rows); or, for an interval wholly on one side, a group so small
 * that any table of its size would have given the same verdict.
 */
export function insufficientReason(lower, upper, noBias, margin, n) {
  if (Number.isNaN(lower) || Number.isNaN(upper)) return "no interval could be computed for this cell";
  const lo = noBias - margin;
  const hi = noBias + margin;
  const f = (v) => (Number.isFinite(v) ? String(Number(v.toPrecision(4))) : v > 0 ? "∞" : "−∞");
  // As the verdict's rule (bias/results.verdict_of): overlapping the closed band, not inside it.
  const straddles = !(upper < lo || lower > hi) && !(lo <= lower && upper <= hi);
  if (straddles) {
    const edges = [...new Set([...(lower < lo ? [lo] : []), ...(upper > hi ? [hi] : [])])];
    const where =
      edges.length === 2 ? `both edges of the band (${f(lo)} and ${f(hi)})` : `the band's edge at ${f(edges[0])}`;
    const width = upper - lower;
    const why =
      width < 2 * margin
        ? `the interval is narrower than the band (${f(width)} against ${f(2 * margin)}), so the data are ` +
          `plentiful: the disparity lies close to the margin itself, and more rows may not settle it`
        : `the interval is ${Number.isFinite(width) ? `wider than the band (${f(width)} against ${f(2 * margin)})` : "unbounded"}: ` +
          `more rows would narrow it`;
    return `why: the interval straddles ${where}, so it is neither wholly inside nor wholly outside; ${why}`;
  }
  return (
    `why: the interval lies on one side of the band, but a group of ${f(n)} rows would give a value on that ` +
    `side whatever its rows were, so the verdict could not have come out otherwise`
  );
}

/** Pixel position of v on [d0, d1] → [r0, r1]; ±Infinity go to the ends. */
export function position(v, [d0, d1], r0, r1) {
  if (v === Infinity) return r1;
  if (v === -Infinity) return r0;
  const t = d1 > d0 ? (v - d0) / (d1 - d0) : 0.5;
  return r0 + Math.min(1, Math.max(0, t)) * (r1 - r0);
}
