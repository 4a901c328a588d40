// DecisionCurveView front-end: the net benefit of each model, of treating all and of treating
// none over the threshold probabilities, each model's pointwise interval (darker shade) and
// simultaneous band (lighter shade), and a threshold cursor whose readout gives each model's net
// benefit with its interval, its band and P(useful) there. Python sends every number; the cursor
// only picks a column, so it works offline (the static export) too.
import { decodeFloat64 } from "../shared/buffers.js";
import { beginFrame, canvas2d, drawAxes, listen, pixelRatio, segment } from "../shared/canvas.js";
import { el, parts } from "../shared/dom.js";
import { formatNumber } from "../shared/format.js";
import { PALETTE } from "../shared/palette.js";
import { redrawOnChange } from "../shared/redraw.js";
import { niceTicks } from "../shared/scale.js";
import { cssVariableReader, resolveTheme } from "../shared/theme.js";
import { consistent, layout, nearestIndex, readoutLines, row, scales, xDomain, yDomain } from "./geometry.js";

/** Model keys whose change redraws. */
export const KEYS = [
  "confidence",
  "threshold",
  "width",
  "generation",
  "_thresholds",
  "_net_benefit",
  "_lower",
  "_upper",
  "_band_lower",
  "_band_upper",
  "_prob_useful",
  "_summary",
];

/** Opacity of the simultaneous band (lighter) and of the pointwise interval (darker). */
export const BAND_ALPHA = 0.13;
export const INTERVAL_ALPHA = 0.3;

/** Colour of model `m` (the palette's contour colours, in turn). */
export function modelColour(m) {
  const colours = PALETTE.contours;
  return colours[m % colours.length];
}

/** Colour of strategy `s`: a model's, treating all in the muted grey, treating none in the foreground. */
export function strategyColour(state, s, theme) {
  if (s < state.models) return modelColour(s);
  return s === state.models ? theme.muted : theme.foreground;
}

/** Read the model into typed arrays and the summary. */
export function readState(model) {
  const get = (k) => model.get(k);
  const summary = get("_summary") ?? {};
  return {
    confidence: get("confidence") ?? 0.95,
    threshold: get("threshold") ?? 0,
    width: get("width") || 640,
    generation: get("generation") ?? 0,
    thresholds: decodeFloat64(get("_thresholds")),
    netBenefit: decodeFloat64(get("_net_benefit")),
    lower: decodeFloat64(get("_lower")),
    upper: decodeFloat64(get("_upper")),
    bandLower: decodeFloat64(get("_band_lower")),
    bandUpper: decodeFloat64(get("_band_upper")),
    probUseful: decodeFloat64(get("_prob_useful")),
    names: Array.isArray(summary.names) ? summary.names.map(String) : [],
    models: Number.isInteger(summary.models) ? summary.models : 0,
    summary,
  };
}

/** Fill the region between `lower` and `upper` over `xs` (non-finite columns skipped); true if filled. */
export function fillBetween(ctx, xs, lower, upper, x, y) {
  const keep = [];
  for (let k = 0; k < xs.length; k++) {
    if (Number.isFinite(lower[k]) && Number.isFinite(upper[k]) && Number.isFinite(xs[k])) keep.push(k);
  }
  if (keep.length === 0) return false;
  ctx.beginPath();
  keep.forEach((k, i) => (i === 0 ? ctx.moveTo(x(xs[k]), y(lower[k])) : ctx.lineTo(x(xs[k]), y(lower[k]))));
  for (let i = keep.length - 1; i >= 0; i--) ctx.lineTo(x(xs[keep[i]]), y(upper[keep[i]]));
  ctx.closePath();
  ctx.fill();
  return true;
}

/** Stroke the line through (xs, ys), broken at non-finite values; true if anything was drawn. */
export function strokeLine(ctx, xs, ys, x, y) {
  let drawing = false;
  let any = false;
  ctx.beginPath();
  for (let k = 0; k < xs.length; k++) {
    if (!Number.isFinite(ys[k])) {
      drawing = false;
      continue;
    }
    if (drawing) ctx.lineTo(x(xs[k]), y(ys[k]));
    else ctx.moveTo(x(xs[k]), y(ys[k]));
    drawing = true;
    any = true;
  }
  ctx.stroke();
  return any;
}

/**
 * The decision curve: per model its band (lighter) and interval (darker) shaded and its line;
 * treating all with its interval; treating none; the cursor at column `index`; the axes and a
 * legend. Returns `{lines, shaded}` drawn.
 */
export function drawCurve(ctx, state, theme, geometry, index) {
  const { box } = geometry;
  const xs = state.thresholds;
  const domainX = xDomain(xs);
  const domainY = yDomain(state.summary);
  const { x, y } = scales(box, domainX, domainY);
  let lines = 0;
  let shaded = 0;
  if (consistent(state)) {
    const K = xs.length;
    ctx.save();
    ctx.beginPath();
    ctx.rect(box.left, box.top, box.width, box.height);
    ctx.clip();
    for (let s = 0; s < state.models; s++) {
      ctx.fillStyle = modelColour(s);
      ctx.globalAlpha = BAND_ALPHA;
      shaded += fillBetween(ctx, xs, row(state.bandLower, s, K), row(state.bandUpper, s, K), x, y) ? 1 : 0;
      ctx.globalAlpha = INTERVAL_ALPHA;
      shaded += fillBetween(ctx, xs, row(state.lower, s, K), row(state.upper, s, K), x, y) ? 1 : 0;
    }
    const all = state.models;
    ctx.fillStyle = theme.muted;
    ctx.globalAlpha = BAND_ALPHA;
    shaded += fillBetween(ctx, xs, row(state.lower, all, K), row(state.upper, all, K), x, y) ? 1 : 0;
    ctx.globalAlpha = 1;
    for (let s = 0; s < state.names.length; s++) {
      ctx.strokeStyle = strategyColour(state, s, theme);
      ctx.lineWidth = s < state.models ? 1.8 : 1.2;
      lines += strokeLine(ctx, xs, row(state.netBenefit, s, K), x, y) ? 1 : 0;
    }
    ctx.restore();
    if (index >= 0) {
      const px = x(xs[index]);
      segment(ctx, px, box.top, px, box.top + box.height, { colour: theme.foreground, width: 1, dash: [3, 3] });
      for (let s = 0; s < state.models; s++) {
        const v = state.netBenefit[s * K + index];
        if (!Number.isFinite(v)) continue;
        ctx.fillStyle = modelColour(s);
        ctx.beginPath();
        ctx.arc(px, Math.min(Math.max(y(v), box.top), box.top + box.height), 3.5, 0, 2 * Math.PI);
        ctx.fill();
      }
    }
    drawLegend(ctx, state, theme, box);
  }
  drawAxes(ctx, theme, {
    box,
    x,
    y,
    xTicks: niceTicks(domainX[0], domainX[1], 6),
    yTicks: niceTicks(domainY[0], domainY[1], 5),
    format: formatNumber,
    xTitle: "threshold probability p_t (treat when the risk is at least p_t)",
    yTitle: "net benefit",
    xTitleY: box.top + box.height + 22,
    yTitleX: box.left - 44,
  });
  return { lines, shaded };
}

/** Most models the legend names (then "… and k more"; treating all and none are always named). */
export const LEGEND_MODELS = 8;

/** The legend's entries: [strategy index, text], the models first (at most LEGEND_MODELS), then the references. */
export function legendEntries(state) {
  const shown = Math.min(state.models, LEGEND_MODELS);
  const entries = [];
  for (let s = 0; s < shown; s++) entries.push([s, state.names[s]]);
  if (state.models > shown) entries.push([-1, `… and ${state.models - shown} more`]);
  for (let s = state.models; s < state.names.length; s++) entries.push([s, state.names[s]]);
  return entries.map(([s, name]) => [s, name.length > 40 ? `${name.slice(0, 39)}…` : name]);
}

/** The legend, top right inside the box: a short line in each strategy's colour and its name (text). */
export function drawLegend(ctx, state, theme, box) {
  ctx.font = `10px ${theme.font}`;
  ctx.textAlign = "right";
  ctx.textBaseline = "middle";
  const right = box.left + box.width - 8;
  legendEntries(state).forEach(([s, label], k) => {
    const py = box.top + 10 + 13 * k;
    if (s >= 0) segment(ctx, right - 16, py, right, py, { colour: strategyColour(state, s, theme), width: 2 });
    ctx.fillStyle = theme.foreground;
    ctx.fillText(label, right - 20, py);
  });
}

/** anywidget entry point. */
export function render({ model, el: host }) {
  const root = el("div", "confusionlab-decision-curve", host);
  const { title, summary, canvas, controls, info, note } = parts(root, {
    title: "cl-title",
    summary: "cl-summary",
    canvas: ["canvas", "cl-canvas"],
    controls: "cl-controls",
    info: "cl-readout",
    note: "cl-note",
  });
  canvas.setAttribute("role", "img");
  canvas.setAttribute(
    "aria-label",
    "decision curve: net benefit of each model, of treating all and of treating none, with intervals and bands",
  );
  const { label, slider } = parts(controls, { label: ["label", "cl-threshold-label"], slider: ["input", "cl-threshold"] });
  slider.type = "range";
  slider.min = "0";
  slider.step = "1";
  slider.setAttribute("aria-label", "threshold probability p_t of the readout");

  const draw = () => {
    const state = readState(model);
    const theme = resolveTheme(cssVariableReader(root));
    const dpr = pixelRatio();
    const geometry = layout(state.width);
    const index = nearestIndex(state.thresholds, state.threshold);
    const ctx = canvas2d(canvas, geometry.width, geometry.height, dpr);
    let drawn = { lines: 0, shaded: 0 };
    if (ctx) {
      beginFrame(ctx, geometry.width, geometry.height, dpr);
      drawn = drawCurve(ctx, state, theme, geometry, index);
    }
    const s = state.summary;
    const K = state.thresholds.length;
    slider.max = String(Math.max(0, K - 1));
    slider.disabled = K < 2;
    if (index >= 0 && document.activeElement !== slider) slider.value = String(index);
    label.textContent = index >= 0 ? `p_t = ${formatNumber(state.thresholds[index])}` : "";
    title.textContent = s.title ?? "";
    summary.textContent = s.text ?? "";
    info.replaceChildren();
    for (const line of readoutLines(state, index)) el("div", "cl-readout-line", info).textContent = line;
    note.textContent = s.note ?? "";
    const ok = consistent(state) && index >= 0;
    const pick = (buffer) => Array.from({ length: state.models }, (_, m) => String(buffer[m * K + index])).join(";");
    const d = root.dataset;
    d.strategies = String(state.names.length);
    d.models = String(state.models);
    d.thresholds = String(K);
    d.lines = String(drawn.lines);
    d.shaded = String(drawn.shaded);
    d.index = String(index);
    d.threshold = index >= 0 ? String(state.thresholds[index]) : "";
    d.netBenefit = ok ? pick(state.netBenefit) : "";
    d.probUseful = ok ? pick(state.probUseful) : "";
    d.confidence = String(state.confidence);
    d.generation = String(state.generation);
  };

  /** The slider moved: the cursor's threshold, kept in the model (and sent to Python when there is one). */
  const onSlider = () => {
    const thresholds = decodeFloat64(model.get("_thresholds"));
    const k = Number(slider.value);
    if (!(k >= 0 && k < thresholds.length)) return;
    model.set("threshold", thresholds[k]);
    model.save_changes();
  };

  const redraw = redrawOnChange(model, KEYS, draw);
  const unlisten = listen([[slider, "input", onSlider]]);
  draw();
  return () => {
    redraw.dispose();
    unlisten();
  };
}
