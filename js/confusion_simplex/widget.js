// ConfusionSimplex front-end: wires the model to camera.js (view geometry),
// layers.js (per-point attributes) and gl.js (regl drawing).
import { listen, pixelRatio, sizeCanvas } from "../shared/canvas.js";
import { DIVERGING, cssRGB } from "../shared/colour.js";
import { cssVariableReader, resolveTheme } from "../shared/theme.js";
import { el, parts } from "../shared/dom.js";
import { redrawOnChange } from "../shared/redraw.js";
import {
  DEFAULT_CAMERA,
  clipMatrix,
  dragCamera,
  keyCamera,
  latticePointSize,
  projectPoint,
  rotationLabel,
  viewScale,
  wheelFactor,
  zoomCamera,
} from "./camera.js";
import { createRenderer, webglContext } from "./gl.js";
import { cachedLattice } from "./lattice.js";
import { canvasPoint, hoverAt, hoverText, tooltipPosition } from "./hover.js";
import { SETTLE_MS, levelCounts, nextLevel } from "./lod.js";
import {
  cloudEncoding,
  cloudMarks,
  dimAlpha,
  volumeAlpha,
  countEmphasis,
  emphasis,
  focusIndices,
  codeColours,
  parseColour,
  readState,
  statusDetails,
  statusText,
  titleText,
} from "./layers.js";

/** Model keys whose change triggers an update. */
export const KEYS = [
  "N",
  "metric",
  "slices",
  "dim_others",
  "observed",
  "cloud",
  "size",
  "_lattice",
  "_vertices",
  "_codes",
  "_value_table",
  "_values_info",
  "_metric_label",
  "_colour_domain",
  "_observed_xyz",
  "_observed_value",
  "_cloud_xyz",
  "_cloud_mass",
  "_cloud_info",
];

export const VERTEX_NAMES = ["TP", "FN", "FP", "TN"];

/** Message shown (and put in data-error) when WebGL is unavailable. */
export const NO_WEBGL =
  "WebGL is not available in this browser, so the 3-D simplex cannot be drawn. " +
  "Enable hardware acceleration or WebGL, or use the RocSlice view of one slice.";

/** Message shown when the browser takes the WebGL context away. */
export const CONTEXT_LOST =
  "The browser took this view's WebGL context away (too many 3-D views open at once?). " +
  "Re-run the cell to draw it again.";

/**
 * Position of a vertex label: the projected vertex pushed `offset` pixels away
 * from the canvas centre.
 */
export function labelPosition(camera, N, width, height, xyz, offset = 14) {
  const [sx, sy] = projectPoint(camera, N, width, height, xyz);
  const dx = sx - width / 2;
  const dy = sy - height / 2;
  const r = Math.hypot(dx, dy) || 1;
  return [sx + (offset * dx) / r, sy + (offset * dy) / r];
}

/** GL colours of the theme: CSS strings resolved through a probe element. */
function glTheme(root) {
  const theme = resolveTheme(cssVariableReader(root));
  const probe = el("span", null, root);
  const resolve = (css, fallback) => {
    probe.style.color = "";
    probe.style.color = css;
    const computed = typeof getComputedStyle === "function" ? getComputedStyle(probe).color : "";
    return parseColour(computed || css, parseColour(css, fallback));
  };
  const fg = resolve(theme.foreground, [0.13, 0.13, 0.13, 1]);
  const bg = resolve(theme.background, [1, 1, 1, 1]);
  const accent = resolve(theme.accent, [0.1, 0.46, 0.82, 1]);
  probe.remove();
  return {
    edge: [fg[0], fg[1], fg[2], 0.45],
    cloud: [fg[0], fg[1], fg[2]],
    accent: [accent[0], accent[1], accent[2], 1],
    halo: [bg[0], bg[1], bg[2], 1],
  };
}

/**
 * Renderer options: the lattice is splatted on the CPU with software WebGL, drawn as GL
 * points otherwise; `globalThis.confusionlabSimplexDrawing = "points" | "splat"` (set by
 * the benchmark and the tests before a view is created) chooses one.
 */
export function drawingOptions() {
  const choice = typeof globalThis !== "undefined" ? globalThis.confusionlabSimplexDrawing : undefined;
  return choice === "points" || choice === "splat" ? { splat: choice === "splat" } : {};
}

/**
 * The kernel names a new lattice ({prepare_lattice: [N, stride]}) before it computes
 * its codes: enumerate it now (cachedLattice, view geometry), while the kernel works,
 * so the state that follows finds it ready (issue 24). Anything else is ignored.
 * @returns {boolean} whether a lattice was prepared
 */
export function prepareLattice(content) {
  const request = content && content.prepare_lattice;
  if (!Array.isArray(request) || request.length !== 2) return false;
  const [N, stride] = request;
  try {
    cachedLattice(N, stride);
  } catch {
    return false; // not a lattice (a RangeError): the state message decides what is drawn
  }
  return true;
}

/** anywidget entry point. */
export function render({ model, el: host }) {
  const root = el("div", "confusionlab-simplex", host);
  root.tabIndex = 0;
  root.setAttribute("role", "application");
  root.setAttribute("aria-roledescription", "rotatable 3-D view");
  root.setAttribute("aria-label", "Confusion simplex: drag or use the arrow keys to rotate, + and − to zoom");
  const { title, stage } = parts(root, { title: "cl-title", stage: "cl-stage" });
  const canvas = el("canvas", "cl-canvas", stage);
  canvas.setAttribute("role", "img");
  const labels = VERTEX_NAMES.map((name) => {
    const label = el("span", "cl-vertex-label", stage);
    label.textContent = name;
    label.dataset.vertex = name;
    return label;
  });
  // Hover read-out: a ring on the point under the pointer and a box naming its matrix.
  const { hoverRing, hoverTip } = parts(stage, { hoverRing: "cl-hover-ring", hoverTip: "cl-hover" });
  hoverRing.hidden = true;
  hoverTip.hidden = true;
  const { legend, status, help } = parts(root, { legend: "cl-legend", status: "cl-status", help: "cl-help" });
  const { legendLo, legendBar, legendHi } = parts(legend, {
    legendLo: ["span", "cl-legend-lo"],
    legendBar: ["span", "cl-legend-bar"],
    legendHi: ["span", "cl-legend-hi"],
  });
  legendBar.style.background = `linear-gradient(to right, ${DIVERGING.map(cssRGB).join(", ")})`;
  help.textContent = "Drag or arrow keys: rotate · wheel or + / −: zoom · 0: reset";

  const gl = webglContext(canvas);
  let renderer = null;
  let error = "";
  if (gl) {
    try {
      renderer = createRenderer(gl, drawingOptions());
    } catch (e) {
      error = `${NO_WEBGL} (${e && e.message ? e.message : e})`;
    }
  } else {
    error = NO_WEBGL;
  }
  const showError = (text) => {
    const message = stage.querySelector(".cl-error") || el("div", "cl-error", stage);
    message.setAttribute("role", "alert");
    message.textContent = text;
    root.dataset.error = text;
    root.dataset.renderer = renderer ? "webgl" : "none";
  };
  if (error) showError(error);
  root.dataset.renderer = renderer ? "webgl" : "none";
  // How the lattice points are drawn: "splat" (on the CPU, software WebGL) or "points" (GL).
  if (renderer && renderer.mode) root.dataset.drawing = renderer.mode;
  // A browser keeps a limited number of WebGL contexts (about 16 in Chromium) and
  // drops the oldest: say so instead of showing a stale or empty canvas.
  const onContextLost = (event) => {
    event.preventDefault();
    renderer = null;
    showError(CONTEXT_LOST);
  };

  let disposed = false;
  const clock = () => (typeof performance !== "undefined" ? performance.now() : Date.now());
  let camera = { ...DEFAULT_CAMERA };
  let state = readState(model);
  let frames = 0;
  let drawn = 0;
  let theme = null;
  // Emphasis codes and prefix of the last frame: which points are drawn (for hover).
  let codes = new Uint8Array(0);
  let drawnLimit = Infinity;
  // Pointer over the canvas (CSS pixels of the canvas) or null.
  let pointer = null;
  // Inputs the GPU buffers were last built from (identity of the model's values).
  const uploaded = {};

  const layout = () => {
    const size = state.size;
    sizeCanvas(canvas, size, size);
    stage.style.width = `${size}px`;
    stage.style.height = `${size}px`;
  };

  /** Bring the GPU buffers up to date with the model, uploading only what changed. */
  const sync = () => {
    const syncStart = clock();
    state = readState(model);
    // An input counts as changed when the model holds another object for it (a new
    // message) or when its decoded length changed (a state completed or broken).
    const changed = (key, ...inputs) => {
      const last = uploaded[key];
      if (last && last.length === inputs.length && last.every((v, i) => v === inputs[i])) return false;
      uploaded[key] = inputs;
      return true;
    };
    const any = (...flags) => flags.some(Boolean); // every flag evaluated (each records its input)
    const get = (key) => model.get(key);
    const geometry = changed("positions", state.positions);
    const coloursChanged = changed("values", state.codes.buffer, state.table.buffer, get("_colour_domain"));
    const focusChanged = any(
      changed("p", state.p),
      changed("slices", state.slices.join(","), state.dimOthers, state.cloudMass.length > 0),
    );
    const cloudChanged = changed("cloud", get("_cloud_xyz"), get("_cloud_mass"), state.cloudMass.length);
    if (changed("size", state.size)) layout();
    if (changed("vertices", get("_vertices"), get("_observed_xyz")) && renderer) {
      renderer.setEdges(state.vertices);
      renderer.setMarker(state.observedXYZ);
    }
    if (announced && announced.p === state.p && announced.key === emphasisKey()) codes = announced.codes;
    else codes = emphasis(state.p, state.slices, state.dimOthers, state.cloudMass.length > 0);
    if (announced && announced.p === state.p) announced = null;
    const counts = countEmphasis(codes);
    if (renderer) {
      if (geometry) renderer.setPositions(state.positions);
      if (coloursChanged) renderer.setColours(codeColours(state.codes, state.table, state.colourDomain));
      if (focusChanged || geometry) renderer.setEmphasis(codes, counts.dim > 0, counts.dim > 0 ? focusIndices(codes) : null);
      if (cloudChanged) updateCloud();
    }
    // Data attributes: what the buffers describe (they travel in one message).
    const d = root.dataset;
    d.n = String(state.latticeN);
    d.metric = String(state.metric);
    d.slices = state.slices.join(",");
    d.dimOthers = String(state.dimOthers);
    d.observed = state.observed.join(",");
    d.cloud = state.cloud;
    d.cloudPoints = String(state.cloudMass.length);
    d.latticePoints = String(state.count);
    d.highlighted = String(counts.highlight);
    d.dimmed = String(counts.dim);
    d.stride = String(state.stride);
    const [lo, , hi] = state.colourDomain;
    legendLo.textContent = String(Number(Number(lo).toPrecision(3)));
    legendHi.textContent = String(Number(Number(hi).toPrecision(3)));
    legendBar.title = `${state.label}: diverging scale centred on ${state.colourDomain[1]}`;
    title.textContent = titleText(state, state.count);
    canvas.setAttribute(
      "aria-label",
      `Confusion simplex, N = ${state.latticeN}, ${state.count} matrices coloured by ${state.label}`,
    );
    status.textContent = statusText(state, state.count);
    status.title = statusDetails(state);
    // Milliseconds of this sync before its frame (decode, colours, buffers; the benchmark reads it).
    d.syncMs = (clock() - syncStart).toFixed(1);
    // New data is drawn at once (the message's task), so the page shows it at the next
    // vsync; camera moves are drawn in animation frames. A frame already queued draws it.
    if (renderer && !interacting && !framePending) frame(now());
    else requestFrame();
    requestHover();
  };

  /**
   * Name the matrix under the still pointer (or clear the read-out): data-hover, ring and
   * box. Hidden while the view turns or zooms; the frame drawn once it settles shows it again.
   */
  const updateHover = () => {
    const size = state.size;
    const hit =
      renderer && pointer && !drag && !interacting
        ? hoverAt(state, camera, size, size, pointer[0], pointer[1], {
            pointSize: latticePointSize(state.latticeN, size, size, camera.zoom, state.stride),
            limit: drawnLimit,
            codes,
          })
        : null;
    const d = root.dataset;
    if (!hit) {
      hoverRing.hidden = true;
      hoverTip.hidden = true;
      delete d.hover;
      delete d.hoverValue;
      return;
    }
    const [x, y] = hit.screen;
    hoverRing.style.left = `${x.toFixed(1)}px`;
    hoverRing.style.top = `${y.toFixed(1)}px`;
    hoverRing.hidden = false;
    hoverTip.textContent = hoverText(hit.counts, hit.value, state.label);
    hoverTip.hidden = false;
    const [left, top] = tooltipPosition(x, y, size, size, hoverTip.offsetWidth || 0, hoverTip.offsetHeight || 0);
    hoverTip.style.left = `${left.toFixed(1)}px`;
    hoverTip.style.top = `${top.toFixed(1)}px`;
    // Both together: the counts (TP, FN, FP, TN) and the value as the buffer holds it.
    d.hoverValue = String(hit.value);
    d.hover = hit.counts.join(",");
  };
  let hoverPending = false;
  const requestHover = () => {
    if (hoverPending) return;
    hoverPending = true;
    raf(() => {
      hoverPending = false;
      if (!disposed) updateHover();
    });
  };

  // The slice cloud (a plane) is drawn as bubbles, area ∝ mass; the simplex cloud (a
  // volume, seen through) as marks of one size with opacity ∝ mass.
  const updateCloud = () => {
    const spacing = Math.SQRT2 * viewScale(state.latticeN, state.size, state.size, camera.zoom);
    const encoding = cloudEncoding(state.cloud);
    const mass = state.cloudMass;
    const marks =
      encoding === "size"
        ? cloudMarks(mass, "size", Math.min(28, Math.max(6, 2.2 * spacing)), 1.5, 0.55)
        : cloudMarks(mass, "opacity", Math.min(12, Math.max(2, 1.2 * spacing)), 1, volumeAlpha(mass.length));
    renderer.setCloud(state.cloudXYZ, marks.sizes, marks.alphas);
    root.dataset.cloudEncoding = encoding;
  };

  // Level of detail while the view turns (see lod.js): kept between interactions.
  let level = 0;
  let interacting = false;
  let lastFrameAt = null;
  let settleTimer = null;

  const frame = (now) => {
    const frameStart = clock();
    const size = state.size;
    const N = state.latticeN;
    for (let i = 0; i < labels.length; i++) {
      const vertex = state.vertices[i];
      labels[i].hidden = !vertex;
      if (!vertex) continue;
      const [x, y] = labelPosition(camera, N, size, size, vertex);
      labels[i].style.left = `${x.toFixed(1)}px`;
      labels[i].style.top = `${y.toFixed(1)}px`;
    }
    root.dataset.rotation = rotationLabel(camera);
    root.dataset.zoom = camera.zoom.toFixed(2);
    if (renderer) {
      if (!theme) theme = glTheme(root);
      const clip = clipMatrix(camera, N, size, size);
      const pointSize = latticePointSize(N, size, size, camera.zoom, state.stride);
      const dim = dimAlpha(state.count, pointSize, viewScale(N, size, size, camera.zoom), N);
      const ready = state.codes.length === state.count;
      let limit = state.count;
      // `data-detail="full"` on the root (set by the benchmark) turns the levels off.
      if (interacting && root.dataset.detail !== "full") {
        level = nextLevel(level, lastFrameAt === null ? null : now - lastFrameAt);
        lastFrameAt = now;
        limit = levelCounts(state.count, state.levelEnds)[level];
      } else {
        lastFrameAt = null;
      }
      drawn = renderer.draw({ clip, pointSize, dimAlpha: dim, dpr: pixelRatio(), theme, ready, limit });
      drawnLimit = limit;
      frames += 1;
      root.dataset.level = String(interacting ? level : 0);
    } else {
      drawn = 0;
    }
    root.dataset.points = String(drawn);
    root.dataset.frameMs = (clock() - frameStart).toFixed(1); // draw time of this frame
    root.dataset.frames = String(frames);
    if (pointer) updateHover(); // the camera or the data moved under a still pointer
  };

  let framePending = false;
  const now = () => (typeof performance !== "undefined" ? performance.now() : Date.now());
  const raf =
    typeof requestAnimationFrame === "function" ? requestAnimationFrame : (cb) => setTimeout(() => cb(Date.now()), 16);
  const requestFrame = () => {
    if (framePending) return;
    framePending = true;
    raf((now) => {
      framePending = false;
      if (!disposed) frame(typeof now === "number" ? now : Date.now());
    });
  };

  const setCamera = (next) => {
    const zoomed = next.zoom !== camera.zoom;
    camera = next;
    // While the view moves, frames may draw a prefix of the points; once it has been
    // still for SETTLE_MS, one frame draws them all.
    interacting = true;
    clearTimeout(settleTimer);
    settleTimer = setTimeout(() => {
      interacting = false;
      requestFrame();
    }, SETTLE_MS);
    if (zoomed && renderer && state.cloudMass.length) updateCloud();
    requestFrame();
  };

  // Mouse: drag rotates, wheel zooms.
  let drag = null;
  const onPointerDown = (event) => {
    if (event.button !== undefined && event.button !== 0) return;
    drag = { x: event.clientX, y: event.clientY, id: event.pointerId };
    if (canvas.setPointerCapture && event.pointerId !== undefined) {
      try {
        canvas.setPointerCapture(event.pointerId);
      } catch {
        /* synthetic events have no active pointer */
      }
    }
    root.focus({ preventScroll: true });
    event.preventDefault();
    updateHover(); // hidden while dragging
  };
  const onPointerMove = (event) => {
    pointer = canvasPoint(event.clientX, event.clientY, canvas.getBoundingClientRect(), state.size);
    if (!drag) {
      requestHover();
      return;
    }
    const dx = event.clientX - drag.x;
    const dy = event.clientY - drag.y;
    drag.x = event.clientX;
    drag.y = event.clientY;
    if (dx || dy) setCamera(dragCamera(camera, dx, dy));
  };
  const onPointerUp = () => {
    drag = null;
    requestHover();
  };
  const onPointerLeave = () => {
    pointer = null;
    requestHover();
  };
  const onWheel = (event) => {
    event.preventDefault();
    setCamera(zoomCamera(camera, wheelFactor(event.deltaY)));
  };
  const onKey = (event) => {
    const next = keyCamera(camera, event.key);
    if (!next) return;
    event.preventDefault();
    setCamera(next);
  };
  const unlisten = listen([
    [canvas, "webglcontextlost", onContextLost],
    [canvas, "pointerdown", onPointerDown],
    [canvas, "pointermove", onPointerMove],
    [canvas, "pointerup", onPointerUp],
    [canvas, "pointercancel", onPointerUp],
    [canvas, "pointerleave", onPointerLeave],
    [canvas, "wheel", onWheel, { passive: false }],
    [root, "keydown", onKey],
  ]);

  // Model changes sync the GPU buffers once per burst; a JupyterLab theme switch
  // re-reads the colours for the next frame.
  const redraw = redrawOnChange(model, KEYS, sync, {
    onTheme: () => {
      theme = null;
      requestFrame();
    },
  });
  // An announced lattice (prepare_lattice): enumerated now and, with software WebGL, its
  // picture splatted ahead with the current camera and emphasis, so the frame that draws
  // its codes only recolours it. The emphasis array is kept for that sync (same object).
  let announced = null;
  const emphasisKey = () => `${state.slices.join(",")}|${state.dimOthers}|${state.cloudMass.length > 0}`;
  const onCustom = (content) => {
    if (!prepareLattice(content) || !renderer || !renderer.prepare || drag || interacting) return;
    const [N, stride] = content.prepare_lattice;
    const lattice = cachedLattice(N, stride);
    const emph = emphasis(lattice.p, state.slices, state.dimOthers, state.cloudMass.length > 0);
    if (countEmphasis(emph).dim > 0) return;
    const size = state.size;
    const pointSize = latticePointSize(N, size, size, camera.zoom, stride);
    const clip = clipMatrix(camera, N, size, size);
    if (renderer.prepare({ positions: lattice.positions, codes: emph, clip, pointSize, dpr: pixelRatio() })) {
      announced = { p: lattice.p, key: emphasisKey(), codes: emph };
    }
  };
  model.on("msg:custom", onCustom);
  layout();
  uploaded.size = [state.size];
  sync();

  return () => {
    disposed = true;
    clearTimeout(settleTimer);
    redraw.dispose();
    model.off("msg:custom", onCustom);
    unlisten();
    if (renderer) renderer.destroy();
  };
}
