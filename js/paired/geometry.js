// PairedView geometry: view mapping only (scales, colour of a cell, the band |A − B| ≤ margin).
// Nothing here computes a probability: the joint PMF, the difference and the verdict arrive
// from Python (confusionlab.paired).
import { PALETTE } from "../shared/palette.js";
import { hexRGB, paletteAt } from "../shared/colour.js";
import { maxOf } from "../shared/scale.js";

/** Margins (CSS pixels) of the heat map and of the difference panel. */
export const HEAT_MARGINS = { left: 48, right: 10, top: 10, bottom: 36 };
export const DIFF_MARGINS = { left: 48, right: 12, top: 10, bottom: 36 };
/** Height (CSS pixels) of the difference's plot area. */
export const DIFF_HEIGHT = 180;
/** Decades of mass the heat map's colour spans (cells below max · 10^-DECADES are left blank). */
export const DECADES = 4;
/** Sequential scale of the heat map (PALETTE.sequential: ColorBrewer YlGnBu, light → dark), [r, g, b]. */
export const SEQUENTIAL = PALETTE.sequential.map(hexRGB);

/**
 * Position of a cell's mass on the colour scale: log10(mass / max) mapped from
 * [-decades, 0] to [0, 1]; null for an empty cell or one below max · 10^-decades.
 */
export function massPosition(mass, max, decades = DECADES) {
  if (!(mass > 0) || !(max > 0)) return null;
  const t = 1 + Math.log10(mass / max) / decades;
  return t < 0 ? null : Math.min(1, t);
}

/** Colour of a position t in [0, 1] on the sequential scale → [r, g, b] integers. */
export const sequentialAt = (t, stops = SEQUENTIAL) => paletteAt(t, stops);

/** Largest entry (0 when none is positive). */
export const maxMass = maxOf;

/**
 * The cells of a `rows` × `cols` joint PMF (row-major, row = A's bin, column = B's bin)
 * that get a colour: [{i, j, mass, t}] with t the colour position.
 */
export function heatCells(mass, rows, cols, decades = DECADES) {
  const max = maxMass(mass);
  const cells = [];
  if (mass.length !== rows * cols) return cells;
  for (let i = 0; i < rows; i++) {
    for (let j = 0; j < cols; j++) {
      const t = massPosition(mass[i * cols + j], max, decades);
      if (t !== null) cells.push({ i, j, mass: mass[i * cols + j], t });
    }
  }
  return cells;
}

/**
 * Polygon (data coordinates, [a, b] pairs) of the band |a − b| ≤ margin inside the
 * square [lo, hi]²; the whole square when the margin spans it, [] when margin ≤ 0.
 */
export function bandPolygon(lo, hi, margin) {
  if (!(margin > 0) || !(hi > lo)) return [];
  if (margin >= hi - lo) {
    return [
      [lo, lo],
      [lo, hi],
      [hi, hi],
      [hi, lo],
    ];
  }
  return [
    [lo, lo],
    [lo, lo + margin],
    [hi - margin, hi],
    [hi, hi],
    [hi, hi - margin],
    [lo + margin, lo],
  ];
}

/** Index of the bin of v among ascending `edges` (-1 outside [edges[0], edges.at(-1)]). */
export function binOf(edges, v) {
  const n = edges.length - 1;
  if (n < 1 || !(v >= edges[0] && v <= edges[n])) return -1;
  let lo = 0;
  let hi = n;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (edges[mid] <= v) lo = mid;
    else hi = mid;
  }
  return lo;
}
