// Widget state of a ConfusionSimplex as Python would send it (for the vitest tests).
// The numbers are computed here only to build fixtures; the widget never computes them.
import { f32 } from "./fake_model.js";
import { latticePoints } from "../confusion_simplex/lattice.js";

const u16 = (values) => new DataView(new Uint16Array(values).buffer);

/** Every (TP, FN, FP, TN) with sum N, in an arbitrary order. */
export function compositions(N) {
  const out = [];
  for (let tp = 0; tp <= N; tp++)
    for (let fn = 0; fn <= N - tp; fn++) for (let fp = 0; fp <= N - tp - fn; fp++) out.push([tp, fn, fp, N - tp - fn - fp]);
  return out;
}

const iso = ([tp, fn, fp, tn], N) => [fn - tn / 3 - N / 6, fp - tn / 3 - N / 6, tp - tn / 3 - N / 6];

/** The matrix at a generated position (TN from x + y + z = N/2 − 2·TN), for fixtures. */
export function countsOf(positions, i, N) {
  const [x, y, z] = [positions[3 * i], positions[3 * i + 1], positions[3 * i + 2]];
  const tn = Math.round((N / 2 - (x + y + z)) / 2);
  return [z, x, y].map((v) => Math.round(v + tn / 3 + N / 6)).concat([tn]);
}

/** Distinct values (sorted) and per-point uint16 codes, as Python's encode_values sends them. */
export function encode(values) {
  const table = [...new Set(values)].sort((a, b) => a - b);
  const index = new Map(table.map((v, i) => [v, i]));
  return {
    _codes: u16(values.map((v) => index.get(v))),
    _value_table: new DataView(new Float64Array(table).buffer),
  };
}

/**
 * Place of the matrix (TP, FN, FP, ·) in the lattice order of Python's lattice_columns
 * (TP, then FN + FP, then FN increasing), counted here independently of lattice.js:
 * the blocks of the smaller TPs, then the pairs of smaller FN + FP, then FN.
 */
export function latticeIndex([tp, fn, fp], N) {
  let index = 0;
  for (let a = 0; a < tp; a++) index += ((N - a + 1) * (N - a + 2)) / 2;
  const s = fn + fp;
  return index + (s * (s + 1)) / 2 + fn;
}

/**
 * Codes state of `values` (one per generated point of N, in drawing order) as Python
 * sends it: in the lattice order, keyed for metric@N/1.
 */
export function codesState(values, N, metric = "accuracy") {
  const { positions } = latticePoints(N);
  const sent = new Array(values.length);
  for (let i = 0; i < values.length; i++) sent[latticeIndex(countsOf(positions, i, N), N)] = values[i];
  return { ...encode(sent), _values_info: { key: `${metric}@${N}/1`, code_bytes: 2, distinct: new Set(values).size } };
}

export function simplexState(N, extra = {}) {
  const lattice = latticePoints(N);
  const counts = Array.from({ length: lattice.count }, (_, i) => countsOf(lattice.positions, i, N));
  const values = counts.map(([tp, fn, fp, tn]) => (tp + tn) / N); // accuracy-like, arbitrary
  const vertices = [
    [N, 0, 0, 0],
    [0, N, 0, 0],
    [0, 0, N, 0],
    [0, 0, 0, N],
  ].flatMap((c) => iso(c, N));
  return {
    N,
    metric: "accuracy",
    slices: [],
    dim_others: true,
    observed: [],
    cloud: "none",
    prior: "uniform",
    size: 400,
    _lattice: [N, 1, counts.length, ...lattice.ends.slice(0, 3)],
    _vertices: vertices,
    ...codesState(values, N),
    _metric_label: "Accuracy",
    _colour_domain: [0, 0.5, 1],
    _observed_xyz: [],
    _observed_value: null,
    _cloud_xyz: f32([]),
    _cloud_mass: f32([]),
    _cloud_info: { model: "none", points: 0, mass: 0, pruned: 0, note: "" },
    ...extra,
  };
}

export { iso, u16 };
