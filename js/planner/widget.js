// PlannerView front-end: sliders that set the model, and a canvas with half-width against N.
import { decodeFloat64 } from "../shared/buffers.js";
import { beginFrame, canvas2d, pixelRatio, segment } from "../shared/canvas.js";
import { cssVariableReader, resolveTheme } from "../shared/theme.js";
import { el } from "../shared/dom.js";
import { PALETTE } from "../shared/palette.js";
import { redrawOnChange } from "../shared/redraw.js";
import { HEIGHT, MARGINS, frame, planSummary, stepPaths, upwardJumps } from "./geometry.js";

export const KEYS = [
  "metric",
  "prevalence",
  "tpr",
  "tnr",
  "mode",
  "value",
  "half_width",
  "confidence",
  "width",
  "generation",
  "_plan",
  "_exact_n",
  "_exact_h",
  "_approx_n",
  "_approx_h",
  "_metric_label",
];

/** Slider definitions: model key, label, min, max, step. */
export const SLIDERS = [
  ["prevalence", "prevalence", 0.01, 0.99, 0.01],
  ["tpr", "TPR", 0.01, 0.99, 0.01],
  ["tnr", "TNR", 0.01, 0.99, 0.01],
  ["value", "expected value", -0.99, 0.99, 0.01],
  ["half_width", "half-width ±", 0.005, 0.3, 0.005],
  ["confidence", "confidence", 0.5, 0.99, 0.01],
];

/** Colour of a plan that does not reach the half-width asked for. */
export const UNREACHED_COLOUR = PALETTE.theme.warning;

/** Read the model into plain arrays (inconsistent buffers give empty curves). */
export function readState(model) {
  const get = (k) => model.get(k);
  let approxN = decodeFloat64(get("_approx_n"));
  let approxH = decodeFloat64(get("_approx_h"));
  let exactN = decodeFloat64(get("_exact_n"));
  let exactH = decodeFloat64(get("_exact_h"));
  if (approxN.length !== approxH.length) approxN = approxH = new Float64Array(0);
  if (exactN.length !== exactH.length) exactN = exactH = new Float64Array(0);
  const plan = get("_plan") ?? {};
  return {
    metric: get("metric"),
    mode: get("mode") === "value" ? "value" : "rates",
    width: get("width") || 560,
    generation: get("generation") ?? 0,
    label: get("_metric_label") || get("metric"),
    plan,
    requestedHalfWidth: get("half_width"),
    range: plan.range ?? [2, 3],
    approxN,
    approxH,
    exactN,
    exactH,
  };
}

/** Draw the curve; returns the number of exact points drawn. */
export function drawCurve(ctx, state, theme, dpr = 1) {
  const width = state.width;
  beginFrame(ctx, width, HEIGHT, dpr);
  const f = frame(state, width);
  ctx.font = `11px ${theme.font}`;
  ctx.strokeStyle = theme.grid;
  ctx.fillStyle = theme.muted;
  ctx.lineWidth = 1;
  for (const t of f.yTicks) {
    segment(ctx, MARGINS.left, f.y(t), width - MARGINS.right, f.y(t));
    ctx.fillText(String(t), 4, f.y(t) + 4);
  }
  for (const t of f.xTicks) ctx.fillText(t.toLocaleString("en-US"), f.x(t) - 12, HEIGHT - MARGINS.bottom + 16);
  ctx.fillText("N (test-set size)", width / 2 - 40, HEIGHT - 6);
  ctx.save();
  ctx.translate(40, (MARGINS.top + HEIGHT - MARGINS.bottom) / 2);
  ctx.rotate(-Math.PI / 2);
  ctx.textAlign = "center";
  ctx.fillText("interval half-width", 0, 0);
  ctx.restore();
  // Target.
  if (Number.isFinite(state.requestedHalfWidth)) {
    segment(ctx, MARGINS.left, f.y(state.requestedHalfWidth), width - MARGINS.right, f.y(state.requestedHalfWidth), {
      colour: theme.accent,
      dash: [5, 4],
    });
  }
  // Approximation (steps show the rounding jumps).
  ctx.strokeStyle = theme.muted;
  for (const path of stepPaths(state.approxN, state.approxH, f.x, f.y)) {
    ctx.beginPath();
    path.forEach(([px, py], i) => (i ? ctx.lineTo(px, py) : ctx.moveTo(px, py)));
    ctx.stroke();
  }
  // Exact half-widths evaluated by the search.
  ctx.fillStyle = theme.foreground;
  let drawn = 0;
  for (let i = 0; i < state.exactN.length; i++) {
    if (!Number.isFinite(state.exactH[i])) continue;
    ctx.fillRect(f.x(state.exactN[i]) - 1.5, f.y(state.exactH[i]) - 1.5, 3, 3);
    drawn += 1;
  }
  // The plan.
  const plan = state.plan;
  if (plan.N !== undefined && plan.half_width != null) {
    ctx.strokeStyle = plan.reached ? theme.accent : UNREACHED_COLOUR;
    ctx.lineWidth = 2;
    ctx.beginPath();
    ctx.arc(f.x(plan.N), f.y(plan.half_width), 6, 0, 2 * Math.PI);
    ctx.stroke();
    ctx.beginPath();
    ctx.moveTo(f.x(plan.N), f.y(plan.half_width) + 6);
    ctx.lineTo(f.x(plan.N), HEIGHT - MARGINS.bottom);
    ctx.stroke();
    ctx.lineWidth = 1;
  }
  return drawn;
}

export function render({ model, el: host }) {
  const root = el("div", "confusionlab-planner", host);
  el("div", "cl-title", root).textContent = "How big must my test set be?";
  const controls = el("div", "cl-controls", root);
  const inputs = {};
  for (const [key, label, min, max, step] of SLIDERS) {
    const row = el("label", `cl-slider cl-slider-${key}`, controls);
    el("span", "cl-slider-label", row).textContent = label;
    const input = el("input", "", row);
    Object.assign(input, { type: "range", min, max, step });
    input.dataset.key = key;
    const out = el("span", "cl-slider-value", row);
    input.addEventListener("input", () => (out.textContent = input.value));
    input.addEventListener("change", () => {
      model.set(key, Number(input.value));
      model.save_changes();
    });
    inputs[key] = { input, out, row };
  }
  const canvas = el("canvas", "cl-canvas", root);
  const summary = el("div", "cl-summary", root);
  const legend = el("div", "cl-legend", root);
  legend.textContent =
    "dots: exact half-widths the search evaluated · line: normal approximation with the same rounded counts · dashed: requested half-width · circle: the plan";

  const draw = () => {
    const state = readState(model);
    for (const [key, { input, out, row }] of Object.entries(inputs)) {
      const v = model.get(key);
      if (typeof v === "number" && document.activeElement !== input) input.value = String(v);
      out.textContent = typeof v === "number" ? String(Number(v.toFixed(4))) : "";
      const hidden = (key === "value" && state.mode !== "value") || ((key === "tpr" || key === "tnr") && state.mode === "value");
      row.style.display = hidden ? "none" : "";
    }
    const dpr = pixelRatio();
    const ctx = canvas2d(canvas, state.width, HEIGHT, dpr);
    const theme = resolveTheme(cssVariableReader(root));
    const drawn = ctx ? drawCurve(ctx, state, theme, dpr) : state.exactN.length;
    summary.textContent = planSummary(state.plan, state.label);
    const d = root.dataset;
    d.metric = state.metric ?? "";
    d.n = String(state.plan.N ?? "");
    d.reached = String(Boolean(state.plan.reached));
    d.halfWidth = state.plan.half_width == null ? "" : String(state.plan.half_width);
    d.requestedHalfWidth = String(state.requestedHalfWidth);
    d.points = String(drawn);
    d.jumps = String(upwardJumps(state.approxH));
    d.generation = String(state.generation);
  };
  const { dispose } = redrawOnChange(model, KEYS, draw);
  draw();
  return () => {
    dispose();
    root.remove();
  };
}
