// Pure helpers of the EvaluationView: the per-group slices of the buffers, the shares of the
// variance decomposition and the spread of the refits' means. Nothing here computes a metric:
// values, masses, standard deviations and means arrive from Python.

/** Margins and height (CSS pixels) of each group's PMF canvas. */
export const MARGINS = { left: 10, right: 10, top: 12, bottom: 22 };
export const PLOT_HEIGHT = 70;

/** Slice `array` into parts by `offsets` (start of each part plus the end); [] when inconsistent. */
export function splitByOffsets(array, offsets, parts) {
  const out = [];
  if (!offsets || offsets.length !== parts + 1 || offsets[parts] !== array.length) {
    for (let k = 0; k < parts; k++) out.push(array.subarray(0, 0));
    return out;
  }
  for (let k = 0; k < parts; k++) out.push(array.subarray(offsets[k], offsets[k + 1]));
  return out;
}

/**
 * Shares of the total variance: test set and refit (they add up to 1; a zero total
 * gives {test: 1, refit: 0}; missing values count as 0).
 */
export function varianceShares(testSd, refitSd) {
  const t = Number.isFinite(testSd) ? testSd * testSd : 0;
  const r = Number.isFinite(refitSd) ? refitSd * refitSd : 0;
  const total = t + r;
  if (!(total > 0)) return { test: 1, refit: 0 };
  return { test: t / total, refit: r / total };
}

/** {min, max} of the refits' means (null when there are none). */
export function spread(means) {
  if (!means || means.length === 0) return null;
  let lo = Infinity;
  let hi = -Infinity;
  for (const m of means) {
    if (m < lo) lo = m;
    if (m > hi) hi = m;
  }
  return { min: lo, max: hi };
}

/** Largest mass among values inside [lo, hi] (0 when none). */
export function maxMassInside(values, masses, lo, hi) {
  let m = 0;
  for (let i = 0; i < values.length; i++) if (values[i] >= lo && values[i] <= hi && masses[i] > m) m = masses[i];
  return m;
}
