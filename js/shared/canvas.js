// The canvas plumbing every view shares: HiDPI sizing, the start of a frame, event
// listeners registered with one clean-up, straight segments and the axes of a plot
// (frame, tick labels, titles). Only drawing happens here: every number arrives from Python.

/** The device pixel ratio (1 outside a browser). */
export function pixelRatio() {
  return (typeof window !== "undefined" && window.devicePixelRatio) || 1;
}

/**
 * Size `canvas` for a HiDPI screen: `width` × `height` CSS pixels, each backed by
 * `dpr` × `dpr` device pixels.
 * @param {HTMLCanvasElement} canvas
 * @param {number} width CSS pixels
 * @param {number} height CSS pixels
 * @param {number} [dpr] device pixels per CSS pixel
 */
export function sizeCanvas(canvas, width, height, dpr = pixelRatio()) {
  canvas.width = Math.round(width * dpr);
  canvas.height = Math.round(height * dpr);
  canvas.style.width = `${width}px`;
  canvas.style.height = `${height}px`;
}

/**
 * Size a 2-D canvas (see {@link sizeCanvas}) and return its context, or null where the
 * browser gives none.
 * @returns {CanvasRenderingContext2D|null}
 */
export function canvas2d(canvas, width, height, dpr = pixelRatio()) {
  sizeCanvas(canvas, width, height, dpr);
  return canvas.getContext?.("2d") ?? null;
}

/** Start a frame drawn in CSS pixels: the HiDPI transform, then a clear `width` × `height`. */
export function beginFrame(ctx, width, height, dpr = 1) {
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.clearRect(0, 0, width, height);
}

/**
 * Add event listeners, each `[target, type, handler, options?]`.
 * @param {Array<[EventTarget, string, EventListener, (object|boolean)?]>} bindings
 * @returns {() => void} removes every one of them
 */
export function listen(bindings) {
  for (const [target, type, handler, options] of bindings) target.addEventListener(type, handler, options);
  return () => {
    for (const [target, type, handler, options] of bindings) target.removeEventListener(type, handler, options);
  };
}

/**
 * Stroke the segment from (x0, y0) to (x1, y1) in `colour`, `width` pixels wide, dashed
 * with `dash` when given (the dash is reset afterwards).
 */
export function segment(ctx, x0, y0, x1, y1, { colour, width = 1, dash = null } = {}) {
  if (colour !== undefined) ctx.strokeStyle = colour;
  ctx.lineWidth = width;
  if (dash) ctx.setLineDash?.(dash);
  ctx.beginPath();
  ctx.moveTo(x0, y0);
  ctx.lineTo(x1, y1);
  ctx.stroke();
  if (dash) ctx.setLineDash?.([]);
}

/**
 * The axes of a plot, in CSS pixels: its frame, tick labels below and left of it, and
 * the axis titles (the y title turned a quarter to read upwards).
 *
 * @param {CanvasRenderingContext2D} ctx
 * @param {{muted: string, foreground: string, font: string}} theme
 * @param {object} axes
 * @param {{left: number, top: number, width: number, height: number}} axes.box the plot area
 * @param {"box"|"base"|"none"|{left: number, top: number, width: number, height: number}} [axes.frame]
 *   the box's outline, only its bottom edge, nothing, or the outline of another rectangle
 * @param {(v: number) => number} [axes.x] data → x pixel, for `xTicks`
 * @param {(v: number) => number} [axes.y] data → y pixel, for `yTicks`
 * @param {number[]} [axes.xTicks] values labelled along the bottom
 * @param {number[]} [axes.yTicks] values labelled along the left
 * @param {(v: number) => string} [axes.format] text of a tick label
 * @param {number} [axes.fontSize] of the tick labels (CSS pixels)
 * @param {number} [axes.titleSize] of the titles (default: fontSize)
 * @param {number} [axes.xTickY] top of the x tick labels (default: 4 px below the box)
 * @param {number} [axes.yTickX] right end of the y tick labels (default: 4 px left of the box)
 * @param {string} [axes.xTitle]
 * @param {number} [axes.xTitleY] where the x title sits (default: 18 px below the box)
 * @param {CanvasTextBaseline} [axes.xTitleBaseline] which edge of the x title xTitleY is ("top")
 * @param {string} [axes.yTitle]
 * @param {number} [axes.yTitleX] x of the y title's line (default 12)
 * @param {CanvasTextBaseline} [axes.yTitleBaseline] ("middle")
 */
export function drawAxes(ctx, theme, axes) {
  const { box, frame = "box", x, y, xTicks = [], yTicks = [], format = String, fontSize = 10 } = axes;
  const { left, top, width, height } = box;
  const bottom = top + height;
  ctx.strokeStyle = theme.muted;
  ctx.lineWidth = 1;
  if (frame === "base") segment(ctx, left, bottom + 0.5, left + width, bottom + 0.5);
  else if (frame === "box") ctx.strokeRect(left, top, width, height);
  else if (frame !== "none") ctx.strokeRect(frame.left, frame.top, frame.width, frame.height);
  ctx.fillStyle = theme.foreground;
  ctx.font = `${fontSize}px ${theme.font}`;
  ctx.textAlign = "center";
  ctx.textBaseline = "top";
  for (const t of xTicks) ctx.fillText(format(t), x(t), axes.xTickY ?? bottom + 4);
  ctx.textAlign = "right";
  ctx.textBaseline = "middle";
  for (const t of yTicks) ctx.fillText(format(t), axes.yTickX ?? left - 4, y(t));
  ctx.font = `${axes.titleSize ?? fontSize}px ${theme.font}`;
  ctx.textAlign = "center";
  if (axes.xTitle) {
    ctx.textBaseline = axes.xTitleBaseline ?? "top";
    ctx.fillText(axes.xTitle, left + width / 2, axes.xTitleY ?? bottom + 18);
  }
  if (axes.yTitle) {
    ctx.save();
    ctx.translate(axes.yTitleX ?? 12, top + height / 2);
    ctx.rotate(-Math.PI / 2);
    ctx.textBaseline = axes.yTitleBaseline ?? "middle";
    ctx.fillText(axes.yTitle, 0, 0);
    ctx.restore();
  }
}
