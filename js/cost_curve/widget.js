// CostCurveView front-end: the normalised expected cost of the best operating point against the
// probability cost PC(+), the ROC hull points' cost lines, the trivial classifiers, the simultaneous
// band, and a cursor whose readout gives the cost, its band and the best operating point there.
// Python sends every number; the cursor only picks a column, so it works offline (the static
// export) too. The layout, scales and nearest column are the DecisionCurveView's.
import { decodeFloat64, decodeInt32 } from "../shared/buffers.js";
import { beginFrame, canvas2d, drawAxes, listen, pixelRatio, segment } from "../shared/canvas.js";
import { el, parts } from "../shared/dom.js";
import { formatNumber } from "../shared/format.js";
import { redrawOnChange } from "../shared/redraw.js";
import { niceTicks } from "../shared/scale.js";
import { cssVariableReader, resolveTheme } from "../shared/theme.js";
import { layout, nearestIndex, rangeText, scales } from "../decision_curve/geometry.js";
import { BAND_ALPHA, fillBetween, strokeLine } from "../decision_curve/widget.js";

/** Model keys whose change redraws. */
export const KEYS = [
  "confidence",
  "probability_cost",
  "width",
  "generation",
  "_pc",
  "_cost",
  "_lower",
  "_upper",
  "_hull_fpr",
  "_hull_tpr",
  "_best",
  "_summary",
];

/** The y range: normalised expected costs lie in [0, ½] under the trivial classifiers. */
export const Y_DOMAIN = [0, 0.55];
/** Most hull lines drawn (spread over the hull). */
export const HULL_DRAWN = 400;

/** Read the model into typed arrays and the summary. */
export function readState(model) {
  const get = (k) => model.get(k);
  return {
    confidence: get("confidence") ?? 0.95,
    probabilityCost: get("probability_cost") ?? 0.5,
    width: get("width") || 560,
    generation: get("generation") ?? 0,
    pc: decodeFloat64(get("_pc")),
    cost: decodeFloat64(get("_cost")),
    lower: decodeFloat64(get("_lower")),
    upper: decodeFloat64(get("_upper")),
    hullFpr: decodeFloat64(get("_hull_fpr")),
    hullTpr: decodeFloat64(get("_hull_tpr")),
    best: decodeInt32(get("_best")),
    summary: get("_summary") ?? {},
  };
}

/** Whether the buffers agree (else no curve is drawn). */
export function consistent(state) {
  const K = state.pc.length;
  const H = state.hullFpr.length;
  const sized = [state.cost, state.lower, state.upper, state.best].every((b) => b.length === K);
  return K > 0 && H > 0 && state.hullTpr.length === H && sized && state.best.every((b) => b >= 0 && b < H);
}

/** The hull points whose lines are drawn: all, or HULL_DRAWN spread evenly. */
export function drawnHull(size) {
  if (size <= HULL_DRAWN) return Array.from({ length: size }, (_, k) => k);
  return Array.from({ length: HULL_DRAWN }, (_, k) => Math.round((k * (size - 1)) / (HULL_DRAWN - 1)));
}

/** The cursor's readout at grid point `k`. */
export function readoutText(state, k) {
  if (!consistent(state) || k < 0) return "";
  const pct = `${Math.round(state.confidence * 100)}%`;
  const h = state.best[k];
  return (
    `At PC(+) = ${formatNumber(state.pc[k])}: normalised expected cost ${formatNumber(state.cost[k])} ` +
    `(${pct} band ${rangeText(state.lower[k], state.upper[k])}), at the operating point FPR ` +
    `${formatNumber(state.hullFpr[h])}, TPR ${formatNumber(state.hullTpr[h])}; the trivial classifiers cost ` +
    `${formatNumber(Math.min(state.pc[k], 1 - state.pc[k]))}.`
  );
}

/** The cost curve: hull lines, trivial classifiers, band, envelope, cursor, axes. Returns `{hull, shaded}`. */
export function drawCostCurve(ctx, state, theme, geometry, index) {
  const { box } = geometry;
  const { x, y } = scales(box, [0, 1], Y_DOMAIN);
  let hull = 0;
  let shaded = 0;
  if (consistent(state)) {
    ctx.save();
    ctx.beginPath();
    ctx.rect(box.left, box.top, box.width, box.height);
    ctx.clip();
    for (const h of drawnHull(state.hullFpr.length)) {
      segment(ctx, x(0), y(state.hullFpr[h]), x(1), y(1 - state.hullTpr[h]), { colour: theme.muted, width: 0.5 });
      hull += 1;
    }
    segment(ctx, x(0), y(0), x(0.5), y(0.5), { colour: theme.foreground, width: 1, dash: [4, 4] });
    segment(ctx, x(0.5), y(0.5), x(1), y(0), { colour: theme.foreground, width: 1, dash: [4, 4] });
    ctx.fillStyle = theme.accent;
    ctx.globalAlpha = BAND_ALPHA * 2;
    shaded = fillBetween(ctx, state.pc, state.lower, state.upper, x, y) ? 1 : 0;
    ctx.globalAlpha = 1;
    ctx.strokeStyle = theme.accent;
    ctx.lineWidth = 2;
    strokeLine(ctx, state.pc, state.cost, x, y);
    ctx.restore();
    if (index >= 0) {
      const px = x(state.pc[index]);
      segment(ctx, px, box.top, px, box.top + box.height, { colour: theme.foreground, width: 1, dash: [3, 3] });
      ctx.fillStyle = theme.accent;
      ctx.beginPath();
      ctx.arc(px, y(state.cost[index]), 3.5, 0, 2 * Math.PI);
      ctx.fill();
    }
  }
  drawAxes(ctx, theme, {
    box,
    x,
    y,
    xTicks: niceTicks(0, 1, 5),
    yTicks: niceTicks(Y_DOMAIN[0], 0.5, 5),
    format: formatNumber,
    xTitle: "probability cost PC(+)",
    yTitle: "normalised expected cost",
    xTitleY: box.top + box.height + 22,
    yTitleX: box.left - 44,
  });
  return { hull, shaded };
}

/** anywidget entry point. */
export function render({ model, el: host }) {
  const root = el("div", "confusionlab-cost-curve", host);
  const { title, summary, canvas, controls, info, note } = parts(root, {
    title: "cl-title",
    summary: "cl-summary",
    canvas: ["canvas", "cl-canvas"],
    controls: "cl-controls",
    info: "cl-readout",
    note: "cl-note",
  });
  canvas.setAttribute("role", "img");
  canvas.setAttribute("aria-label", "cost curve with its simultaneous band, the ROC points' cost lines and the trivial classifiers");
  const { label, slider } = parts(controls, {
    label: ["label", "cl-probability-cost-label"],
    slider: ["input", "cl-probability-cost"],
  });
  slider.type = "range";
  slider.min = "0";
  slider.step = "1";
  slider.setAttribute("aria-label", "probability cost PC(+) of the readout");

  const draw = () => {
    const state = readState(model);
    const theme = resolveTheme(cssVariableReader(root));
    const dpr = pixelRatio();
    const geometry = layout(state.width);
    const index = nearestIndex(state.pc, state.probabilityCost);
    const ctx = canvas2d(canvas, geometry.width, geometry.height, dpr);
    let drawn = { hull: 0, shaded: 0 };
    if (ctx) {
      beginFrame(ctx, geometry.width, geometry.height, dpr);
      drawn = drawCostCurve(ctx, state, theme, geometry, index);
    }
    const s = state.summary;
    const K = state.pc.length;
    slider.max = String(Math.max(0, K - 1));
    slider.disabled = K < 2;
    if (index >= 0 && document.activeElement !== slider) slider.value = String(index);
    label.textContent = index >= 0 ? `PC(+) = ${formatNumber(state.pc[index])}` : "";
    title.textContent = s.title ?? "";
    summary.textContent = s.text ?? "";
    info.textContent = readoutText(state, index);
    note.textContent = s.note ?? "";
    const ok = consistent(state) && index >= 0;
    const d = root.dataset;
    d.points = String(K);
    d.hull = String(drawn.hull);
    d.shaded = String(drawn.shaded);
    d.index = String(index);
    d.probabilityCost = index >= 0 ? String(state.pc[index]) : "";
    d.cost = ok ? String(state.cost[index]) : "";
    d.band = ok ? `${state.lower[index]};${state.upper[index]}` : "";
    d.confidence = String(state.confidence);
    d.generation = String(state.generation);
  };

  /** The slider moved: the cursor's probability cost, kept in the model (and sent to Python when there is one). */
  const onSlider = () => {
    const pc = decodeFloat64(model.get("_pc"));
    const k = Number(slider.value);
    if (!(k >= 0 && k < pc.length)) return;
    model.set("probability_cost", pc[k]);
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
