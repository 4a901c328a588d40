// The lattice points drawn on the CPU into an RGBA image, the way gl.js's POINTS shader
// draws them: software WebGL (SwiftShader, llvmpipe) spends about 0.4 µs setting up each
// point primitive (≈ 70 ms for the 176,851 points of N = 100), while this loop splats
// them in a few milliseconds. The image is then drawn by WebGL as one textured quad
// between the edges and the cloud, so the result is the same picture.
//
// Same rules as the shader: orthographic clip matrix (column-major), points whose centre
// is outside the clip volume dropped, depth test LESS with depth (ndc z + 1) / 2 against
// a buffer cleared to 1, shade 1 − 0.3·clamp(z + 0.5, 0, 1), highlighted points 1.8×
// larger, discs (not squares) above 2.5 px, two passes when some points are dimmed:
// the opaque ones with depth writes, then the dimmed ones blended (premultiplied "over")
// without depth writes. Rows are stored bottom-up (row 0 = window y 0), as a texture.
import { DIM, HIGHLIGHT } from "./layers.js";

/** Size factor of highlighted points (POINTS_VERT in gl.js). */
export const HIGHLIGHT_SIZE = 1.8;
/** Points larger than this (device pixels) are discs; smaller ones squares. */
export const ROUND_ABOVE = 2.5;

/**
 * An RGBA target of width × height device pixels with its depth buffer (reused between frames).
 * @returns {{width: number, height: number, rgba: Uint8Array, rgba32: Uint32Array, depth: Float32Array}}
 */
export function splatTarget(width, height, previous = null) {
  const w = Math.max(0, Math.floor(width));
  const h = Math.max(0, Math.floor(height));
  if (previous && previous.width === w && previous.height === h) return previous;
  const rgba = new Uint8Array(4 * w * h);
  const depth = new Float32Array(w * h);
  // winner: the point each pixel shows after the opaque pass (−1: none), for recolourLattice.
  return { width: w, height: h, rgba, rgba32: new Uint32Array(rgba.buffer), depth, winner: new Int32Array(w * h) };
}

/**
 * Draw the lattice into `target` (cleared first).
 * @param {{width: number, height: number, rgba: Uint8Array, depth: Float32Array}} target
 * @param {object} points
 * @param {Float32Array} points.positions (n × 3) centred xyz
 * @param {Uint8Array} points.colours (n × 4) RGBA bytes
 * @param {Uint8Array} points.codes emphasis per point (DIM, NORMAL, HIGHLIGHT)
 * @param {number} points.count points drawn in index order (the prefix while the view turns)
 * @param {Uint32Array|null} [points.focus] when some are dimmed: the opaque points' indices,
 *   all drawn whatever `count` (as gl.js's element buffer)
 * @param {boolean} points.hasDim some points are dimmed (second, blended pass)
 * @param {{clip: ArrayLike<number>, size: number, dimAlpha: number, maxSize?: number}} view
 *   size in device pixels
 */
export function splatLattice(target, points, view) {
  const { width: W, height: H, rgba, depth } = target;
  const rgba32 = target.rgba32 ?? new Uint32Array(rgba.buffer, rgba.byteOffset, rgba.length >> 2);
  const winner = target.winner ?? new Int32Array(W * H);
  rgba32.fill(0);
  depth.fill(1);
  winner.fill(-1);
  const { positions, colours, codes, hasDim, focus } = points;
  const n = Math.min(points.count, Math.floor(positions.length / 3), codes.length, Math.floor(colours.length / 4));
  if (!W || !H || n <= 0) return;
  const c = view.clip;
  const [c0, c1, c2, c3, c4, c5, c6, c7, c8, c9, c10, c11, c12, c13, c14, c15] = Array.from(c);
  const maxSize = view.maxSize ?? Infinity;
  const small = Math.min(view.size, maxSize);
  const big = Math.min(view.size * HIGHLIGHT_SIZE, maxSize);
  const alphaDim = view.dimAlpha;

  // One point: the shader's vertex stage, then its pixels (square or disc), depth-tested.
  const splat = (i, s, alpha, blend) => {
    const x = positions[3 * i];
    const y = positions[3 * i + 1];
    const z = positions[3 * i + 2];
    const w = c3 * x + c7 * y + c11 * z + c15;
    if (!(w > 0)) return;
    const cz = c2 * x + c6 * y + c10 * z + c14;
    const nx = (c0 * x + c4 * y + c8 * z + c12) / w;
    const ny = (c1 * x + c5 * y + c9 * z + c13) / w;
    const nz = cz / w;
    if (!(nx >= -1 && nx <= 1 && ny >= -1 && ny <= 1 && nz >= -1 && nz <= 1)) return;
    const d = (nz + 1) / 2;
    const xw = ((nx + 1) / 2) * W;
    const yw = ((ny + 1) / 2) * H;
    const half = s / 2;
    const x0 = Math.max(0, Math.ceil(xw - half - 0.5));
    const x1 = Math.min(W - 1, Math.ceil(xw + half - 0.5) - 1);
    const y0 = Math.max(0, Math.ceil(yw - half - 0.5));
    const y1 = Math.min(H - 1, Math.ceil(yw + half - 0.5) - 1);
    const round = s > ROUND_ABOVE;
    const r2 = half * half;
    const shade = 1 - 0.3 * Math.min(1, Math.max(0, cz + 0.5));
    const k = shade * alpha;
    const r = colours[4 * i] * k;
    const g = colours[4 * i + 1] * k;
    const b = colours[4 * i + 2] * k;
    const a = 255 * alpha;
    const keep = 1 - alpha;
    // Little-endian RGBA in one word (the opaque pass writes whole pixels).
    const packed = (((r + 0.5) | 0) | (((g + 0.5) | 0) << 8) | (((b + 0.5) | 0) << 16) | (255 << 24)) >>> 0;
    for (let py = y0; py <= y1; py++) {
      const dy = py + 0.5 - yw;
      let p = py * W + x0;
      for (let px = x0; px <= x1; px++, p++) {
        if (round) {
          const dx = px + 0.5 - xw;
          if (dx * dx + dy * dy > r2) continue;
        }
        if (!(d < depth[p])) continue;
        if (blend) {
          const q = 4 * p;
          rgba[q] = Math.round(r + rgba[q] * keep);
          rgba[q + 1] = Math.round(g + rgba[q + 1] * keep);
          rgba[q + 2] = Math.round(b + rgba[q + 2] * keep);
          rgba[q + 3] = Math.round(a + rgba[q + 3] * keep);
        } else {
          depth[p] = d;
          rgba32[p] = packed;
          winner[p] = i;
        }
      }
    }
  };

  // splat(i, small, 1, false) for a square point (small ≤ ROUND_ABOVE), inlined without
  // the disc and blend branches: the same pixels, a third faster (the usual N = 100 frame).
  // The camera is orthographic (w = 1 exactly: dividing by it changes nothing, so it is
  // skipped), and a point's colour is computed only once it wins a pixel: most interior
  // points are hidden behind the surface, drawn first (issue 24).
  const squares = !(small > ROUND_ABOVE);
  const halfSmall = small / 2;
  const ortho = c3 === 0 && c7 === 0 && c11 === 0 && c15 === 1;
  const square = (i) => {
    const x = positions[3 * i];
    const y = positions[3 * i + 1];
    const z = positions[3 * i + 2];
    const cz = c2 * x + c6 * y + c10 * z + c14;
    let nx;
    let ny;
    let nz;
    if (ortho) {
      nx = c0 * x + c4 * y + c8 * z + c12;
      ny = c1 * x + c5 * y + c9 * z + c13;
      nz = cz;
    } else {
      const w = c3 * x + c7 * y + c11 * z + c15;
      if (!(w > 0)) return;
      nx = (c0 * x + c4 * y + c8 * z + c12) / w;
      ny = (c1 * x + c5 * y + c9 * z + c13) / w;
      nz = cz / w;
    }
    if (!(nx >= -1 && nx <= 1 && ny >= -1 && ny <= 1 && nz >= -1 && nz <= 1)) return;
    const d = (nz + 1) / 2;
    const xw = ((nx + 1) / 2) * W;
    const yw = ((ny + 1) / 2) * H;
    let x0 = Math.ceil(xw - halfSmall - 0.5);
    if (x0 < 0) x0 = 0;
    let x1 = Math.ceil(xw + halfSmall - 0.5) - 1;
    if (x1 > W - 1) x1 = W - 1;
    let y0 = Math.ceil(yw - halfSmall - 0.5);
    if (y0 < 0) y0 = 0;
    let y1 = Math.ceil(yw + halfSmall - 0.5) - 1;
    if (y1 > H - 1) y1 = H - 1;
    let packed = -1; // the colour, once the point is in front somewhere
    for (let py = y0; py <= y1; py++) {
      let p = py * W + x0;
      for (let px = x0; px <= x1; px++, p++) {
        if (d < depth[p]) {
          if (packed < 0) {
            const t = cz + 0.5;
            const k = 1 - 0.3 * (t < 0 ? 0 : t > 1 ? 1 : t);
            const q = 4 * i;
            packed =
              (((colours[q] * k + 0.5) | 0) |
                (((colours[q + 1] * k + 0.5) | 0) << 8) |
                (((colours[q + 2] * k + 0.5) | 0) << 16) |
                (255 << 24)) >>>
              0;
          }
          depth[p] = d;
          rgba32[p] = packed;
          winner[p] = i;
        }
      }
    }
  };
  const opaque = (i) => {
    const code = codes[i];
    if (code === DIM) return;
    if (code === HIGHLIGHT) splat(i, big, 1, false);
    else if (squares) square(i);
    else splat(i, small, 1, false);
  };
  if (hasDim && focus) {
    for (let k = 0; k < focus.length; k++) {
      const i = focus[k];
      if (i < codes.length) opaque(i);
    }
  } else {
    for (let i = 0; i < n; i++) opaque(i);
  }
  if (hasDim) for (let i = 0; i < n; i++) if (codes[i] === DIM) splat(i, small, alphaDim, true);
}

/**
 * New colours on the picture of the last splatLattice, when nothing but the colours
 * changed and no point is dimmed (one opaque pass): each pixel keeps the point it
 * showed, recoloured and shaded as splatLattice would. The same pixels as a new splat.
 * @param {{rgba: Uint8Array, winner: Int32Array}} target drawn by splatLattice (no dimmed points)
 * @param {Float32Array} positions as drawn
 * @param {Uint8Array} colours (n × 4) the new RGBA bytes
 * @param {ArrayLike<number>} clip the clip matrix drawn with
 */
export function recolourLattice(target, positions, colours, clip) {
  const { rgba, winner } = target;
  const rgba32 = target.rgba32 ?? new Uint32Array(rgba.buffer, rgba.byteOffset, rgba.length >> 2);
  const c2 = clip[2];
  const c6 = clip[6];
  const c10 = clip[10];
  const c14 = clip[14];
  for (let p = 0; p < winner.length; p++) {
    const i = winner[p];
    if (i < 0) continue;
    const cz = c2 * positions[3 * i] + c6 * positions[3 * i + 1] + c10 * positions[3 * i + 2] + c14;
    const k = 1 - 0.3 * Math.min(1, Math.max(0, cz + 0.5));
    const r = colours[4 * i] * k;
    const g = colours[4 * i + 1] * k;
    const b = colours[4 * i + 2] * k;
    rgba32[p] = (((r + 0.5) | 0) | (((g + 0.5) | 0) << 8) | (((b + 0.5) | 0) << 16) | (255 << 24)) >>> 0;
  }
}
