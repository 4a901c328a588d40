// View geometry of a ROC slice: data coordinates, projection to the screen,
// its inverse for hit-testing, ticks and the rasterisation of lattice points.
// Nothing here computes a metric: values and contours arrive from Python.

/** Margins of the plot area inside the canvas, in CSS pixels. */
export const MARGINS = { left: 52, right: 14, top: 12, bottom: 42 };

/**
 * Data coordinates of lattice point (tp, tn) on the slice (p, n).
 * ROC: (FPR, TPR) = ((n − tn)/n, tp/p). Counts: (FP, TP) = (n − tn, tp).
 * @param {"roc"|"counts"} coordinates
 * @returns {[number, number]}
 */
export function latticeToData(coordinates, p, n, tp, tn) {
  return coordinates === "counts" ? [n - tn, tp] : [(n - tn) / n, tp / p];
}

/**
 * Data coordinates of a point given in ROC space (FPR, TPR).
 * @returns {[number, number]}
 */
export function rocToData(coordinates, p, n, fpr, tpr) {
  return coordinates === "counts" ? [fpr * n, tpr * p] : [fpr, tpr];
}

/**
 * Data domain shown: the slice's square/rectangle with a small pad, grown to
 * include `extra` (a bounding box of contours) when given, within `limit` times
 * the slice's size on each side.
 * @param {"roc"|"counts"} coordinates
 * @param {number} p
 * @param {number} n
 * @param {{x0:number,x1:number,y0:number,y1:number}|null} extra
 * @returns {{x0:number,x1:number,y0:number,y1:number}}
 */
export function dataDomain(coordinates, p, n, extra = null, limit = 1) {
  const sx = coordinates === "counts" ? n : 1;
  const sy = coordinates === "counts" ? p : 1;
  let x0 = 0;
  let x1 = sx;
  let y0 = 0;
  let y1 = sy;
  if (extra) {
    x0 = Math.max(Math.min(x0, extra.x0), -limit * sx);
    x1 = Math.min(Math.max(x1, extra.x1), (1 + limit) * sx);
    y0 = Math.max(Math.min(y0, extra.y0), -limit * sy);
    y1 = Math.min(Math.max(y1, extra.y1), (1 + limit) * sy);
  }
  const px = 0.03 * (x1 - x0);
  const py = 0.03 * (y1 - y0);
  return { x0: x0 - px, x1: x1 + px, y0: y0 - py, y1: y1 + py };
}

/**
 * Fit the domain into a canvas of width × height CSS pixels.
 * With `equalAspect` one data unit has the same length on both axes (counts view,
 * where TP+1 and TN+1 are steps of equal length); otherwise the domain fills a square.
 * @returns {{x0:number,x1:number,y0:number,y1:number,left:number,top:number,width:number,height:number}}
 */
export function fitView(domain, width, height, equalAspect = false, margins = MARGINS) {
  const aw = Math.max(1, width - margins.left - margins.right);
  const ah = Math.max(1, height - margins.top - margins.bottom);
  const dx = domain.x1 - domain.x0;
  const dy = domain.y1 - domain.y0;
  let w;
  let h;
  if (equalAspect) {
    const scale = Math.min(aw / dx, ah / dy);
    w = dx * scale;
    h = dy * scale;
  } else {
    w = h = Math.min(aw, ah);
  }
  return {
    ...domain,
    left: margins.left + (aw - w) / 2,
    top: margins.top + (ah - h) / 2,
    width: w,
    height: h,
  };
}

/** Data → screen (CSS pixels, y downwards). */
export function project(view, x, y) {
  return [
    view.left + ((x - view.x0) / (view.x1 - view.x0)) * view.width,
    view.top + view.height - ((y - view.y0) / (view.y1 - view.y0)) * view.height,
  ];
}

/** Screen (CSS pixels) → data. */
export function unproject(view, sx, sy) {
  return [
    view.x0 + ((sx - view.left) / view.width) * (view.x1 - view.x0),
    view.y0 + ((view.top + view.height - sy) / view.height) * (view.y1 - view.y0),
  ];
}

/**
 * The lattice point of slice (p, n) nearest to a screen position, or null when the
 * position is outside the plot area.
 * @returns {{tp:number, tn:number}|null}
 */
export function hitTest(view, coordinates, p, n, sx, sy) {
  if (
    sx < view.left ||
    sx > view.left + view.width ||
    sy < view.top ||
    sy > view.top + view.height
  ) {
    return null;
  }
  const [x, y] = unproject(view, sx, sy);
  const fp = coordinates === "counts" ? x : x * n;
  const tp = coordinates === "counts" ? y : y * p;
  const clamp = (v, hi) => Math.min(hi, Math.max(0, Math.round(v)));
  return { tp: clamp(tp, p), tn: n - clamp(fp, n) };
}

/**
 * About `count` round tick values covering [lo, hi].
 * @returns {number[]}
 */
export function niceTicks(lo, hi, count = 5) {
  if (!(hi > lo) || !Number.isFinite(lo) || !Number.isFinite(hi)) return [];
  const raw = (hi - lo) / Math.max(1, count);
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * mag).find((s) => s >= raw) ?? 10 * mag;
  const ticks = [];
  for (let i = Math.ceil(lo / step); i * step <= hi + 1e-9 * step; i++) {
    ticks.push(Number((i * step).toPrecision(12)));
  }
  return ticks;
}

/**
 * Side, in device pixels, of the square drawn for each lattice point: about
 * 60 % of the spacing between neighbours, between 1 and `max` pixels.
 */
export function pointSize(view, coordinates, p, n, dpr = 1, max = 7) {
  const [ax] = project(view, ...latticeToData(coordinates, p, n, 0, n));
  const [bx] = project(view, ...latticeToData(coordinates, p, n, 0, n - 1));
  const [, ay] = project(view, ...latticeToData(coordinates, p, n, 0, 0));
  const [, by] = project(view, ...latticeToData(coordinates, p, n, 1, 0));
  const spacing = Math.min(Math.abs(bx - ax), Math.abs(by - ay)) * dpr;
  return Math.max(1, Math.min(max, Math.floor(0.6 * spacing)));
}

/**
 * Rasterise squares of `size` device pixels centred on (xs[i], ys[i]) (device
 * pixels) into a packed RGBA pixel array of width × height. Returns how many
 * points were drawn (at least one pixel inside the image).
 * @param {Uint32Array} pixels
 * @param {number} width
 * @param {number} height
 * @param {Float32Array|number[]} xs
 * @param {Float32Array|number[]} ys
 * @param {Uint32Array} colours
 * @param {number} size
 * @returns {number}
 */
export function rasterizePoints(pixels, width, height, xs, ys, colours, size) {
  let drawn = 0;
  if (size === 1) {
    for (let i = 0; i < xs.length; i++) {
      const c = Math.round(xs[i]);
      const r = Math.round(ys[i]);
      if (c < 0 || c >= width || r < 0 || r >= height) continue;
      pixels[r * width + c] = colours[i];
      drawn++;
    }
    return drawn;
  }
  const half = (size - 1) / 2;
  for (let i = 0; i < xs.length; i++) {
    const c0 = Math.max(0, Math.round(xs[i] - half));
    const r0 = Math.max(0, Math.round(ys[i] - half));
    const c1 = Math.min(width, Math.round(xs[i] - half) + size);
    const r1 = Math.min(height, Math.round(ys[i] - half) + size);
    if (c0 >= c1 || r0 >= r1) continue;
    const colour = colours[i];
    for (let r = r0; r < r1; r++) pixels.fill(colour, r * width + c0, r * width + c1);
    drawn++;
  }
  return drawn;
}

/** Bounding box of interleaved (x, y) float data, ignoring non-finite values. */
export function boundingBox(xy) {
  let x0 = Infinity;
  let x1 = -Infinity;
  let y0 = Infinity;
  let y1 = -Infinity;
  for (let i = 0; i + 1 < xy.length; i += 2) {
    const x = xy[i];
    const y = xy[i + 1];
    if (!Number.isFinite(x) || !Number.isFinite(y)) continue;
    if (x < x0) x0 = x;
    if (x > x1) x1 = x;
    if (y < y0) y0 = y;
    if (y > y1) y1 = y;
  }
  return x0 <= x1 ? { x0, x1, y0, y1 } : null;
}
