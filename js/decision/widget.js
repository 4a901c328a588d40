// DecisionView front-end: on one canvas, the ROC staircase with its band and the iso-cost line
// through the chosen point, and the cost (or metric) over the thresholds with its simultaneous
// band, pointwise intervals and the plausible thresholds shaded; a p_t slider sets the cost pair
// and Python answers with the new choice (and moves the linked RocSlice). Offline (the static
// export) no kernel answers: a view exported with its states (`_static`: this view and its slice at
// values of p_t precomputed by Python) moves through them, the slider stepping from one to the next
// (../shared/static.js); without them the view keeps showing the exported choice and says so.
import { decodeFloat64, decodeInt32 } from "../shared/buffers.js";
import { beginFrame, canvas2d, drawAxes, listen, pixelRatio, segment } from "../shared/canvas.js";
import { el, parts } from "../shared/dom.js";
import { formatNumber } from "../shared/format.js";
import { PALETTE } from "../shared/palette.js";
import { redrawOnChange } from "../shared/redraw.js";
import { linearScale, niceTicks } from "../shared/scale.js";
import { cssVariableReader, resolveTheme } from "../shared/theme.js";
import { applyStatic, isOffline, nearestPosition, readStatic, sliderOff } from "../shared/static.js";
import { bandPolygon } from "../roc/geometry.js";
import {
  candidateX,
  costFromPt,
  costText,
  pendingText,
  isoCostSegment,
  layout,
  plausibleRuns,
  ptFromCost,
  readout,
  runSpan,
  xDomain,
  yDomain,
} from "./geometry.js";

/** Model keys whose change redraws. */
export const KEYS = [
  "cost",
  "confidence",
  "width",
  "generation",
  "_fpr",
  "_tpr",
  "_thresholds",
  "_values",
  "_lower",
  "_upper",
  "_plausible",
  "_pointwise_index",
  "_pointwise_lower",
  "_pointwise_upper",
  "_roc_fpr",
  "_roc_lower",
  "_roc_upper",
  "_summary",
  "_static",
];

/** Colour of the chosen point (the linked slice's bubbles use the same model colour). */
export const POINT_COLOUR = PALETTE.models["beta-binomial"];
/** Colour of the iso-cost line. */
export const ISO_COLOUR = PALETTE.theme.warning;

/** Read the model into typed arrays (inconsistent candidate buffers give no candidates). */
export function readState(model) {
  const get = (k) => model.get(k);
  const f = (k) => decodeFloat64(get(k));
  const fpr = f("_fpr");
  const tpr = f("_tpr");
  const thresholds = f("_thresholds");
  const values = f("_values");
  const lower = f("_lower");
  const upper = f("_upper");
  const plausible = f("_plausible");
  const count = [tpr, thresholds, values, lower, upper, plausible].every((a) => a.length === fpr.length) ? fpr.length : 0;
  const rocFpr = f("_roc_fpr");
  const rocLower = f("_roc_lower");
  const rocUpper = f("_roc_upper");
  const rocOk = rocLower.length === rocFpr.length && rocUpper.length === rocFpr.length;
  const pwIndex = decodeInt32(get("_pointwise_index"));
  const pwLower = f("_pointwise_lower");
  const pwUpper = f("_pointwise_upper");
  const pwOk = pwLower.length === pwIndex.length && pwUpper.length === pwIndex.length;
  const summary = get("_summary") ?? {};
  const index = Number.isInteger(summary.index) && summary.index < count ? summary.index : -1;
  return {
    fpr, tpr, thresholds, values, lower, upper, plausible, count, index,
    rocFpr: rocOk ? rocFpr : rocFpr.subarray(0, 0),
    rocLower: rocOk ? rocLower : rocLower.subarray(0, 0),
    rocUpper: rocOk ? rocUpper : rocUpper.subarray(0, 0),
    pwIndex: pwOk ? pwIndex : pwIndex.subarray(0, 0),
    pwLower, pwUpper,
    cost: get("cost") ?? [],
    confidence: get("confidence") ?? 0.95,
    width: get("width") || 760,
    generation: get("generation") ?? 0,
    summary,
    static: readStatic(get("_static")),
  };
}

/**
 * How the slider works here: "live" (Jupyter: p_t from 0.001 to 0.999, the kernel re-chooses),
 * "states" (offline with precomputed states: the slider steps through them), "asks" (offline
 * without them: the view says that no kernel answers) or "off" (offline, Python said why not).
 */
export function sliderMode(model, info) {
  if (!isOffline(model)) return "live";
  if (info.usable) return "states";
  return sliderOff(info) ? "off" : "asks";
}

function trace(ctx, n, px, py, close = false) {
  ctx.beginPath();
  for (let k = 0; k < n; k++) {
    if (k === 0) ctx.moveTo(px(k), py(k));
    else ctx.lineTo(px(k), py(k));
  }
  if (close) ctx.closePath();
}

function dot(ctx, theme, px, py, radius = 5) {
  ctx.fillStyle = POINT_COLOUR;
  ctx.strokeStyle = theme.background;
  ctx.lineWidth = 1.5;
  ctx.beginPath();
  ctx.arc(px, py, radius, 0, 2 * Math.PI);
  ctx.fill();
  ctx.stroke();
}

/** The ROC panel: the band, the chance line, the staircase, the iso-cost line and the chosen point. */
export function drawRoc(ctx, state, theme, box) {
  const x = linearScale(0, 1, box.left, box.left + box.width);
  const y = linearScale(0, 1, box.top + box.height, box.top);
  const band = bandPolygon(state.rocFpr, state.rocLower, state.rocUpper);
  if (band.length) {
    ctx.fillStyle = theme.accent;
    ctx.globalAlpha = 0.16;
    trace(ctx, band.length / 2, (k) => x(band[2 * k]), (k) => y(band[2 * k + 1]), true);
    ctx.fill();
    ctx.globalAlpha = 1;
  }
  segment(ctx, x(0), y(0), x(1), y(1), { colour: theme.muted, dash: [3, 3] });
  if (state.count) {
    ctx.strokeStyle = theme.accent;
    ctx.lineWidth = 1.6;
    trace(ctx, state.count, (k) => x(state.fpr[k]), (k) => y(state.tpr[k]));
    ctx.stroke();
  }
  let iso = null;
  if (state.index >= 0) {
    const px = state.fpr[state.index];
    const py = state.tpr[state.index];
    iso = isoCostSegment(px, py, state.summary.iso_slope);
    if (iso && ptFromCost(state.summary.cost) !== null) {
      segment(ctx, x(iso[0]), y(iso[1]), x(iso[2]), y(iso[3]), { colour: ISO_COLOUR, width: 1.4, dash: [6, 3] });
    } else iso = null;
    dot(ctx, theme, x(px), y(py));
  }
  const ticks = niceTicks(0, 1, 5);
  drawAxes(ctx, theme, {
    box, x, y, xTicks: ticks, yTicks: ticks, format: formatNumber,
    xTitle: "false positive rate", yTitle: "true positive rate",
    xTitleY: box.top + box.height + 22, yTitleX: box.left - 38,
  });
  return { band: band.length / 2, iso: Boolean(iso) };
}

/** The cost panel: plausible runs shaded, the band, the values, pointwise intervals, the chosen candidate. */
export function drawCost(ctx, state, theme, box) {
  const n = state.count;
  const xs = candidateX(state.thresholds.subarray(0, n));
  const [x0, x1] = xDomain(state.thresholds.subarray(0, n));
  const [y0, y1] = yDomain(state.values.subarray(0, n), state.lower.subarray(0, n), state.upper.subarray(0, n));
  const x = linearScale(x0, x1, box.left, box.left + box.width);
  const y = linearScale(y0, y1, box.top + box.height, box.top);
  const runs = plausibleRuns(state.plausible.subarray(0, n));
  ctx.fillStyle = theme.muted;
  ctx.globalAlpha = 0.14;
  for (const run of runs) {
    const [a, b] = runSpan(xs, run);
    ctx.fillRect(x(a) - 1, box.top, Math.max(2, x(b) - x(a) + 2), box.height);
  }
  ctx.globalAlpha = 1;
  if (n) {
    const band = bandPolygon(xs, state.lower.subarray(0, n), state.upper.subarray(0, n));
    ctx.fillStyle = theme.accent;
    ctx.globalAlpha = 0.16;
    trace(ctx, band.length / 2, (k) => x(band[2 * k]), (k) => y(band[2 * k + 1]), true);
    ctx.fill();
    ctx.globalAlpha = 1;
    ctx.strokeStyle = theme.accent;
    ctx.lineWidth = 1.4;
    ctx.beginPath();
    let pen = false;
    for (let k = 0; k < n; k++) {
      const v = state.values[k];
      if (!Number.isFinite(v)) {
        pen = false;
        continue;
      }
      if (pen) ctx.lineTo(x(xs[k]), y(v));
      else ctx.moveTo(x(xs[k]), y(v));
      pen = true;
    }
    ctx.stroke();
  }
  let bars = 0;
  for (let j = 0; j < state.pwIndex.length; j++) {
    const k = state.pwIndex[j];
    if (!(k >= 0 && k < n)) continue;
    segment(ctx, x(xs[k]), y(state.pwLower[j]), x(xs[k]), y(state.pwUpper[j]), { colour: theme.foreground, width: 1.5 });
    bars += 1;
  }
  if (state.index >= 0) {
    const px = x(xs[state.index]);
    segment(ctx, px, box.top, px, box.top + box.height, { colour: ISO_COLOUR, width: 1, dash: [4, 3] });
    dot(ctx, theme, px, y(state.values[state.index]));
  }
  drawAxes(ctx, theme, {
    box, x, y, xTicks: niceTicks(x0, x1, 5), yTicks: niceTicks(y0, y1, 5), format: formatNumber,
    xTitle: "threshold (score ≥ it is positive; right: none)", yTitle: state.summary.y_label ?? "",
    xTitleY: box.top + box.height + 22, yTitleX: box.left - 40,
  });
  return { candidates: n, runs: runs.length, bars };
}

/** anywidget entry point. */
export function render({ model, el: host }) {
  const root = el("div", "confusionlab-decision", host);
  const { title, summary, canvas, controls, pending, info, note } = parts(root, {
    title: "cl-title",
    summary: "cl-summary",
    canvas: ["canvas", "cl-canvas"],
    controls: "cl-controls",
    pending: "cl-pending",
    info: "cl-readout",
    note: "cl-note",
  });
  canvas.setAttribute("role", "img");
  canvas.setAttribute("aria-label", "ROC curve with its band and the iso-cost line; the cost over the thresholds with its bands");
  const { label, slider } = parts(controls, { label: ["label", "cl-cost-label"], slider: ["input", "cl-cost"] });
  const offlineNote = el("div", "cl-static", root);
  let offlineError = "";
  slider.type = "range";
  slider.min = "0.001";
  slider.max = "0.999";
  slider.step = "0.001";
  slider.setAttribute("aria-label", "threshold probability p_t = cost_fp / (cost_fp + cost_fn)");
  let draws = 0;

  const draw = () => {
    const state = readState(model);
    const theme = resolveTheme(cssVariableReader(root));
    const dpr = pixelRatio();
    const geometry = layout(state.width);
    const ctx = canvas2d(canvas, geometry.width, geometry.height, dpr);
    let roc = { band: 0, iso: false };
    let cost = { candidates: state.count, runs: 0, bars: 0 };
    if (ctx) {
      beginFrame(ctx, geometry.width, geometry.height, dpr);
      roc = drawRoc(ctx, state, theme, geometry.roc);
      cost = drawCost(ctx, state, theme, geometry.cost);
    }
    const s = state.summary;
    // What is drawn is the last choice Python computed (its cost in the summary), not the cost just
    // asked for: in the static export no kernel answers, and the picture never claims a cost it
    // was not computed for.
    const pt = ptFromCost(s.cost);
    const mode = sliderMode(model, state.static);
    slider.disabled = pt === null || mode === "off";
    if (mode === "states") {
      slider.min = "0";
      slider.max = String(state.static.positions.length - 1);
      slider.step = "1";
      if (document.activeElement !== slider) slider.value = String(nearestPosition(state.static.positions, pt));
    } else if (pt !== null && document.activeElement !== slider) slider.value = String(pt);
    offlineNote.textContent = mode === "live" ? "" : offlineError || state.static.note;
    label.textContent = costText(s);
    pending.textContent = pendingText(state.cost, s);
    title.textContent = s.title ?? "";
    summary.textContent = s.text ?? "";
    info.textContent = readout(s);
    note.textContent = s.note ?? "";
    draws += 1;
    const d = root.dataset;
    d.candidates = String(state.count);
    d.index = String(state.index);
    d.threshold = s.none_positive ? "inf" : String(s.threshold ?? "");
    d.tp = String(s.tp ?? "");
    d.fp = String(s.fp ?? "");
    d.value = String(s.value ?? "");
    d.plausible = String(s.plausible ?? "");
    d.runs = String(cost.runs);
    d.pointwise = String(cost.bars);
    d.rocBand = String(roc.band);
    d.iso = roc.iso ? "1" : "0";
    d.pt = pt === null ? "" : String(pt);
    d.pending = pending.textContent ? "1" : "0";
    d.confidence = String(state.confidence);
    d.generation = String(state.generation);
    d.draws = String(draws);
    d.staticPositions = mode === "live" ? "" : String(state.static.positions.length);
  };

  /** The slider moved: the cost pair of that p_t (same total), sent to Python; offline, that state. */
  const onSlider = () => {
    const info = readStatic(model.get("_static"));
    if (sliderMode(model, info) === "states") {
      applyStatic(model, info, Number(slider.value)).catch((error) => {
        offlineError = `The choice could not be moved in this page: ${error}`;
        redraw.schedule();
      });
      return;
    }
    const current = model.get("cost");
    if (ptFromCost(current) === null) return; // a metric's choice: no cost to vary
    model.set("cost", costFromPt(Number(slider.value), Number(current[0]) + Number(current[1])));
    model.save_changes();
  };

  const redraw = redrawOnChange(model, KEYS, draw);
  const unlisten = listen([[slider, "change", onSlider]]);
  draw();
  return () => {
    redraw.dispose();
    unlisten();
  };
}
