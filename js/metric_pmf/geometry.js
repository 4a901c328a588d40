// View geometry of the MetricPMF panels: value → pixel scales, histogram binning of
// (value, mass) pairs into equal-width bins, per-pixel merging of sticks, nearest value.
// Nothing here computes a metric or a probability: values and masses arrive from Python.

/** Margins of each panel's plot area, CSS pixels. */
export const PANEL_MARGINS = { left: 46, right: 12, top: 10, bottom: 30 };
/** Heights (CSS pixels) of the PMF plot, the rug and the multiplicity strip. */
export const PANEL_HEIGHTS = { plot: 170, rug: 10, gap: 4, counts: 34 };

/**
 * Sum masses (and multiplicities) of sorted values into `bins` equal-width bins over
 * [lo, hi]. Values outside are clamped into the end bins (±Infinity too), or skipped
 * when `clamp` is false; NaN is skipped.
 * @returns {{edges: Float64Array, mass: Float64Array, count: Float64Array}}
 */
export function histogram(values, masses, lo, hi, bins, counts = null, clamp = true) {
  const edges = new Float64Array(bins + 1);
  for (let b = 0; b <= bins; b++) edges[b] = lo + ((hi - lo) * b) / bins;
  const mass = new Float64Array(bins);
  const count = new Float64Array(bins);
  const width = (hi - lo) / bins;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (Number.isNaN(v) || (!clamp && (v < lo || v > hi))) continue;
    let b = width > 0 ? Math.floor((v - lo) / width) : 0;
    if (!(b >= 0)) b = 0;
    if (b >= bins) b = bins - 1;
    mass[b] += masses[i];
    count[b] += counts ? counts[i] : 1;
  }
  return { edges, mass, count };
}

/**
 * Sticks of a PMF merged per pixel column: for `width` columns over [lo, hi], the
 * summed mass and multiplicity of the values falling in each column and how many
 * distinct values it holds (values outside [lo, hi] are left out). With fewer values than columns nothing merges, and a
 * column's mass is the mass of its value.
 * @returns {{mass: Float64Array, count: Float64Array, values: Float64Array}}
 */
export function stickColumns(values, masses, multiplicities, lo, hi, width) {
  const cols = Math.max(1, Math.round(width));
  const h = histogram(values, masses, lo, hi, cols, multiplicities, false);
  const distinct = histogram(values, masses, lo, hi, cols, null, false).count;
  return { mass: h.mass, count: h.count, values: distinct };
}

export { nearestIndex } from "../shared/search.js";
