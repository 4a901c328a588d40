// The simplex's points, generated here from (N, stride): the lattice is implicit in N,
// so Python sends per-point codes only, never positions. View geometry only: each matrix
// (TP, FN, FP, TN) with TP + FN + FP + TN = N is placed by the centred isometric map
//   x = FN − TN/3 − N/6,  y = FP − TN/3 − N/6,  z = TP − TN/3 − N/6
// (confusionlab.lattice.isometric, same floating-point operations, so the float32
// positions are those Python would compute), in the drawing order of
// confusionlab.widgets.confusion_simplex.drawing_order: TP, then FN + FP, then FN
// increasing (the lattice order), grouped by level of detail (coarse surface, surface,
// coarse interior, rest). Python sends the codes in the lattice order; `order` maps
// each drawn point to its place there (drawing_permutation), so the kernel never
// builds the drawing order (issue 24).

/** Largest number of points generated (the widget's MAX_POINTS × 10, as drawing_order). */
export const MAX_LATTICE_POINTS = 10_000_000;

/** Number of matrices with TP, FN, FP multiples of `stride`: C(M + 3, 3), M = ⌊N / stride⌋. */
export function latticeCount(N, stride = 1) {
  const M = Math.floor(N / stride);
  return ((M + 1) * (M + 2) * (M + 3)) / 6;
}

const choose3 = (k) => (k < 3 ? 0 : (k * (k - 1) * (k - 2)) / 6);

/**
 * Ends of the four levels (coarse surface, surface, coarse interior, rest), counted
 * without enumerating a point (Python's level_ends): the interior matrices have
 * a, b, c >= 1 with a + b + c <= K = ⌊(N − 1) / stride⌋, C(K, 3) of them; the coarse
 * ones (a, b, c even) number C(⌊M / 2⌋ + 3, 3), of which C(⌊K / 2⌋, 3) are interior.
 */
export function levelEnds(N, stride = 1) {
  const M = Math.floor(N / stride);
  const K = N > 0 ? Math.floor((N - 1) / stride) : 0;
  const total = latticeCount(N, stride);
  const surface = total - choose3(K);
  const coarseInterior = choose3(Math.floor(K / 2));
  const coarseSurface = choose3(Math.floor(M / 2) + 3) - coarseInterior;
  return [coarseSurface, surface, surface + coarseInterior, total];
}

/**
 * The drawn matrices of the simplex of size N thinned by `stride`, in drawing order.
 * @param {number} N number of examples (a non-negative integer)
 * @param {number} [stride=1] positive integer step of TP, FN and FP
 * @returns {{count: number, positions: Float32Array, p: Uint16Array, order: Uint32Array, ends: number[]}}
 *   positions (count × 3) centred xyz, p = TP + FN per point, order[i] = the place of
 *   drawn point i in the lattice order, ends of the four levels
 */
export function latticePoints(N, stride = 1) {
  if (!Number.isInteger(N) || N < 0 || !Number.isInteger(stride) || stride < 1) {
    throw new RangeError(`lattice needs integers N >= 0 and stride >= 1, got N=${N}, stride=${stride}`);
  }
  const M = Math.floor(N / stride);
  const count = latticeCount(N, stride);
  if (count > MAX_LATTICE_POINTS) throw new RangeError(`the lattice N=${N}/${stride} has ${count} points`);
  // The levels' sizes are known (levelEnds), so one pass in the lattice order puts each
  // point at the next place of its level.
  const ends = levelEnds(N, stride);
  const next = [0, ends[0], ends[1], ends[2]];
  const positions = new Float32Array(3 * count);
  const p = new Uint16Array(count);
  const order = new Uint32Array(count);
  const centre = N / 6;
  let j = 0;
  for (let a = 0; a <= M; a++) {
    const tp = stride * a;
    for (let s = 0; s <= M - a; s++) {
      const tn = N - tp - stride * s;
      const third = tn / 3;
      // Level: 0 or 2 (surface or not) + 1 when a, b or c is odd.
      const rim = a === 0 || tn === 0;
      for (let b = 0; b <= s; b++, j++) {
        const c = s - b;
        const fn = stride * b;
        const fp = stride * c;
        const level = (rim || b === 0 || c === 0 ? 0 : 2) + ((a | b | c) & 1);
        const i = next[level]++;
        positions[3 * i] = fn - third - centre;
        positions[3 * i + 1] = fp - third - centre;
        positions[3 * i + 2] = tp - third - centre;
        p[i] = tp + fn;
        order[i] = j;
      }
    }
  }
  return { count, positions, p, order, ends };
}

/** Lattices kept by cachedLattice: the current and the previous (N, stride), so an N changed back is not generated again. */
export const LATTICES_KEPT = 2;
const cache = [];

/** latticePoints(N, stride), kept for the last LATTICES_KEPT (N, stride) asked (the arrays are shared: do not modify). */
export function cachedLattice(N, stride = 1) {
  const at = cache.findIndex((e) => e.N === N && e.stride === stride);
  const entry = at >= 0 ? cache.splice(at, 1)[0] : { N, stride, lattice: latticePoints(N, stride) };
  cache.push(entry);
  if (cache.length > LATTICES_KEPT) cache.shift();
  return entry.lattice;
}
