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

/** Level of detail of a matrix (a, b, c = TP, FN, FP divided by the stride). */
const levelOf = (tp, fn, fp, tn, a, b, c) =>
  (tp === 0 || fn === 0 || fp === 0 || tn === 0 ? 0 : 2) + ((a | b | c) & 1);

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
  // First pass: the level of each point and points per level; second pass: each point
  // at the next place of its level.
  const sizes = [0, 0, 0, 0];
  const levels = new Uint8Array(count);
  let j = 0;
  for (let a = 0; a <= M; a++)
    for (let s = 0; s <= M - a; s++)
      for (let b = 0; b <= s; b++, j++) {
        const c = s - b;
        const tp = stride * a;
        const fn = stride * b;
        const fp = stride * c;
        const level = levelOf(tp, fn, fp, N - tp - fn - fp, a, b, c);
        levels[j] = level;
        sizes[level] += 1;
      }
  const next = [0, sizes[0], sizes[0] + sizes[1], sizes[0] + sizes[1] + sizes[2]];
  const ends = [next[1], next[2], next[3], count];
  const positions = new Float32Array(3 * count);
  const p = new Uint16Array(count);
  const order = new Uint32Array(count);
  const centre = N / 6;
  j = 0;
  for (let a = 0; a <= M; a++)
    for (let s = 0; s <= M - a; s++)
      for (let b = 0; b <= s; b++, j++) {
        const c = s - b;
        const tp = stride * a;
        const fn = stride * b;
        const fp = stride * c;
        const tn = N - tp - fn - fp;
        const i = next[levels[j]]++;
        const third = tn / 3;
        positions[3 * i] = fn - third - centre;
        positions[3 * i + 1] = fp - third - centre;
        positions[3 * i + 2] = tp - third - centre;
        p[i] = tp + fn;
        order[i] = j;
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
