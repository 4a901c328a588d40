// CalibrationView front-end: the reliability diagram with the exact consistency band, the
// forecasts' histogram below it, and ECE with its interval and the p-value in words.
// Python sends every number (binary buffers and a summary); the browser only scales and draws.
import { decodeFloat32, decodeFloat64 } from "../shared/buffers.js";
import { beginFrame, canvas2d, drawAxes, pixelRatio, segment } from "../shared/canvas.js";
import { el, parts } from "../shared/dom.js";
import { PALETTE } from "../shared/palette.js";
import { redrawOnChange } from "../shared/redraw.js";
import { maxOf, niceTicks } from "../shared/scale.js";
import { cssVariableReader, resolveTheme } from "../shared/theme.js";
import { MARGINS, consistentBins, histogramBox, reliabilityBox, scales } from "./geometry.js";

/** Colour of a bin whose observed frequency lies outside the band. */
export const OUTSIDE_COLOUR = PALETTE.theme.warning;

export const KEYS = [
  "confidence",
  "width",
  "generation",
  "_x",
  "_observed",
  "_lower",
  "_upper",
  "_counts",
  "_outside",
  "_hist_edges",
  "_hist_counts",
  "_summary",
];

/** Read the model into typed arrays and the summary. */
export function readState(model) {
  const get = (k) => model.get(k);
  return {
    confidence: get("confidence") ?? 0.95,
    width: get("width") || 420,
    generation: get("generation") ?? 0,
    x: decodeFloat64(get("_x")),
    observed: decodeFloat64(get("_observed")),
    lower: decodeFloat64(get("_lower")),
    upper: decodeFloat64(get("_upper")),
    counts: decodeFloat64(get("_counts")),
    outside: decodeFloat32(get("_outside")),
    histEdges: decodeFloat64(get("_hist_edges")),
    histCounts: decodeFloat64(get("_hist_counts")),
    summary: get("_summary") ?? {},
  };
}

/** Height of the reliability canvas for a width. */
export function reliabilityHeight(width) {
  const box = reliabilityBox(width);
  return box.top + box.height + MARGINS.bottom;
}

/**
 * The reliability diagram: the diagonal, each bin's band as a bar at its mean forecast,
 * the observed frequencies joined by a line (outside the band in the warning colour).
 * Returns `{points, bands}` drawn.
 */
export function drawReliability(ctx, state, theme, dpr = 1) {
  const W = state.width;
  const box = reliabilityBox(W);
  beginFrame(ctx, W, reliabilityHeight(W), dpr);
  const { x, y } = scales(box);
  segment(ctx, x(0), y(0), x(1), y(1), { colour: theme.muted, width: 1, dash: [4, 4] });
  if (!consistentBins(state)) return { points: 0, bands: 0 };
  const n = state.x.length;
  let bands = 0;
  ctx.fillStyle = theme.accent;
  ctx.globalAlpha = 0.22;
  for (let b = 0; b < n; b++) {
    const lo = state.lower[b];
    const hi = state.upper[b];
    if (!(hi >= lo)) continue;
    const px = x(state.x[b]);
    ctx.fillRect(px - 4, y(hi), 8, Math.max(1, y(lo) - y(hi)));
    bands += 1;
  }
  ctx.globalAlpha = 1;
  ctx.strokeStyle = theme.accent;
  ctx.lineWidth = 1.2;
  ctx.beginPath();
  for (let b = 0; b < n; b++) {
    const px = x(state.x[b]);
    const py = y(state.observed[b]);
    if (b === 0) ctx.moveTo(px, py);
    else ctx.lineTo(px, py);
  }
  ctx.stroke();
  let points = 0;
  for (let b = 0; b < n; b++) {
    ctx.fillStyle = state.outside[b] ? OUTSIDE_COLOUR : theme.accent;
    ctx.beginPath();
    ctx.arc(x(state.x[b]), y(state.observed[b]), 3.5, 0, 2 * Math.PI);
    ctx.fill();
    points += 1;
  }
  const ticks = niceTicks(0, 1, 5);
  drawAxes(ctx, theme, {
    box,
    x,
    y,
    xTicks: ticks,
    yTicks: ticks,
    xTitle: "mean forecast",
    yTitle: "observed frequency",
  });
  return { points, bands };
}

/** The forecasts' histogram (counts per equal-width bin over [0, 1]); returns the bars drawn. */
export function drawHistogram(ctx, state, theme, dpr = 1) {
  const W = state.width;
  const box = histogramBox(W);
  beginFrame(ctx, W, box.top + box.height + MARGINS.bottom, dpr);
  const edges = state.histEdges;
  const counts = state.histCounts;
  if (edges.length !== counts.length + 1) return 0;
  const { x, y } = scales(box, maxOf(counts));
  ctx.fillStyle = theme.muted;
  let bars = 0;
  for (let i = 0; i < counts.length; i++) {
    if (!(counts[i] > 0)) continue;
    const left = x(edges[i]);
    const top = y(counts[i]);
    ctx.fillRect(left, top, Math.max(1, x(edges[i + 1]) - left - 1), box.top + box.height - top);
    bars += 1;
  }
  drawAxes(ctx, theme, { box, frame: "base", x, xTicks: niceTicks(0, 1, 5), xTitle: "forecast (histogram)" });
  return bars;
}

/** The title line: ECE with its interval and the Brier score. */
export function titleText(summary) {
  if (summary.ece === undefined) return "";
  const pct = Math.round((summary.confidence ?? 0.95) * 100);
  const [a, b] = summary.interval ?? [null, null];
  const [c, d] = summary.brier_interval ?? [null, null];
  const f = (v) => (v === null || v === undefined ? "undefined" : Number(v).toPrecision(3));
  return `ECE ${f(summary.ece)} (${pct}% interval [${f(a)}, ${f(b)}]) · Brier score ${f(summary.brier)} [${f(c)}, ${f(d)}]`;
}

/** anywidget entry point. */
export function render({ model, el: host }) {
  const root = el("div", "confusionlab-calibration", host);
  const { title, canvas, histogram, note, verdict, error } = parts(root, {
    title: "cl-title",
    canvas: ["canvas", "cl-reliability"],
    histogram: ["canvas", "cl-histogram"],
    note: "cl-note",
    verdict: "cl-verdict",
    error: "cl-error",
  });
  canvas.setAttribute("role", "img");
  canvas.setAttribute("aria-label", "reliability diagram with the consistency band");
  histogram.setAttribute("role", "img");
  histogram.setAttribute("aria-label", "histogram of the forecasts");

  const draw = () => {
    const state = readState(model);
    const theme = resolveTheme(cssVariableReader(root));
    const dpr = pixelRatio();
    const W = state.width;
    const ctx = canvas2d(canvas, W, reliabilityHeight(W), dpr);
    const drawn = ctx ? drawReliability(ctx, state, theme, dpr) : { points: 0, bands: 0 };
    const box = histogramBox(W);
    const hctx = canvas2d(histogram, W, box.top + box.height + MARGINS.bottom, dpr);
    const bars = hctx ? drawHistogram(hctx, state, theme, dpr) : 0;
    const s = state.summary;
    title.textContent = titleText(s);
    note.textContent = s.note ?? "";
    verdict.textContent = s.verdict ?? "";
    error.textContent = s.error_note ?? "";
    error.title = s.error_detail ?? "";
    const d = root.dataset;
    d.bins = String(state.x.length);
    d.points = String(drawn.points);
    d.bands = String(drawn.bands);
    d.bars = String(bars);
    d.outside = String(s.outside ?? 0);
    d.confidence = String(state.confidence);
    d.ece = String(s.ece ?? "");
    d.pValue = String(s.p_value ?? "");
    d.generation = String(state.generation);
  };

  const redraw = redrawOnChange(model, KEYS, draw);
  draw();
  return () => redraw.dispose();
}
