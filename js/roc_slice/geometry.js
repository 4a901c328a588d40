// View geometry of a ROC slice: data coordinates, projection to the screen,
// its inverse for hit-testing, ticks and the rasterisation of lattice points.
// Nothing here computes a metric: values and contours arrive from Python.
import { maxOf } from "../shared/scale.js";

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

/** Height (CSS pixels) of the strips that hold the marginal PMFs, and their gap to the plot. */
export const STRIP = 46;
export const STRIP_GAP = 6;

/**
 * Margins of the plot area: MARGINS, plus a strip above (FPR marginal) and one to the
 * right (TPR marginal) when a model's marginals are drawn.
 */
export function marginsFor(withMarginals) {
  if (!withMarginals) return MARGINS;
  return { ...MARGINS, top: MARGINS.top + STRIP + STRIP_GAP, right: MARGINS.right + STRIP + STRIP_GAP };
}

/**
 * Bubble radius (CSS pixels) for each mass, with AREA proportional to the mass: the
 * largest mass `maxMass` gets `maxRadius`; masses that would give less than
 * `minRadius` get 0 (not drawn).
 * @param {Float32Array|number[]} masses
 * @returns {Float32Array}
 */
export function bubbleRadii(masses, maxMass, maxRadius, minRadius = 0) {
  const out = new Float32Array(masses.length);
  if (!(maxMass > 0)) return out;
  for (let i = 0; i < masses.length; i++) {
    const r = maxRadius * Math.sqrt(Math.max(0, masses[i]) / maxMass);
    out[i] = r >= minRadius ? r : 0;
  }
  return out;
}

/**
 * Screen spacing (CSS pixels) between neighbouring lattice points: the smaller of the
 * one-TN and one-TP steps.
 */
export function latticeSpacing(view, coordinates, p, n) {
  const [ax] = project(view, ...latticeToData(coordinates, p, n, 0, n));
  const [bx] = project(view, ...latticeToData(coordinates, p, n, 0, n - 1));
  const [, ay] = project(view, ...latticeToData(coordinates, p, n, 0, 0));
  const [, by] = project(view, ...latticeToData(coordinates, p, n, 1, 0));
  return Math.min(Math.abs(bx - ax), Math.abs(by - ay));
}

/**
 * Sum a marginal PMF over blocks of `group` consecutive values. Returns the block
 * masses and each block's centre of mass, as an offset (in values) from `lo`.
 * @returns {{mass: Float64Array, centre: Float64Array}}
 */
export function groupMarginal(masses, group) {
  const blocks = Math.ceil(masses.length / group);
  const mass = new Float64Array(blocks);
  const centre = new Float64Array(blocks);
  for (let b = 0; b < blocks; b++) {
    let m = 0;
    let moment = 0;
    const end = Math.min(masses.length, (b + 1) * group);
    for (let i = b * group; i < end; i++) {
      m += masses[i];
      moment += masses[i] * i;
    }
    mass[b] = m;
    centre[b] = m > 0 ? moment / m : (b * group + end - 1) / 2;
  }
  return { mass, centre };
}

/**
 * Bubbles of a joint PMF that is the outer product of a TP marginal and a TN marginal:
 * mass(TP = tpLo + i, TN = tnLo + j) = tpMass[i] · tnMass[j]. Returns the centres and
 * radii (CSS pixels) of the bubbles big enough to draw (radius >= minRadius), with
 * area ∝ mass and the heaviest bubble of radius `maxRadius`.
 *
 * When lattice points are closer than `minCell` pixels, one bubble stands for a
 * block of group × group points: its area is ∝ the block's mass (the joint is an
 * outer product, so block masses are products of the marginals' block sums) and it
 * sits at the block's centre of mass. `group` is returned (1: one bubble per point).
 * @returns {{xs: Float32Array, ys: Float32Array, rs: Float32Array, count: number, group: number}}
 */
export function bubbleGeometry(view, state, maxRadius, minRadius = 0.35, minCell = 4) {
  const { coordinates, sliceP: p, sliceN: n, pmfLo } = state;
  const empty = { xs: new Float32Array(0), ys: new Float32Array(0), rs: new Float32Array(0), count: 0, group: 1 };
  if (!state.pmfTp.length || !state.pmfTn.length) return empty;
  const spacing = latticeSpacing(view, coordinates, p, n);
  const group = spacing > 0 && spacing < minCell ? Math.ceil(minCell / spacing) : 1;
  const rowsG = groupMarginal(state.pmfTp, group);
  const colsG = groupMarginal(state.pmfTn, group);
  const rows = rowsG.mass.length;
  const cols = colsG.mass.length;
  // Radius factorises: r = R·sqrt(a_i/maxA)·sqrt(b_j/maxB).
  const rowR = bubbleRadii(rowsG.mass, maxOf(rowsG.mass), Math.sqrt(maxRadius));
  const colR = bubbleRadii(colsG.mass, maxOf(colsG.mass), Math.sqrt(maxRadius));
  const colX = new Float32Array(cols);
  const rowY = new Float32Array(rows);
  for (let j = 0; j < cols; j++) {
    colX[j] = project(view, ...latticeToData(coordinates, p, n, 0, pmfLo[1] + colsG.centre[j]))[0];
  }
  for (let i = 0; i < rows; i++) {
    rowY[i] = project(view, ...latticeToData(coordinates, p, n, pmfLo[0] + rowsG.centre[i], n))[1];
  }
  let count = 0;
  for (let i = 0; i < rows; i++) for (let j = 0; j < cols; j++) if (rowR[i] * colR[j] >= minRadius) count++;
  const xs = new Float32Array(count);
  const ys = new Float32Array(count);
  const rs = new Float32Array(count);
  let k = 0;
  for (let i = 0; i < rows; i++) {
    for (let j = 0; j < cols; j++) {
      const r = rowR[i] * colR[j];
      if (r < minRadius) continue;
      xs[k] = colX[j];
      ys[k] = rowY[i];
      rs[k] = r;
      k++;
    }
  }
  return { xs, ys, rs, count, group };
}

/**
 * Bars of the marginal PMFs in the strips outside the plot, as rectangles in CSS pixels
 * {x, y, w, h}. "fpr": one bar per TN value above the plot, at x = FPR (or FP), height
 * ∝ mass (the heaviest fills the strip). "tpr": one bar per TP value right of the plot,
 * at y = TPR (or TP), length ∝ mass.
 * @param {"fpr"|"tpr"} which
 * @returns {{x:number,y:number,w:number,h:number,mass:number}[]}
 */
export function marginalBars(view, state, which, strip = STRIP, gap = STRIP_GAP) {
  const { coordinates, sliceP: p, sliceN: n, pmfLo } = state;
  const masses = which === "fpr" ? state.pmfTn : state.pmfTp;
  const peak = maxOf(masses);
  if (!masses.length || !(peak > 0)) return [];
  const spacing = latticeSpacing(view, coordinates, p, n);
  const thickness = Math.max(1, Math.min(12, 0.8 * spacing));
  const bars = [];
  for (let k = 0; k < masses.length; k++) {
    const length = (strip * masses[k]) / peak;
    if (length <= 0) continue;
    if (which === "fpr") {
      const [x] = project(view, ...latticeToData(coordinates, p, n, 0, pmfLo[1] + k));
      bars.push({ x: x - thickness / 2, y: view.top - gap - length, w: thickness, h: length, mass: masses[k] });
    } else {
      const [, y] = project(view, ...latticeToData(coordinates, p, n, pmfLo[0] + k, n));
      bars.push({ x: view.left + view.width + gap, y: y - thickness / 2, w: length, h: thickness, mass: masses[k] });
    }
  }
  return bars;
}

/**
 * The lattice point nearest to a screen position, clamped to the slice even when the
 * position lies outside the plot (a drag that leaves the plot keeps the point on its edge).
 * @returns {{tp:number, tn:number}}
 */
export function hitTestClamped(view, coordinates, p, n, sx, sy) {
  const cx = Math.min(view.left + view.width, Math.max(view.left, sx));
  const cy = Math.min(view.top + view.height, Math.max(view.top, sy));
  return hitTest(view, coordinates, p, n, cx, cy);
}

/**
 * Where a drag to (sx, sy) moves the observed point: the clamped nearest lattice point,
 * or null when it is the current point (nothing to send).
 * @returns {{tp:number, tn:number}|null}
 */
export function dragTarget(view, coordinates, p, n, current, sx, sy) {
  const hit = hitTestClamped(view, coordinates, p, n, sx, sy);
  return hit.tp === current.tp && hit.tn === current.tn ? null : hit;
}
