// MetricPMF front-end: one canvas panel per model (same axes), drawn from the buffers.
import { decodeFloat32, decodeFloat64, decodeUint32 } from "../shared/buffers.js";
import { beginFrame, canvas2d, drawAxes, pixelRatio, segment } from "../shared/canvas.js";
import { cssVariableReader, resolveTheme } from "../shared/theme.js";
import { el, parts } from "../shared/dom.js";
import { redrawOnChange } from "../shared/redraw.js";
import { linearScale, maxOf, niceTicks } from "../shared/scale.js";
import { COMMON_KEYS, readCommonState, setCommonData } from "../shared/state.js";
import { PANEL_HEIGHTS, PANEL_MARGINS, histogram, nearestIndex, stickColumns } from "./geometry.js";
import { formatNumber, showsPruned } from "../shared/format.js";
import { PALETTE } from "../shared/palette.js";

export const KEYS = [
  ...COMMON_KEYS,
  "mode",
  "bins",
  "width",
  "_panels",
  "_offsets",
  "_values",
  "_probabilities",
  "_multiplicities",
  "_distinct",
  "_domain",
];

const MODEL_NAMES = { binomial: "Binomial", "beta-binomial": "Beta-binomial" };

/** A panel's colour: its model's, as in the lessons' figures (binomial orange, beta-binomial blue). */
export function panelColour(panel, theme) {
  return PALETTE.models[panel.model] ?? theme.foreground;
}


/** Read the model into panels of typed arrays; inconsistent buffers give empty panels. */
export function readState(model) {
  const get = (k) => model.get(k);
  const values = decodeFloat64(get("_values"));
  const probs = decodeFloat32(get("_probabilities"));
  const mult = decodeUint32(get("_multiplicities"));
  const distinct = decodeUint32(get("_distinct"));
  const offsets = get("_offsets") ?? [0];
  const summaries = get("_panels") ?? [];
  const total = offsets.at(-1) ?? 0;
  const consistent =
    values.length === total && probs.length === total && mult.length === total && distinct.length === total;
  const panels = summaries.map((summary, k) => {
    const [a, b] = consistent ? [offsets[k], offsets[k + 1]] : [0, 0];
    return {
      ...summary,
      values: values.subarray(a, b),
      probs: probs.subarray(a, b),
      mult: mult.subarray(a, b),
      distinctPer: distinct.subarray(a, b),
    };
  });
  return {
    ...readCommonState(model),
    mode: get("mode") === "histogram" ? "histogram" : "pmf",
    bins: get("bins") || 30,
    width: get("width") || 360,
    domain: get("_domain") ?? [0, 1],
    panels,
  };
}

/**
 * Marks of one panel in plot coordinates: bars {x0, x1, mass, count, distinct} over the
 * domain, from sticks (one per value, merged per pixel column when values are denser
 * than pixels) or histogram bins.
 */
export function panelMarks(panel, state, plotWidth) {
  const [lo, hi] = state.domain;
  if (state.mode === "histogram") {
    // Values outside the shown range (tails below 1e-6 of the mass) are left out, not
    // piled into the end bins, where their many matrices would inflate the counts.
    const h = histogram(panel.values, panel.probs, lo, hi, state.bins, panel.mult, false);
    const marks = [];
    for (let b = 0; b < state.bins; b++) {
      if (h.mass[b] > 0) marks.push({ x0: h.edges[b], x1: h.edges[b + 1], mass: h.mass[b], count: h.count[b] });
    }
    return { marks, merged: false };
  }
  const x = linearScale(lo, hi, 0, plotWidth);
  const dense = panel.values.length > plotWidth / 2;
  if (!dense) {
    const marks = [];
    for (let i = 0; i < panel.values.length; i++) {
      const v = panel.values[i];
      if (v < lo || v > hi) continue; // tails outside the shown range
      marks.push({ x0: v, x1: v, mass: panel.probs[i], count: panel.mult[i] });
    }
    return { marks, merged: false, scale: x };
  }
  const cols = stickColumns(panel.values, panel.probs, panel.mult, lo, hi, plotWidth);
  const marks = [];
  const step = (hi - lo) / cols.mass.length;
  for (let c = 0; c < cols.mass.length; c++) {
    if (cols.values[c] > 0) {
      const v = lo + (c + 0.5) * step;
      marks.push({ x0: v, x1: v, mass: cols.mass[c], count: cols.count[c] });
    }
  }
  return { marks, merged: true };
}

/** Height (CSS pixels) of a panel's canvas: the plot, the rug and the multiplicity strip. */
export function panelHeight() {
  const H = PANEL_HEIGHTS;
  return PANEL_MARGINS.top + H.plot + H.gap + H.rug + H.gap + H.counts + PANEL_MARGINS.bottom;
}

/** Draw one panel; returns the number of marks drawn. */
export function drawPanel(ctx, panel, state, theme, yMax, marksInfo, dpr = 1) {
  const M = PANEL_MARGINS;
  const H = PANEL_HEIGHTS;
  const width = state.width;
  const plotW = width - M.left - M.right;
  beginFrame(ctx, width, panelHeight(), dpr);
  const [lo, hi] = state.domain;
  const x = linearScale(lo, hi, M.left, M.left + plotW);
  const y = linearScale(0, yMax || 1, M.top + H.plot, M.top);
  const rugTop = M.top + H.plot + H.gap;
  const countsTop = rugTop + H.rug + H.gap;
  const countsBottom = countsTop + H.counts;
  // Central interval and mean.
  const [iLo, iHi] = panel.interval ?? [null, null];
  const colour = panelColour(panel, theme);
  if (iLo !== null && iHi !== null) {
    ctx.fillStyle = colour;
    ctx.globalAlpha = 0.13;
    const a = x(Math.max(lo, iLo));
    const b = x(Math.min(hi, iHi));
    ctx.fillRect(a, M.top, Math.max(1, b - a), H.plot);
    ctx.globalAlpha = 1;
  }
  // PMF marks.
  const { marks } = marksInfo;
  ctx.fillStyle = colour;
  ctx.strokeStyle = colour;
  const maxCount = Math.max(1, ...marks.map((m) => m.count));
  for (const m of marks) {
    const top = y(m.mass);
    if (m.x1 > m.x0) {
      const a = x(m.x0);
      const b = x(m.x1);
      ctx.globalAlpha = 0.75;
      ctx.fillRect(a + 0.5, top, Math.max(1, b - a - 1), M.top + H.plot - top);
      ctx.globalAlpha = 1;
    } else {
      ctx.fillRect(Math.round(x(m.x0)) - 0.5, top, 1.5, M.top + H.plot - top);
    }
    // Multiplicity strip: lattice points per value (or per bin).
    const ch = (H.counts * m.count) / maxCount;
    ctx.fillStyle = theme.muted;
    if (m.x1 > m.x0) ctx.fillRect(x(m.x0) + 0.5, countsBottom - ch, Math.max(1, x(m.x1) - x(m.x0) - 1), ch);
    else ctx.fillRect(Math.round(x(m.x0)) - 0.5, countsBottom - ch, 1, ch);
    ctx.fillStyle = colour;
  }
  // Rug: one tick per distinct value (per sent entry when aggregated).
  ctx.strokeStyle = theme.foreground;
  ctx.globalAlpha = 0.5;
  ctx.lineWidth = 1;
  ctx.beginPath();
  for (let i = 0; i < panel.values.length; i++) {
    const v = panel.values[i];
    if (!(v >= lo && v <= hi)) continue;
    const px = Math.round(x(v)) + 0.5;
    ctx.moveTo(px, rugTop);
    ctx.lineTo(px, rugTop + H.rug);
  }
  ctx.stroke();
  ctx.globalAlpha = 1;
  // Mean.
  if (panel.mean !== null && panel.mean !== undefined && panel.mean >= lo && panel.mean <= hi) {
    segment(ctx, x(panel.mean), M.top, x(panel.mean), countsBottom, { colour: theme.foreground, width: 2 });
  }
  // Axes: the metric across, the probability of each value up.
  drawAxes(ctx, theme, {
    box: { left: M.left, top: M.top, width: plotW, height: H.plot },
    x,
    y,
    xTicks: niceTicks(lo, hi, Math.max(2, Math.floor(plotW / 70))),
    yTicks: niceTicks(0, yMax || 1, 4),
    xTickY: countsBottom + 4,
    xTitle: state.label,
    xTitleY: countsBottom + 17,
    yTitle: state.mode === "histogram" ? "probability per bin" : "probability",
    yTitleX: 2,
    yTitleBaseline: "top",
  });
  ctx.textAlign = "right";
  ctx.textBaseline = "middle";
  ctx.fillText("count", M.left - 4, countsTop + H.counts / 2);
  return marks.length;
}

/** Text summary of a panel (set with textContent). */
export function panelSummary(panel, state) {
  const name = MODEL_NAMES[panel.model] ?? String(panel.model);
  const pct = Math.round((panel.confidence ?? 0.95) * 100);
  const [a, b] = panel.interval ?? [null, null];
  let text =
    `${name}: mean ${formatNumber(panel.mean)} · sd ${formatNumber(panel.std)} · ` +
    `${pct}% interval [${formatNumber(a)}, ${formatNumber(b)}] · ${panel.distinct} distinct values ` +
    `over ${panel.lattice_points} matrices`;
  if (showsPruned(panel.undefined_mass)) text += ` · undefined mass ${formatNumber(panel.undefined_mass)} (counted as 0)`;
  return text;
}

/** How a panel was computed and sent (its summary's tooltip, not the visible text). */
export function panelDetails(panel) {
  const notes = [];
  // A mass no printed digit of the interval can show (as for the pruned tail) is named here only.
  if (panel.undefined_mass > 0 && !showsPruned(panel.undefined_mass)) {
    notes.push(`undefined mass ${formatNumber(panel.undefined_mass)} (counted as 0)`);
  }
  if (panel.aggregated) notes.push(`sent aggregated into ${panel.values.length} bins`);
  if (showsPruned(panel.pruned_mass)) notes.push(`pruned tail mass ${formatNumber(panel.pruned_mass)}`);
  return notes.join(" · ");
}

/** The view's title line (plain text). */
export function titleText(state) {
  return (
    `PMF of ${state.label} for a new test set like TP = ${state.tp}, FN = ${state.p - state.tp}, ` +
    `FP = ${state.n - state.tn}, TN = ${state.tn}` +
    (state.mode === "histogram" ? ` (histogram, ${state.bins} bins)` : "") +
    ` · shown: ${formatNumber(state.domain[0])} to ${formatNumber(state.domain[1])}`
  );
}

/** How the sticks were drawn (the title's tooltip): merged per pixel column when denser than the pixels. */
export const titleDetails = (merged) => (merged ? "sticks closer than a pixel are merged into one" : "");

/** anywidget entry point. */
export function render({ model, el: host }) {
  const root = el("div", "confusionlab-metric-pmf", host);
  const { title, row, hover } = parts(root, { title: "cl-title", row: "cl-panels", hover: "cl-hover" });
  let views = [];
  let state = null;
  let infos = [];

  const draw = () => {
    const started = typeof performance !== "undefined" ? performance.now() : 0;
    state = readState(model);
    const theme = resolveTheme(cssVariableReader(root));
    const dpr = pixelRatio();
    root.dataset.theme = theme.background; // the theme the canvas was drawn with
    while (views.length > state.panels.length) views.pop().box.remove();
    while (views.length < state.panels.length) {
      const box = el("div", "cl-panel", row);
      const view = { box, ...parts(box, { heading: "cl-panel-title", canvas: ["canvas", "cl-canvas"], summary: "cl-summary" }) };
      view.canvas.setAttribute("role", "img");
      view.canvas.addEventListener("pointermove", (event) => onMove(event, views.indexOf(view)));
      views.push(view);
    }
    const plotW = state.width - PANEL_MARGINS.left - PANEL_MARGINS.right;
    infos = state.panels.map((panel) => panelMarks(panel, state, plotW));
    const yMax = Math.max(...infos.map((info) => maxOf(info.marks.map((m) => m.mass))), 0);
    let marks = 0;
    state.panels.forEach((panel, k) => {
      const { heading, canvas, summary } = views[k];
      const ctx = canvas2d(canvas, state.width, panelHeight(), dpr);
      if (ctx) marks += drawPanel(ctx, panel, state, theme, yMax * 1.05, infos[k], dpr);
      heading.textContent = MODEL_NAMES[panel.model] ?? String(panel.model);
      summary.textContent = panelSummary(panel, state);
      summary.title = panelDetails(panel);
      canvas.setAttribute(
        "aria-label",
        `${MODEL_NAMES[panel.model] ?? panel.model} PMF of ${state.label}: ${panel.distinct} distinct values`,
      );
    });
    title.textContent = titleText(state);
    title.title = titleDetails(infos.some((i) => i.merged));
    setCommonData(root, state);
    const d = root.dataset;
    d.mode = state.mode;
    d.values = state.panels.map((panel) => String(panel.distinct)).join(",");
    d.marks = String(marks);
    if (started) d.drawMs = (performance.now() - started).toFixed(1);
  };

  const onMove = (event, k) => {
    if (!state || k < 0 || !state.panels[k]) return;
    const panel = state.panels[k];
    const rect = views[k].canvas.getBoundingClientRect();
    const [lo, hi] = state.domain;
    const plotW = state.width - PANEL_MARGINS.left - PANEL_MARGINS.right;
    const v = linearScale(PANEL_MARGINS.left, PANEL_MARGINS.left + plotW, lo, hi)(event.clientX - rect.left);
    const i = nearestIndex(panel.values, v);
    if (i < 0) {
      hover.textContent = "";
      return;
    }
    const what = panel.aggregated ? `bin of ${panel.distinctPer[i]} values near` : "value";
    hover.textContent =
      `${MODEL_NAMES[panel.model] ?? panel.model}: ${what} ${formatNumber(panel.values[i])} · ` +
      `P = ${formatNumber(panel.probs[i])} · ${panel.mult[i]} matrices`;
  };

  // Canvas colours come from the theme's CSS variables: a theme switch redraws too.
  const redraw = redrawOnChange(model, KEYS, draw);
  draw();
  return () => redraw.dispose();
}
