// RocView / PrecisionRecallView front-end: the band, the curve and the operating point on one
// canvas, the summary with its interval, a threshold slider. The curve arrives once; the slider
// moves an index into it and redraws at once (the band and the curve are a cached layer), then
// sends the index to Python, which moves the linked RocSlice. In a static page (no kernel) the
// slice's state at each threshold travels with the page (`_static`): the slider snaps to the
// thresholds it holds and sets that state on the slice (../shared/static.js).
import { decodeFloat32, decodeFloat64, decodeInt32 } from "../shared/buffers.js";
import { beginFrame, canvas2d, drawAxes, listen, pixelRatio, segment } from "../shared/canvas.js";
import { el, parts } from "../shared/dom.js";
import { PALETTE } from "../shared/palette.js";
import { redrawOnChange } from "../shared/redraw.js";
import { linearScale, niceTicks } from "../shared/scale.js";
import { cssVariableReader, resolveTheme } from "../shared/theme.js";
import { formatNumber } from "../shared/format.js";
import { applyStatic, isOffline, nearestPosition, readStatic, sliderOff, staticNote } from "../shared/static.js";
import {
  bandPolygon,
  clampIndex,
  curveVertices,
  layout,
  legendItems,
  nearestIndex,
  noSkillLabel,
  operatingPoint,
  readout,
  summaryText,
} from "./geometry.js";

/** Keys whose change redraws the cached layer (the curve, the band, the size). */
export const LAYER_KEYS = ["_kind", "_x", "_y", "_tp", "_fp", "_thresholds", "_band_x", "_band_lower", "_band_upper", "_summary", "size"];
/** Every key that redraws. */
export const KEYS = [...LAYER_KEYS, "index", "confidence", "generation", "_static"];

/** Colour of the operating point (the slice's bubbles use the same model colour). */
export const POINT_COLOUR = PALETTE.models["beta-binomial"];

/** Read the model into typed arrays (inconsistent buffers give an empty curve). */
export function readState(model) {
  const get = (k) => model.get(k);
  const x = decodeFloat32(get("_x"));
  const y = decodeFloat32(get("_y"));
  const tp = decodeInt32(get("_tp"));
  const fp = decodeInt32(get("_fp"));
  const thresholds = decodeFloat64(get("_thresholds"));
  const count = [y, tp, fp, thresholds].every((a) => a.length === x.length) ? x.length : 0;
  const bandX = decodeFloat32(get("_band_x"));
  const lower = decodeFloat32(get("_band_lower"));
  const upper = decodeFloat32(get("_band_upper"));
  const bandOk = lower.length === bandX.length && upper.length === bandX.length;
  return {
    kind: get("_kind") === "pr" ? "pr" : "roc",
    x, y, tp, fp, thresholds, count,
    bandX: bandOk ? bandX : bandX.subarray(0, 0),
    lower: bandOk ? lower : lower.subarray(0, 0),
    upper: bandOk ? upper : upper.subarray(0, 0),
    index: clampIndex(get("index"), count),
    size: get("size") || 400,
    generation: get("generation") ?? 0,
    summary: get("_summary") ?? {},
    static: readStatic(get("_static")),
  };
}

/** Scales data → pixel of a layout's box (both axes on [0, 1]). */
export function scales(box) {
  return {
    x: linearScale(0, 1, box.left, box.left + box.width),
    y: linearScale(0, 1, box.top + box.height, box.top),
  };
}

function tracePolyline(ctx, flat, x, y, close = false) {
  ctx.beginPath();
  for (let k = 0; k < flat.length; k += 2) {
    const px = x(flat[k]);
    const py = y(flat[k + 1]);
    if (k === 0) ctx.moveTo(px, py);
    else ctx.lineTo(px, py);
  }
  if (close) ctx.closePath();
}

/**
 * Draw the layer that does not move with the threshold: the band, the chance line, the curve
 * and the axes. Returns {points, band}: the curve's points and the band's vertices drawn.
 */
export function drawLayer(ctx, state, theme, geometry) {
  const { box } = geometry;
  const { x, y } = scales(box);
  const band = bandPolygon(state.bandX, state.lower, state.upper);
  if (band.length) {
    ctx.fillStyle = theme.accent;
    ctx.globalAlpha = 0.16;
    tracePolyline(ctx, band, x, y, true);
    ctx.fill();
    ctx.globalAlpha = 1;
  }
  const baseline = state.kind === "pr" ? state.summary.baseline : null;
  if (state.kind === "roc") segment(ctx, x(0), y(0), x(1), y(1), { colour: theme.muted, dash: [3, 3] });
  else if (Number.isFinite(baseline)) {
    segment(ctx, x(0), y(baseline), x(1), y(baseline), { colour: theme.muted, dash: [3, 3] });
    ctx.fillStyle = theme.muted;
    ctx.font = `10px ${theme.font}`;
    ctx.textAlign = "right";
    ctx.textBaseline = baseline > 0.9 ? "top" : "bottom"; // below the line when it runs along the top
    ctx.fillText(noSkillLabel(baseline), x(1) - 4, y(baseline) + (baseline > 0.9 ? 3 : -3));
  }
  const vertices = curveVertices(state.x.subarray(0, state.count), state.y.subarray(0, state.count), state.kind);
  if (vertices.length) {
    ctx.strokeStyle = theme.accent;
    ctx.lineWidth = 1.6;
    tracePolyline(ctx, vertices, x, y);
    ctx.stroke();
  }
  const ticks = niceTicks(0, 1, 5);
  drawAxes(ctx, theme, {
    box,
    x,
    y,
    xTicks: ticks,
    yTicks: ticks,
    format: formatNumber,
    xTitle: state.summary.x_label ?? "",
    yTitle: state.summary.y_label ?? "",
    xTitleY: box.top + box.height + 22,
  });
  return { points: state.count, band: band.length / 2 };
}

/** Draw the operating point `index` with its guides; returns the point (null when none). */
export function drawPoint(ctx, state, theme, geometry, index) {
  const point = operatingPoint(state, index);
  if (!point) return null;
  const { box } = geometry;
  const { x, y } = scales(box);
  const px = x(point.x);
  const py = y(point.y);
  segment(ctx, px, py, px, box.top + box.height, { colour: POINT_COLOUR, width: 1, dash: [2, 3] });
  segment(ctx, box.left, py, px, py, { colour: POINT_COLOUR, width: 1, dash: [2, 3] });
  ctx.fillStyle = POINT_COLOUR;
  ctx.strokeStyle = theme.background;
  ctx.lineWidth = 1.5;
  ctx.beginPath();
  ctx.arc(px, py, 5, 0, 2 * Math.PI);
  ctx.fill();
  ctx.stroke();
  return point;
}

/** Move the operating point to `index` (from the slider or a click): set and sent to Python. */
export function moveTo(model, index) {
  const count = decodeFloat32(model.get("_x")).length;
  const k = clampIndex(index, count);
  if (model.get("index") === k) return false;
  model.set("index", k);
  model.save_changes();
  return true;
}

/**
 * Where a move to `index` lands: the index itself, or offline with states the nearest precomputed
 * threshold and its position among them ({index, position}; position −1: no states to apply);
 * null when the slider is off in the page.
 */
export function landing(model, index) {
  const count = decodeFloat32(model.get("_x")).length;
  const k = clampIndex(index, count);
  if (!isOffline(model)) return { index: k, position: -1 };
  const info = readStatic(model.get("_static"));
  if (sliderOff(info)) return null;
  const position = info.usable ? nearestPosition(info.positions, k) : -1;
  return { index: position >= 0 ? clampIndex(info.positions[position], count) : k, position };
}

/**
 * Move to `index` from the slider or a click: in Jupyter set and sent to Python (which moves the
 * linked slices); offline, snapped to a precomputed threshold whose states are set on the linked
 * slices. Resolves to whether the index changed.
 */
export async function walkTo(model, index) {
  const where = landing(model, index);
  if (!where || !moveTo(model, where.index)) return false;
  if (where.position >= 0) await applyStatic(model, readStatic(model.get("_static")), where.position);
  return true;
}

/** anywidget entry point. */
export function render({ model, el: host }) {
  const root = el("div", "confusionlab-roc", host);
  const { summary, canvas, legend, controls, info, note } = parts(root, {
    summary: "cl-summary",
    canvas: ["canvas", "cl-canvas"],
    legend: "cl-legend",
    controls: "cl-controls",
    info: "cl-readout",
    note: "cl-note",
  });
  canvas.setAttribute("role", "img");
  const offlineNote = el("div", "cl-static", root);
  let offlineError = "";
  const { label, slider } = parts(controls, { label: ["label", "cl-threshold-label"], slider: ["input", "cl-threshold"] });
  label.textContent = "threshold";
  slider.type = "range";
  slider.step = "1";
  slider.setAttribute("aria-label", "operating point on the staircase (threshold)");

  let state = null;
  let geometry = null;
  let layer = null; // {canvas, key}: the cached band + curve + axes
  let layerStale = true;
  let draws = 0;

  const ensureLayer = (dpr, theme) => {
    const key = `${geometry.width}x${geometry.height}@${dpr}:${JSON.stringify(theme)}`;
    if (layer && !layerStale && layer.key === key) return layer;
    const off = document.createElement("canvas");
    const ctx = canvas2d(off, geometry.width, geometry.height, dpr);
    let counts = { points: state.count, band: 0 };
    if (ctx) {
      beginFrame(ctx, geometry.width, geometry.height, dpr);
      counts = drawLayer(ctx, state, theme, geometry);
    } else {
      counts.band = Math.min(state.bandX.length, state.lower.length) * 2;
    }
    layer = { canvas: off, key, counts, drawable: Boolean(ctx) };
    layerStale = false;
    return layer;
  };

  const draw = () => {
    const started = typeof performance !== "undefined" ? performance.now() : 0;
    state = readState(model);
    const dpr = pixelRatio();
    const theme = resolveTheme(cssVariableReader(root));
    const sized = !geometry || geometry.size !== state.size;
    if (sized) geometry = { ...layout(state.size), size: state.size };
    const base = ensureLayer(dpr, theme);
    if (sized || canvas.width !== Math.round(geometry.width * dpr)) canvas2d(canvas, geometry.width, geometry.height, dpr);
    const ctx = canvas.getContext?.("2d") ?? null;
    let point = operatingPoint(state, state.index);
    if (ctx) {
      beginFrame(ctx, geometry.width, geometry.height, dpr);
      if (base.drawable) {
        ctx.setTransform(1, 0, 0, 1, 0, 0);
        ctx.drawImage(base.canvas, 0, 0);
        ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
      }
      point = drawPoint(ctx, state, theme, geometry, state.index);
    }
    slider.min = "0";
    slider.max = String(Math.max(0, state.count - 1));
    slider.value = String(state.index);
    const offline = isOffline(model);
    slider.disabled = offline && sliderOff(state.static);
    offlineNote.textContent = offline ? offlineError || staticNote(state.static, "the linked slice") : "";
    summary.textContent = summaryText(state.summary);
    info.textContent = readout(state, point);
    legend.replaceChildren();
    for (const item of legendItems(state.summary, state.kind)) {
      const row = el("div", "cl-legend-item", legend);
      el("span", `cl-legend-mark cl-legend-${item.mark}`, row);
      el("span", "cl-legend-text", row).textContent = item.text;
    }
    canvas.setAttribute("aria-label", `${state.kind === "pr" ? "precision–recall" : "ROC"} curve with its band`);
    note.textContent =
      "Drag the slider (or click the curve, or use the arrow keys on the slider) to walk the threshold along the staircase; " +
      "a linked slice (beside the curve by default) shows that point's confusion matrix.";
    draws += 1;
    const d = root.dataset;
    d.kind = state.kind;
    d.points = String(base.counts.points);
    d.band = String(base.counts.band);
    d.index = String(state.index);
    d.tp = point ? String(point.tp) : "";
    d.fp = point ? String(point.fp) : "";
    d.threshold = point ? String(point.threshold) : "";
    d.value = state.summary.value === undefined ? "" : String(state.summary.value);
    d.generation = String(state.generation);
    d.draws = String(draws);
    d.staticPositions = offline ? String(state.static.positions.length) : "";
    if (typeof performance !== "undefined") d.drawMs = (performance.now() - started).toFixed(2);
  };

  const redraw = redrawOnChange(model, KEYS, draw);
  const stale = () => {
    layerStale = true;
  };
  for (const key of LAYER_KEYS) model.on(`change:${key}`, stale);
  const walk = (index) =>
    walkTo(model, index).then(
      (moved) => {
        if (!moved) slider.value = String(model.get("index")); // snapped back, or the slider is off
      },
      (error) => {
        offlineError = `The linked slice could not be moved in this page: ${error}`;
        redraw.schedule();
      },
    );
  const unlisten = listen([
    [slider, "input", () => walk(Number(slider.value))],
    [
      canvas,
      "click",
      (event) => {
        if (!state || !geometry) return;
        const rect = canvas.getBoundingClientRect();
        const { x, y } = scales(geometry.box);
        const k = nearestIndex(state.x, state.y, event.clientX - rect.left, event.clientY - rect.top, x, y);
        if (k >= 0) walk(k);
      },
    ],
  ]);
  draw();
  return () => {
    redraw.dispose();
    for (const key of LAYER_KEYS) model.off(`change:${key}`, stale);
    unlisten();
  };
}
