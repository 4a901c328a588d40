// Colour scales. Only view mapping happens here: the values and the domain
// (lo, mid, hi) are computed in Python and shipped with the widget state; the colours
// come from ./palette.js.
import { PALETTE } from "./palette.js";

/** "#rrggbb" → [r, g, b] integers in 0…255. */
export const hexRGB = (hex) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));

/** Diverging scale of metric values (ColorBrewer RdBu, 9 stops, low = red, high = blue), [r, g, b]. */
export const DIVERGING = PALETTE.diverging.map(hexRGB);

/** Colour used for values that are not a number. */
export const MISSING = hexRGB(PALETTE.missing);

/**
 * Interpolate a palette at t in [0, 1] (clamped).
 * @param {number} t
 * @param {number[][]} stops
 * @returns {number[]} [r, g, b] integers
 */
export function paletteAt(t, stops = DIVERGING) {
  if (Number.isNaN(t)) return MISSING;
  const u = Math.min(1, Math.max(0, t)) * (stops.length - 1);
  const i = Math.min(stops.length - 2, Math.floor(u));
  const f = u - i;
  const a = stops[i];
  const b = stops[i + 1];
  return [0, 1, 2].map((k) => Math.round(a[k] + f * (b[k] - a[k])));
}

/**
 * Position of a value on a diverging scale: lo → 0, mid → 0.5, hi → 1,
 * piecewise linear on each side, clamped; ±Infinity go to the ends; NaN stays NaN.
 * @param {number} v
 * @param {number} lo
 * @param {number} mid
 * @param {number} hi
 * @returns {number}
 */
export function divergingPosition(v, lo, mid, hi) {
  if (Number.isNaN(v)) return NaN;
  if (v === Infinity) return 1;
  if (v === -Infinity) return 0;
  if (v < mid) return mid > lo ? 0.5 * Math.max(0, (v - lo) / (mid - lo)) : 0;
  if (v > mid) return hi > mid ? 0.5 + 0.5 * Math.min(1, (v - mid) / (hi - mid)) : 1;
  return 0.5;
}

/** Pack [r, g, b] and an alpha into the uint32 of a little-endian RGBA ImageData. */
export function packRGBA([r, g, b], a = 255) {
  return ((a << 24) | (b << 16) | (g << 8) | r) >>> 0;
}

/** [r, g, b] → "rgb(r, g, b)". */
export const cssRGB = ([r, g, b]) => `rgb(${r}, ${g}, ${b})`;

/**
 * Packed colours for an array of values on a diverging scale. The palette is
 * sampled once into a lookup table of `steps` colours (odd, so that mid is exact);
 * each value then costs one position and one table read.
 * @param {Float32Array|number[]} values
 * @param {[number, number, number]} domain lo, mid, hi
 * @returns {Uint32Array}
 */
export function colourValues(values, [lo, mid, hi], stops = DIVERGING, steps = 1025) {
  const table = new Uint32Array(steps);
  for (let i = 0; i < steps; i++) table[i] = packRGBA(paletteAt(i / (steps - 1), stops));
  const missing = packRGBA(MISSING);
  const out = new Uint32Array(values.length);
  for (let i = 0; i < values.length; i++) {
    const t = divergingPosition(values[i], lo, mid, hi);
    out[i] = Number.isNaN(t) ? missing : table[Math.round(t * (steps - 1))];
  }
  return out;
}
