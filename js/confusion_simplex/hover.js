// Hover on the simplex: which drawn point is under the pointer, and which matrix it is.
//
// View geometry only. The positions are the centred isometric coordinates (lattice.js),
//   x = FN − TN/3 − N/6,  y = FP − TN/3 − N/6,  z = TP − TN/3 − N/6,
// a linear map that is invertible once N is known (TP + FN + FP + TN = N), so the
// matrix of a drawn point is read back from its position exactly (countsAt); its
// metric value is the entry of Python's value table at the point's code, never recomputed here.
// Points are reordered for level of detail, so a point's index is not its lattice index.
import { rotate, viewRotation, viewScale } from "./camera.js";
import { DIM, HIGHLIGHT, NORMAL } from "./layers.js";

/** Size factor of highlighted points (as POINTS_VERT in gl.js draws them). */
export const HIGHLIGHT_SCALE = 1.8;
/** Smallest pick radius in CSS pixels: a mouse addresses whole pixels. */
export const MIN_PICK_RADIUS = 1;
/** Largest distance (simplex units) of a decoded count from an integer: positions are float32. */
export const COUNT_TOLERANCE = 0.05;

/**
 * The matrix [TP, FN, FP, TN] at a centred isometric position, or null when the
 * position is not a matrix with N examples (a count off the integers or negative).
 *
 * With c = N/6 and s = x + y + z: TN = (N/2 − s)/2, then FN = x + c + TN/3,
 * FP = y + c + TN/3, TP = z + c + TN/3 (the inverse of the map in the header).
 * @param {ArrayLike<number>} xyz
 * @param {number} N
 * @returns {number[] | null}
 */
export function countsAt(xyz, N) {
  if (!Number.isInteger(N) || N < 0 || !xyz || xyz.length < 3) return null;
  const [x, y, z] = [xyz[0], xyz[1], xyz[2]];
  const c = N / 6;
  const tn = (N / 2 - (x + y + z)) / 2;
  const raw = [z + c + tn / 3, x + c + tn / 3, y + c + tn / 3, tn];
  const counts = raw.map((v) => Math.round(v) + 0); // + 0: never −0
  for (let i = 0; i < 4; i++) {
    if (!(Math.abs(raw[i] - counts[i]) <= COUNT_TOLERANCE) || counts[i] < 0) return null;
  }
  return counts[0] + counts[1] + counts[2] + counts[3] === N ? counts : null;
}

/**
 * Index of the front-most drawn point under the pointer, or −1.
 *
 * A point is under the pointer when the pointer lies within its drawn disc (radius
 * half its size, at least MIN_PICK_RADIUS). It is drawn when its index is below
 * `limit` (the prefix drawn while the view turns) or, when some points are dimmed,
 * when it is in focus (gl.js draws the focus points whatever the limit). When some
 * points are dimmed, an opaque point under the pointer wins over a faint one; among
 * equals the nearest to the viewer (largest view Z), then the nearest to the pointer.
 * @param {Float32Array} positions (count × 3) centred xyz
 * @param {{yaw: number, pitch: number, zoom: number}} camera
 * @param {number} N size of the simplex (sets the scale)
 * @param {number} width canvas width in CSS pixels
 * @param {number} height canvas height in CSS pixels
 * @param {number} px pointer x in CSS pixels from the canvas's left edge
 * @param {number} py pointer y in CSS pixels from the canvas's top edge
 * @param {{pointSize?: number, limit?: number, codes?: Uint8Array|null}} [options]
 * @returns {number}
 */
export function pickPoint(positions, camera, N, width, height, px, py, options = {}) {
  const count = Math.floor(positions.length / 3);
  if (!count || !Number.isFinite(px) || !Number.isFinite(py)) return -1;
  const { pointSize = 1, codes = null } = options;
  const limit = Math.min(count, options.limit ?? count);
  let dimmed = false;
  if (codes) for (let i = 0; i < codes.length && !dimmed; i++) dimmed = codes[i] === DIM;
  const radius = Math.max(pointSize / 2, MIN_PICK_RADIUS);
  const bigRadius = Math.max((HIGHLIGHT_SCALE * pointSize) / 2, MIN_PICK_RADIUS);
  const m = viewRotation(camera);
  const s = viewScale(N, width, height, camera.zoom);
  // Pointer in view units relative to the centre, so the loop needs no division.
  const ux = (px - width / 2) / s;
  const uy = (height / 2 - py) / s;
  const r2 = (radius / s) ** 2;
  const big2 = (bigRadius / s) ** 2;
  const [[a0, a1, a2], [b0, b1, b2], [c0, c1, c2]] = m;
  const reach2 = Math.max(r2, big2);
  let best = -1;
  let bestRank = -1;
  let bestZ = -Infinity;
  let bestD = Infinity;
  for (let i = 0, j = 0; i < count; i++, j += 3) {
    const x = positions[j];
    const y = positions[j + 1];
    const z = positions[j + 2];
    const dx = a0 * x + a1 * y + a2 * z - ux;
    const dx2 = dx * dx;
    if (!(dx2 <= reach2)) continue; // most points: one dot product
    const dy = b0 * x + b1 * y + b2 * z - uy;
    const d = dx2 + dy * dy;
    if (!(d <= reach2)) continue;
    const code = codes ? codes[i] : NORMAL;
    if (d > (code === HIGHLIGHT ? big2 : r2)) continue;
    if (i >= limit && !(dimmed && code !== DIM)) continue;
    const rank = dimmed && code === DIM ? 0 : 1;
    const Z = c0 * x + c1 * y + c2 * z;
    if (rank > bestRank || (rank === bestRank && (Z > bestZ || (Z === bestZ && d < bestD)))) {
      best = i;
      bestRank = rank;
      bestZ = Z;
      bestD = d;
    }
  }
  return best;
}

/**
 * What is under the pointer: the drawn point's index, its matrix, its value from the
 * values buffer and its screen position; null over no point (or before the values arrive).
 * @param {object} state readState(model)
 * @returns {{index: number, counts: number[], value: number, screen: number[]} | null}
 */
export function hoverAt(state, camera, width, height, px, py, options = {}) {
  if (!state.count || state.values.length !== state.count) return null; // values: table[codes], decoded once
  const index = pickPoint(state.positions, camera, state.latticeN, width, height, px, py, options);
  if (index < 0) return null;
  const xyz = state.positions.subarray(3 * index, 3 * index + 3);
  const counts = countsAt(xyz, state.latticeN);
  if (!counts) return null;
  const m = viewRotation(camera);
  const s = viewScale(state.latticeN, width, height, camera.zoom);
  const [X, Y] = rotate(m, xyz);
  return { index, counts, value: state.values[index], screen: [width / 2 + s * X, height / 2 - s * Y] };
}

/** A metric value as shown: 4 significant digits, "undefined" for NaN, ±∞. */
export function formatValue(value) {
  if (value === null || value === undefined || Number.isNaN(value)) return "undefined";
  if (value === Infinity) return "∞";
  if (value === -Infinity) return "−∞";
  return String(Number(Number(value).toPrecision(4)));
}

/** Read-out text (plain; set with textContent): "TP 3 · FN 2 · FP 4 · TN 11 — MCC = 0.1". */
export function hoverText(counts, value, label) {
  const [tp, fn, fp, tn] = counts;
  return `TP ${tp} · FN ${fn} · FP ${fp} · TN ${tn} — ${label} = ${formatValue(value)}`;
}

/**
 * Pointer position in the canvas's CSS pixels (its drawing size `size`), from client
 * coordinates and its bounding box (which differs when a layout scales the canvas).
 * @returns {number[]} [px, py]
 */
export function canvasPoint(clientX, clientY, rect, size) {
  const sx = rect && rect.width > 0 ? size / rect.width : 1;
  const sy = rect && rect.height > 0 ? size / rect.height : 1;
  return [(clientX - (rect ? rect.left : 0)) * sx, (clientY - (rect ? rect.top : 0)) * sy];
}

/**
 * Top-left corner of the read-out box (tipWidth × tipHeight) beside the point at
 * (x, y): below-right, flipped left/up where it would leave the width × height stage.
 * @returns {number[]} [left, top]
 */
export function tooltipPosition(x, y, width, height, tipWidth, tipHeight, gap = 12) {
  let left = x + gap;
  let top = y + gap;
  if (left + tipWidth > width) left = x - gap - tipWidth;
  if (top + tipHeight > height) top = y - gap - tipHeight;
  return [Math.max(0, Math.min(left, width - tipWidth)), Math.max(0, Math.min(top, height - tipHeight))];
}
