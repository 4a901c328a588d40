// Widget state of a ConfusionSimplex as Python would send it (for the vitest tests).
// The numbers are computed here only to build fixtures; the widget never computes them.
import { f32 } from "./fake_model.js";

const u16 = (values) => new DataView(new Uint16Array(values).buffer);

/** Every (TP, FN, FP, TN) with sum N, in an arbitrary order. */
export function compositions(N) {
  const out = [];
  for (let tp = 0; tp <= N; tp++)
    for (let fn = 0; fn <= N - tp; fn++) for (let fp = 0; fp <= N - tp - fn; fp++) out.push([tp, fn, fp, N - tp - fn - fp]);
  return out;
}

const iso = ([tp, fn, fp, tn], N) => [fn - tn / 3 - N / 6, fp - tn / 3 - N / 6, tp - tn / 3 - N / 6];

export function simplexState(N, extra = {}) {
  const counts = compositions(N);
  const xyz = counts.flatMap((c) => iso(c, N));
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
    _lattice: [N, 1, counts.length],
    _positions: f32(xyz),
    _p: u16(counts.map(([tp, fn]) => tp + fn)),
    _vertices: vertices,
    _values: f32(values),
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
