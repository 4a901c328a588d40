// RocSlice front-end: wires the model to the pure functions of geometry.js,
// ../shared/colour.js and ../shared/buffers.js, and draws on a 2D canvas.
import { decodeFloat32, decodeInt32, decodeUint32 } from "../shared/buffers.js";
import { beginFrame, canvas2d, drawAxes, listen, pixelRatio } from "../shared/canvas.js";
import { DIVERGING, colourValues, cssRGB } from "../shared/colour.js";
import { cssVariableReader, resolveTheme } from "../shared/theme.js";
import { el, parts } from "../shared/dom.js";
import { PALETTE } from "../shared/palette.js";
import { redrawOnChange } from "../shared/redraw.js";
import { niceTicks } from "../shared/scale.js";
import { COMMON_KEYS, readCommonState, setCommonData } from "../shared/state.js";
import {
  boundingBox,
  bubbleGeometry,
  dataDomain,
  dragTarget,
  fitView,
  hitTest,
  latticeSpacing,
  latticeToData,
  marginalBars,
  marginsFor,
  pointSize,
  project,
  rasterizePoints,
  rocToData,
  STRIP,
  STRIP_GAP,
} from "./geometry.js";
import { formatNumber, showsPruned } from "../shared/format.js";

/** Colours of the extra contour metrics (PALETTE.contours, Okabe–Ito: distinguishable in light and dark themes). */
export const CONTOUR_COLOURS = PALETTE.contours;

/** Stroke colour of contour metric `index` (0 = the colouring metric, in the foreground colour). */
export function contourColour(index, theme) {
  return index === 0 ? theme.foreground : CONTOUR_COLOURS[(index - 1) % CONTOUR_COLOURS.length];
}

/** Model keys whose change triggers a redraw. */
export const KEYS = [
  ...COMMON_KEYS,
  "coordinates",
  "extend",
  "size",
  "_slice",
  "_tp_axis",
  "_tn_axis",
  "_values",
  "_colour_domain",
  "_contour_xy",
  "_contour_offsets",
  "_contour_levels",
  "_observed_value",
  "model",
  "contour_metrics",
  "_contour_metric",
  "_contour_labels",
  "_pmf_lo",
  "_pmf_tp",
  "_pmf_tn",
  "_pmf_pruned",
];

/**
 * Read and decode the model state. The lattice arrays are only used when their
 * lengths agree (they always do once a Python update has fully arrived).
 */
export function readState(model) {
  const get = (k) => model.get(k);
  const [sliceP, sliceN, stride] = get("_slice") ?? [get("p"), get("n"), 1];
  const tpAxis = decodeInt32(get("_tp_axis"));
  const tnAxis = decodeInt32(get("_tn_axis"));
  const values = decodeFloat32(get("_values"));
  const consistent = values.length === tpAxis.length * tnAxis.length;
  const contourOffsets = decodeUint32(get("_contour_offsets"));
  const contourMetric = decodeUint32(get("_contour_metric"));
  const pmfTp = decodeFloat32(get("_pmf_tp"));
  const pmfTn = decodeFloat32(get("_pmf_tn"));
  const pmfLo = get("_pmf_lo") ?? [];
  const withModel = pmfTp.length > 0 && pmfTn.length > 0 && pmfLo.length === 2;
  return {
    ...readCommonState(model),
    coordinates: get("coordinates") === "counts" ? "counts" : "roc",
    extend: Boolean(get("extend")),
    size: get("size") || 480,
    sliceP,
    sliceN,
    stride,
    tpAxis: consistent ? tpAxis : new Int32Array(0),
    tnAxis: consistent ? tnAxis : new Int32Array(0),
    values: consistent ? values : new Float32Array(0),
    colourDomain: get("_colour_domain") ?? [0, 0.5, 1],
    contourXY: decodeFloat32(get("_contour_xy")),
    contourOffsets,
    contourLevels: decodeFloat32(get("_contour_levels")),
    // One metric index per polyline; missing (older state) means the colouring metric.
    contourMetric:
      contourMetric.length === Math.max(0, contourOffsets.length - 1)
        ? contourMetric
        : new Uint32Array(Math.max(0, contourOffsets.length - 1)),
    contourLabels: get("_contour_labels") ?? [],
    observed: get("_observed_value"),
    model: get("model") || "none",
    pmfTp: withModel ? pmfTp : new Float32Array(0),
    pmfTn: withModel ? pmfTn : new Float32Array(0),
    pmfLo: withModel ? pmfLo : [0, 0],
    pmfPruned: get("_pmf_pruned") ?? 0,
    withModel,
  };
}

/**
 * Screen positions (device pixels) of every lattice point, row-major over
 * (tpAxis, tnAxis). Projection is separable, so each axis is projected once.
 */
export function latticeScreenPositions(view, state, dpr = 1) {
  const { coordinates, sliceP: p, sliceN: n, tpAxis, tnAxis } = state;
  const rows = tpAxis.length;
  const cols = tnAxis.length;
  const colX = new Float32Array(cols);
  const rowY = new Float32Array(rows);
  for (let j = 0; j < cols; j++) {
    colX[j] = dpr * project(view, ...latticeToData(coordinates, p, n, 0, tnAxis[j]))[0];
  }
  for (let i = 0; i < rows; i++) {
    rowY[i] = dpr * project(view, ...latticeToData(coordinates, p, n, tpAxis[i], n))[1];
  }
  const xs = new Float32Array(rows * cols);
  const ys = new Float32Array(rows * cols);
  for (let i = 0; i < rows; i++) {
    xs.set(colX, i * cols);
    ys.fill(rowY[i], i * cols, (i + 1) * cols);
  }
  return { xs, ys };
}

/** Contours as screen polylines (CSS pixels), split at non-finite vertices. */
export function contourScreenPolylines(view, state) {
  const { contourXY: xy, contourOffsets: off, coordinates, sliceP: p, sliceN: n } = state;
  const lines = [];
  for (let k = 0; k + 1 < off.length; k++) {
    let current = [];
    for (let v = off[k]; v < off[k + 1] && 2 * v + 1 < xy.length; v++) {
      const fpr = xy[2 * v];
      const tpr = xy[2 * v + 1];
      if (!Number.isFinite(fpr) || !Number.isFinite(tpr)) {
        if (current.length > 1) lines.push({ level: state.contourLevels[k], metric: state.contourMetric[k] ?? 0, points: current });
        current = [];
        continue;
      }
      current.push(project(view, ...rocToData(coordinates, p, n, fpr, tpr)));
    }
    if (current.length > 1) lines.push({ level: state.contourLevels[k], metric: state.contourMetric[k] ?? 0, points: current });
  }
  return lines;
}

/**
 * The canvas size (CSS pixels) and the view for a state: the domain fitted into a
 * size × size box; with equal aspect (counts), the canvas shrinks to the plot.
 * @returns {{view: object, width: number, height: number}}
 */
export function layoutFor(state) {
  const { coordinates, sliceP: p, sliceN: n, size } = state;
  let extra = null;
  if (state.extend && state.contourXY.length) {
    const bb = boundingBox(state.contourXY);
    if (bb) {
      const [x0, y0] = rocToData(coordinates, p, n, bb.x0, bb.y0);
      const [x1, y1] = rocToData(coordinates, p, n, bb.x1, bb.y1);
      extra = { x0, y0, x1, y1 };
    }
  }
  const equal = coordinates === "counts";
  const margins = marginsFor(state.withModel);
  // The marginal strips are added around the size × size plot area.
  const width = size + margins.right - marginsFor(false).right;
  const height = size + margins.top - marginsFor(false).top;
  const view = fitView(dataDomain(coordinates, p, n, extra), width, height, equal, margins);
  if (!equal) return { view, width, height };
  const w = Math.ceil(view.width + margins.left + margins.right);
  const h = Math.ceil(view.height + margins.top + margins.bottom);
  return { view: { ...view, left: margins.left, top: margins.top }, width: w, height: h };
}

function drawSliceAxes(ctx, view, state, theme) {
  const { coordinates, sliceP: p, sliceN: n } = state;
  const [ox, oy] = project(view, ...rocToData(coordinates, p, n, 0, 0));
  const [ux, uy] = project(view, ...rocToData(coordinates, p, n, 1, 1));
  const roc = coordinates === "roc";
  drawAxes(ctx, theme, {
    box: view,
    frame: { left: ox, top: uy, width: ux - ox, height: oy - uy }, // the unit square
    x: (t) => project(view, t, 0)[0],
    y: (t) => project(view, 0, t)[1],
    xTicks: niceTicks(view.x0, view.x1, 5),
    yTicks: niceTicks(view.y0, view.y1, 5),
    fontSize: 11,
    yTickX: view.left - 5,
    xTitle: roc ? "FPR = FP / n" : "FP",
    xTitleY: view.top + view.height + 34,
    xTitleBaseline: "bottom",
    yTitle: roc ? "TPR = TP / p" : "TP",
    yTitleX: 14,
  });
}

/** Largest bubble radius (CSS pixels) for a lattice spacing. */
export function maxBubbleRadius(spacing) {
  return Math.max(3, Math.min(18, 0.9 * spacing));
}

/** Draw the model's joint PMF as bubbles; returns how many were drawn. */
function drawBubbles(ctx, view, state, theme) {
  const spacing = latticeSpacing(view, state.coordinates, state.sliceP, state.sliceN);
  const cell = spacing > 0 && spacing < 4 ? spacing * Math.ceil(4 / spacing) : spacing; // see bubbleGeometry
  const { xs, ys, rs, count, group } = bubbleGeometry(view, state, maxBubbleRadius(cell));
  state.bubbleGroup = group;
  if (!count) return 0;
  ctx.beginPath();
  for (let k = 0; k < count; k++) {
    ctx.moveTo(xs[k] + rs[k], ys[k]);
    ctx.arc(xs[k], ys[k], rs[k], 0, 2 * Math.PI);
  }
  ctx.globalAlpha = 0.3;
  ctx.fillStyle = theme.foreground;
  ctx.fill();
  ctx.globalAlpha = 0.8;
  ctx.strokeStyle = theme.foreground;
  ctx.lineWidth = 0.75;
  ctx.stroke();
  ctx.globalAlpha = 1;
  return count;
}

/** Draw the marginal PMFs of FPR (above) and TPR (right) in their strips. */
function drawMarginals(ctx, view, state, theme) {
  ctx.fillStyle = theme.muted;
  let bars = 0;
  for (const which of ["fpr", "tpr"]) {
    for (const b of marginalBars(view, state, which)) {
      ctx.fillRect(b.x, b.y, b.w, b.h);
      bars++;
    }
  }
  const roc = state.coordinates === "roc";
  ctx.font = `10px ${theme.font}`;
  ctx.textBaseline = "top";
  ctx.textAlign = "left";
  ctx.fillText(roc ? "P(FPR)" : "P(FP)", 2, view.top - STRIP - STRIP_GAP);
  ctx.textAlign = "right";
  ctx.fillText(roc ? "P(TPR)" : "P(TP)", view.left + view.width + STRIP_GAP + STRIP, view.top - STRIP - STRIP_GAP);
  return bars;
}

/**
 * Draw the whole widget on a canvas 2D context. Returns the number of lattice
 * points rasterised (and, in `counts`, the bubbles and marginal bars drawn).
 */
export function drawSlice(ctx, state, theme, dpr = 1, counts = {}) {
  const layout = layoutFor(state);
  const { view } = layout;
  const width = Math.round(layout.width * dpr);
  const height = Math.round(layout.height * dpr);
  beginFrame(ctx, width, height); // in device pixels
  // Lattice points, straight into the pixels (transparent background).
  const image = ctx.createImageData(width, height);
  const pixels = new Uint32Array(image.data.buffer);
  const { xs, ys } = latticeScreenPositions(view, state, dpr);
  const colours = colourValues(state.values, state.colourDomain);
  const size = pointSize(view, state.coordinates, state.sliceP, state.sliceN, dpr * state.stride);
  const drawn = rasterizePoints(pixels, width, height, xs, ys, colours, size);
  ctx.putImageData(image, 0, 0);
  // Vector layer in CSS pixels.
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  drawSliceAxes(ctx, view, state, theme);
  ctx.save();
  ctx.beginPath();
  ctx.rect(view.left, view.top, view.width, view.height);
  ctx.clip();
  counts.bubbles = state.withModel ? drawBubbles(ctx, view, state, theme) : 0;
  ctx.lineWidth = 1.5;
  for (const line of contourScreenPolylines(view, state)) {
    ctx.strokeStyle = contourColour(line.metric, theme);
    ctx.setLineDash?.(line.metric === 0 ? [] : [6, 3]);
    ctx.beginPath();
    ctx.moveTo(...line.points[0]);
    for (const pt of line.points.slice(1)) ctx.lineTo(...pt);
    ctx.stroke();
  }
  ctx.setLineDash?.([]);
  const [ox, oy] = project(
    view,
    ...latticeToData(state.coordinates, state.sliceP, state.sliceN, state.tp, state.tn),
  );
  ctx.beginPath();
  ctx.arc(ox, oy, 5, 0, 2 * Math.PI);
  ctx.fillStyle = theme.accent;
  ctx.fill();
  ctx.lineWidth = 2;
  ctx.strokeStyle = theme.background;
  ctx.stroke();
  ctx.restore();
  counts.marginalBars = state.withModel ? drawMarginals(ctx, view, state, theme) : 0;
  return drawn;
}

/** Mirror the state in data attributes of the root element. */
export function setDataAttributes(root, state, drawn, extra = {}) {
  setCommonData(root, state);
  const d = root.dataset;
  d.coordinates = state.coordinates;
  d.extend = String(state.extend);
  d.stride = String(state.stride);
  d.points = String(drawn);
  d.latticePoints = String((state.p + 1) * (state.n + 1));
  d.contours = String(Math.max(0, state.contourOffsets.length - 1));
  d.model = state.model;
  d.bubbles = String(extra.bubbles ?? 0);
  d.marginalBars = String(extra.marginalBars ?? 0);
  d.contourMetrics = state.contourLabels.length > 1 ? String(state.contourLabels.length - 1) : "0";
}

/** The status line under the slice (plain text). */
export function statusText(state, drawn) {
  const levels = [...new Set(state.contourLevels)].map(formatNumber).join(", ");
  let text = `${state.label}(TP = ${state.tp}, TN = ${state.tn}) = ${formatNumber(state.observed)}`;
  if (levels) text += ` · contours at ${levels}`;
  if (state.withModel) {
    text += ` · bubbles: ${state.model} PMF of a new test set (area ∝ probability`;
    text += state.bubbleGroup > 1 ? `; one per ${state.bubbleGroup} × ${state.bubbleGroup} block of matrices)` : ")";
  }
  if (state.stride > 1) {
    text += ` · thinned: every ${state.stride}th TP and TN value, ${drawn} of ${
      (state.p + 1) * (state.n + 1)
    } lattice points drawn`;
  }
  return text;
}

/** How the bubbles were computed (the status line's tooltip, not its text): the tail mass left out. */
export function statusDetails(state) {
  return state.withModel && showsPruned(state.pmfPruned)
    ? `bubbles leave out a tail mass of ${formatNumber(state.pmfPruned)} (pruned)`
    : "";
}

/** anywidget entry point. */
export function render({ model, el: host }) {
  const root = el("div", "confusionlab-roc-slice", host);
  root.tabIndex = 0;
  const { title, canvas, legend, contourLegend, status, hover } = parts(root, {
    title: "cl-title",
    canvas: ["canvas", "cl-canvas"],
    legend: "cl-legend",
    contourLegend: "cl-contour-legend",
    status: "cl-status",
    hover: "cl-hover",
  });
  canvas.setAttribute("role", "img");
  const { legendLo, legendBar, legendHi } = parts(legend, {
    legendLo: ["span", "cl-legend-lo"],
    legendBar: ["span", "cl-legend-bar"],
    legendHi: ["span", "cl-legend-hi"],
  });
  legendBar.style.background = `linear-gradient(to right, ${DIVERGING.map(cssRGB).join(", ")})`;

  let state = null;
  let view = null;

  const draw = () => {
    const started = typeof performance !== "undefined" ? performance.now() : 0;
    state = readState(model);
    const dpr = pixelRatio();
    const layout = layoutFor(state);
    view = layout.view;
    const ctx = canvas2d(canvas, layout.width, layout.height, dpr);
    const theme = resolveTheme(cssVariableReader(root));
    const counts = {};
    root.dataset.theme = theme.background; // the theme the canvas was drawn with
    const drawn = ctx ? drawSlice(ctx, state, theme, dpr, counts) : 0;
    setDataAttributes(root, state, drawn, counts);
    // The plot area (CSS pixels inside the canvas) and its data window, so that tests
    // and tools can aim at a lattice point.
    root.dataset.plot = [view.left, view.top, view.width, view.height].map((v) => v.toFixed(2)).join(",");
    root.dataset.domain = [view.x0, view.x1, view.y0, view.y1].map((v) => String(v)).join(",");
    // Legend of the contour metrics (text only, never HTML).
    contourLegend.replaceChildren();
    if (state.contourLabels.length > 1) {
      state.contourLabels.forEach((label, index) => {
        const item = el("span", "cl-contour-item", contourLegend);
        const swatch = el("span", "cl-contour-swatch", item);
        swatch.style.borderTopColor = contourColour(index, theme);
        swatch.style.borderTopStyle = index === 0 ? "solid" : "dashed";
        el("span", "cl-contour-label", item).textContent = label;
      });
    }
    const [lo, mid, hi] = state.colourDomain;
    title.textContent = `${state.label} on the slice p = ${state.p}, n = ${state.n}`;
    canvas.setAttribute(
      "aria-label",
      `${state.label} over the ${drawn} lattice points of the slice p = ${state.p}, n = ${state.n}`,
    );
    legendLo.textContent = formatNumber(lo);
    legendHi.textContent = formatNumber(hi);
    legendBar.title = `diverging scale centred on ${formatNumber(mid)}`;
    status.textContent = statusText(state, drawn);
    status.title = statusDetails(state);
    root.dataset.bubbleGroup = String(state.bubbleGroup ?? 1);
    if (started) root.dataset.drawMs = (performance.now() - started).toFixed(1);
  };

  const pick = (event) => {
    if (!state || !view) return null;
    const rect = canvas.getBoundingClientRect();
    return hitTest(
      view,
      state.coordinates,
      state.sliceP,
      state.sliceN,
      event.clientX - rect.left,
      event.clientY - rect.top,
    );
  };
  const valueAt = (hit) => {
    const i = state.tpAxis.indexOf(hit.tp);
    const j = state.tnAxis.indexOf(hit.tn);
    return i < 0 || j < 0 ? null : state.values[i * state.tnAxis.length + j];
  };
  const onMove = (event) => {
    const hit = pick(event);
    hover.textContent = hit
      ? `TP = ${hit.tp}, TN = ${hit.tn}` +
        (valueAt(hit) === null ? "" : ` · ${state.label} = ${formatNumber(valueAt(hit))}`)
      : "";
  };
  // Read p, n, tp, tn from the model, not from the last drawn state: a redraw
  // is deferred to a microtask, so `state` may be one change behind.
  const moveTo = (tp, tn) => {
    model.set("tp", Math.min(model.get("p"), Math.max(0, tp)));
    model.set("tn", Math.min(model.get("n"), Math.max(0, tn)));
    model.save_changes();
  };
  const onClick = (event) => {
    const hit = pick(event);
    if (hit) moveTo(hit.tp, hit.tn);
  };
  // Dragging: a press inside the plot grabs the observed point (moving it there);
  // each move to another lattice point sends tp/tn; leaving the plot clamps to its edge.
  let dragging = false;
  const local = (event) => {
    const rect = canvas.getBoundingClientRect();
    return [event.clientX - rect.left, event.clientY - rect.top];
  };
  const onDown = (event) => {
    if (!state || !view || (event.button !== undefined && event.button !== 0)) return;
    if (!pick(event)) return;
    dragging = true;
    canvas.setPointerCapture?.(event.pointerId);
    root.classList.add("cl-dragging");
    onDrag(event);
  };
  const onDrag = (event) => {
    if (!dragging) return;
    const current = { tp: model.get("tp"), tn: model.get("tn") };
    const target = dragTarget(view, state.coordinates, model.get("p"), model.get("n"), current, ...local(event));
    if (target) moveTo(target.tp, target.tn);
  };
  const onUp = (event) => {
    if (!dragging) return;
    dragging = false;
    canvas.releasePointerCapture?.(event.pointerId);
    root.classList.remove("cl-dragging");
  };
  const STEPS = { ArrowUp: [1, 0], ArrowDown: [-1, 0], ArrowLeft: [0, 1], ArrowRight: [0, -1] };
  const onKey = (event) => {
    const step = STEPS[event.key];
    if (!step || !state) return;
    event.preventDefault();
    moveTo(model.get("tp") + step[0], model.get("tn") + step[1]);
  };
  const unlisten = listen([
    [canvas, "pointermove", onMove],
    [canvas, "pointerdown", onDown],
    [canvas, "pointermove", onDrag],
    [canvas, "pointerup", onUp],
    [canvas, "pointercancel", onUp],
    [canvas, "click", onClick],
    [root, "keydown", onKey],
  ]);
  // Canvas colours come from the theme's CSS variables: a theme switch redraws too.
  const redraw = redrawOnChange(model, KEYS, draw);
  draw();

  return () => {
    redraw.dispose();
    unlisten();
  };
}
