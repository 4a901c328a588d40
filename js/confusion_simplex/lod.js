// Level of detail while the view turns. Python sends the points surface first, then
// a coarse interior, then the rest, with the ends of the first two levels; when frames
// come too slowly (software WebGL), the widget draws a prefix during the interaction
// and the whole simplex once the view is still again.

/** Frame interval (ms) above which the next frame draws fewer points (below 30 fps). */
export const SLOW_MS = 34;
/** Frame interval (ms) below which the next frame draws more points. */
export const FAST_MS = 20;
/** Time (ms) after the last camera change at which the full simplex is drawn again. */
export const SETTLE_MS = 250;

/**
 * Prefix lengths per level: [all, surface + coarse interior, surface, coarse surface],
 * each at most the point count and never increasing.
 * @param {number} count
 * @param {number[]} ends [coarseSurfaceEnd, surfaceEnd, coarseEnd] as sent in _lattice (may be missing)
 */
export function levelCounts(count, ends = []) {
  const [coarseSurface = count, surface = count, coarse = count] = ends;
  const out = [count];
  for (const end of [coarse, surface, coarseSurface]) out.push(Math.min(out.at(-1), Math.max(0, end)));
  return out;
}

/** Number of levels of detail. */
export const LEVELS = 4;

/**
 * Level for the next frame from the interval since the previous one: coarser after
 * a slow frame, finer after a fast one; unchanged without a measurement (dt null).
 */
export function nextLevel(level, dt, levels = LEVELS) {
  if (dt === null || dt === undefined || !Number.isFinite(dt)) return level;
  if (dt > SLOW_MS) return Math.min(levels - 1, level + 1);
  if (dt < FAST_MS) return Math.max(0, level - 1);
  return level;
}
