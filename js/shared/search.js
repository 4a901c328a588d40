// Searches of ascending arrays, shared by the views whose cursor reads the nearest column.

/**
 * Index of the value nearest to `v` in an ascending array (the lower of two equally near, as
 * numpy's `argmin(abs(sorted - v))` and the Python views' `nearest_index`); −1 when empty.
 */
export function nearestIndex(sorted, v) {
  let lo = 0;
  let hi = sorted.length - 1;
  if (hi < 0) return -1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid] < v) lo = mid;
    else hi = mid;
  }
  return Math.abs(sorted[lo] - v) <= Math.abs(sorted[hi] - v) ? lo : hi;
}
