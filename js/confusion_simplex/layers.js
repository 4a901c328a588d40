// Pure per-point attributes of the simplex view: buffers → what the GPU draws.
// No mathematics here beyond view mapping: values and masses come from Python; the
// positions are the view geometry of (N, stride) (lattice.js).
import { decodeFloat32, decodeFloat64, decodeUint16, decodeUint32 } from "../shared/buffers.js";
import { colourValues } from "../shared/colour.js";
import { showsPruned } from "../shared/format.js";
import { cachedLattice, latticeCount } from "./lattice.js";


/** Emphasis codes per point (a uint8 attribute). */
export const DIM = 0;
export const NORMAL = 1;
export const HIGHLIGHT = 2;

/** Codes in drawing order, kept per received buffer (one reordering per message, not per sync). */
const reordered = new WeakMap();

/**
 * Codes sent in the lattice order, reordered into the drawing order: out[i] = codes[order[i]].
 * @param {Uint16Array|Uint32Array} codes
 * @param {Uint32Array} order `latticePoints(...).order`
 */
export function drawingCodes(codes, order) {
  const out = new codes.constructor(order.length);
  for (let i = 0; i < order.length; i++) out[i] = codes[order[i]];
  return out;
}

/**
 * Per-point codes (in drawing order: `order` maps each drawn point to its place in the
 * lattice order the codes are sent in) and the table of distinct values they index,
 * decoded; empty when they belong to another lattice than `key` ("N/stride") or
 * disagree with `count`.
 * @returns {{codes: Uint16Array|Uint32Array, table: Float64Array}}
 */
export function readCodes(model, key, count, order = null) {
  const info = model.get("_values_info") ?? {};
  const empty = { codes: new Uint16Array(0), table: new Float64Array(0) };
  if (typeof info.key !== "string" || !info.key.endsWith(`@${key}`)) return empty;
  const raw = model.get("_codes");
  let codes;
  let table;
  try {
    codes = info.code_bytes === 4 ? decodeUint32(raw) : decodeUint16(raw);
    table = decodeFloat64(model.get("_value_table"));
  } catch {
    return empty;
  }
  if (codes.length !== count || (count > 0 && table.length === 0)) return empty;
  if (order) {
    if (order.length !== count) return empty;
    const kept = raw && typeof raw === "object" ? reordered.get(raw) : undefined;
    if (kept && kept.order === order) codes = kept.codes;
    else {
      codes = drawingCodes(codes, order);
      if (raw && typeof raw === "object") reordered.set(raw, { order, codes });
    }
  }
  return { codes, table };
}

/** Values of the points: table[codes[i]] (undefined codes give NaN). */
export function codeValues(codes, table) {
  const out = new Float64Array(codes.length);
  for (let i = 0; i < codes.length; i++) {
    const v = table[codes[i]];
    out[i] = v === undefined ? NaN : v;
  }
  return out;
}

/**
 * Read and decode the model state. The points are generated from (N, stride) of
 * `_lattice`; codes that belong to another lattice (a state still arriving) are
 * replaced by empty ones, so nothing of two states is ever drawn together.
 */
export function readState(model) {
  const get = (k) => model.get(k);
  const [N, stride = 1, count = 0, ...levelEnds] = get("_lattice") ?? [get("N"), 1, 0];
  const geometryOk = Number.isInteger(N) && N >= 0 && count > 0 && latticeCount(N, stride || 1) === count;
  const lattice = geometryOk ? cachedLattice(N, stride || 1) : null;
  const positions = lattice ? lattice.positions : new Float32Array(0);
  const p = lattice ? lattice.p : new Uint16Array(0);
  const { codes, table } = geometryOk
    ? readCodes(model, `${N}/${stride || 1}`, count, lattice.order)
    : readCodes(model, "", -1);
  let cloudXYZ = decodeFloat32(get("_cloud_xyz"));
  let cloudMass = decodeFloat32(get("_cloud_mass"));
  if (cloudXYZ.length !== 3 * cloudMass.length) {
    cloudXYZ = new Float32Array(0);
    cloudMass = new Float32Array(0);
  }
  const vertices = get("_vertices") ?? [];
  const state = {
    N: get("N"),
    latticeN: N,
    stride: stride || 1,
    count: geometryOk ? count : 0,
    levelEnds,
    metric: get("metric"),
    label: get("_metric_label") || get("metric"),
    slices: (get("slices") ?? []).slice(),
    dimOthers: Boolean(get("dim_others")),
    observed: (get("observed") ?? []).slice(),
    observedXYZ: get("_observed_xyz") ?? [],
    observedValue: get("_observed_value"),
    cloud: get("cloud") || "none",
    cloudInfo: get("_cloud_info") ?? {},
    size: get("size") || 520,
    positions,
    p,
    codes,
    table,
    colourDomain: get("_colour_domain") ?? [0, 0.5, 1],
    vertices: vertices.length === 12 ? [0, 1, 2, 3].map((i) => vertices.slice(3 * i, 3 * i + 3)) : [],
    cloudXYZ,
    cloudMass,
  };
  // The points' values, table[codes[i]], decoded on first use (hover), not on every sync.
  let values = null;
  Object.defineProperty(state, "values", {
    enumerable: true,
    get: () => (values ??= codeValues(codes, table)),
  });
  return state;
}

/**
 * RGBA bytes (4 per point) of the metric values on the diverging palette.
 * @returns {Uint8Array}
 */
export function pointColours(values, domain) {
  const packed = colourValues(values, domain);
  return new Uint8Array(packed.buffer, packed.byteOffset, packed.byteLength);
}

/**
 * RGBA bytes (4 per point) of coded values: each distinct value of `table` is
 * coloured once, then every point takes the colour of its code.
 * @returns {Uint8Array}
 */
export function codeColours(codes, table, domain) {
  const palette = colourValues(table, domain);
  const missing = colourValues([NaN], domain)[0];
  const out = new Uint32Array(codes.length);
  for (let i = 0; i < codes.length; i++) {
    const c = palette[codes[i]];
    out[i] = c === undefined ? missing : c;
  }
  return new Uint8Array(out.buffer);
}

/**
 * Emphasis of each point: HIGHLIGHT on a chosen slice (p in `slices`), DIM for the
 * others when `dimOthers` and something is in focus (a slice or a cloud), else NORMAL.
 * @param {Uint16Array} p p = TP + FN of each point
 * @param {number[]} slices
 * @param {boolean} dimOthers
 * @param {boolean} cloud a probability cloud is drawn
 * @returns {Uint8Array}
 */
export function emphasis(p, slices, dimOthers, cloud = false) {
  const out = new Uint8Array(p.length);
  const chosen = new Set(slices);
  const rest = dimOthers && (chosen.size > 0 || cloud) ? DIM : NORMAL;
  if (chosen.size === 0) return out.fill(rest);
  let maxP = 0;
  for (const s of chosen) maxP = Math.max(maxP, s);
  const table = new Uint8Array(Math.max(maxP + 1, 1)).fill(rest);
  for (const s of chosen) if (s >= 0) table[s] = HIGHLIGHT;
  for (let i = 0; i < p.length; i++) out[i] = p[i] < table.length ? table[p[i]] : rest;
  return out;
}

/**
 * Peak opacity of the marks of a volume cloud of `count` points: about ∛count of them
 * line up behind a pixel of its core, so their summed opacity stays near 3 (the core
 * is dark, not a solid blot) at any size; at most 0.6.
 */
export const volumeAlpha = (count) => Math.min(0.6, 3 / Math.cbrt(Math.max(1, count)));

/** Indices of the points drawn opaque (NORMAL or HIGHLIGHT), for an element buffer. */
export function focusIndices(codes) {
  let n = 0;
  for (let i = 0; i < codes.length; i++) if (codes[i] !== DIM) n++;
  const out = new Uint32Array(n);
  for (let i = 0, j = 0; i < codes.length; i++) if (codes[i] !== DIM) out[j++] = i;
  return out;
}

/** How a cloud encodes mass: "size" for the slice (beta-binomial), "opacity" for the simplex. */
export const cloudEncoding = (cloud) => (cloud === "dirichlet-multinomial" ? "opacity" : "size");

/** Number of points per emphasis code. */
export function countEmphasis(codes) {
  const counts = [0, 0, 0];
  for (let i = 0; i < codes.length; i++) counts[codes[i]] += 1;
  return { dim: counts[DIM], normal: counts[NORMAL], highlight: counts[HIGHLIGHT] };
}

/**
 * Opacity of a dimmed point. Dimmed points overlap: about
 * layers = count · size² / (scale · N)² of them cover a pixel of the simplex's
 * image, so each gets the alpha whose `layers`-fold overlap covers `coverage` of a
 * pixel (between 0.01 and 0.2): the dimmed lattice looks equally faint at any N and zoom.
 */
export function dimAlpha(count, pointSize, scale, N, coverage = 0.4) {
  const area = (scale * N) ** 2;
  const layers = area > 0 ? (count * pointSize * pointSize) / area : 1;
  const alpha = 1 - (1 - coverage) ** (1 / Math.max(layers, 1));
  return Math.min(0.2, Math.max(0.01, alpha));
}

/**
 * Cloud discs: area ∝ mass. Diameter = maxSize·√(mass / max mass); discs below
 * `minSize` pixels are drawn at minSize with their opacity scaled down by the lost
 * area, so the ink stays ∝ mass.
 * @returns {{sizes: Float32Array, alphas: Float32Array}}
 */
export function cloudDiscs(mass, maxSize, minSize = 1.5, alpha = 0.6) {
  return cloudMarks(mass, "size", maxSize, minSize, alpha);
}

/**
 * Cloud marks for either encoding: "size" (area ∝ mass, see cloudDiscs) or
 * "opacity" (every mark `maxSize` wide, alpha = `alpha` · mass / max mass: overlapping
 * marks add up like a density).
 * @returns {{sizes: Float32Array, alphas: Float32Array}}
 */
export function cloudMarks(mass, encoding, maxSize, minSize = 1.5, alpha = 0.6) {
  if (encoding === "opacity") {
    let top = 0;
    for (let i = 0; i < mass.length; i++) if (mass[i] > top) top = mass[i];
    const sizes = new Float32Array(mass.length).fill(maxSize);
    const alphas = new Float32Array(mass.length);
    for (let i = 0; i < mass.length; i++) alphas[i] = top > 0 ? (alpha * Math.max(0, mass[i])) / top : 0;
    return { sizes, alphas };
  }
  let top = 0;
  for (let i = 0; i < mass.length; i++) if (mass[i] > top) top = mass[i];
  const sizes = new Float32Array(mass.length);
  const alphas = new Float32Array(mass.length);
  for (let i = 0; i < mass.length; i++) {
    const d = top > 0 ? maxSize * Math.sqrt(Math.max(0, mass[i]) / top) : 0;
    if (d >= minSize) {
      sizes[i] = d;
      alphas[i] = alpha;
    } else {
      sizes[i] = minSize;
      alphas[i] = (alpha * d * d) / (minSize * minSize);
    }
  }
  return { sizes, alphas };
}

/**
 * Parse a CSS colour (#rgb, #rrggbb, #rrggbbaa, rgb(), rgba()) to [r, g, b, a] in 0..1;
 * `fallback` when it cannot be parsed.
 */
export function parseColour(text, fallback = [0.5, 0.5, 0.5, 1]) {
  const s = String(text ?? "").trim().toLowerCase();
  let m = s.match(/^#([0-9a-f]{3,8})$/);
  if (m) {
    let hex = m[1];
    if (hex.length === 3 || hex.length === 4) hex = [...hex].map((c) => c + c).join("");
    if (hex.length !== 6 && hex.length !== 8) return fallback;
    const byte = (i) => parseInt(hex.slice(2 * i, 2 * i + 2), 16) / 255;
    return [byte(0), byte(1), byte(2), hex.length === 8 ? byte(3) : 1];
  }
  m = s.match(/^rgba?\(([^)]*)\)$/);
  if (m) {
    const parts = m[1].split(/[\s,/]+/).filter(Boolean);
    if (parts.length < 3) return fallback;
    const channel = (t) => (t.endsWith("%") ? parseFloat(t) / 100 : parseFloat(t) / 255);
    const a = parts.length > 3 ? (parts[3].endsWith("%") ? parseFloat(parts[3]) / 100 : parseFloat(parts[3])) : 1;
    const out = [channel(parts[0]), channel(parts[1]), channel(parts[2]), a];
    return out.every(Number.isFinite) ? out : fallback;
  }
  return fallback;
}

/** Label text of the status line (plain text; set with textContent). */
export function statusText(state, drawn) {
  const parts = [];
  const fmt = (v) => (v === null || v === undefined ? "undefined" : String(Number(Number(v).toPrecision(4))));
  if (state.observed.length === 4) {
    const [tp, fn, fp, tn] = state.observed;
    parts.push(`observed TP ${tp}, FN ${fn}, FP ${fp}, TN ${tn}: ${state.label} = ${fmt(state.observedValue)}`);
  }
  if (state.slices.length) parts.push(`slices p = ${state.slices.join(", ")}`);
  const info = state.cloudInfo;
  if (state.cloud !== "none") {
    if (info.note) parts.push(`${state.cloud} cloud: ${info.note}`);
    else {
      parts.push(`${state.cloud} cloud: ${info.points ?? 0} matrices, mass ${fmt(info.mass ?? 0)}`);
    }
  }
  if (state.stride > 1) {
    parts.push(`thinned: TP, FN, FP multiples of ${state.stride}, ${drawn} matrices drawn`);
  }
  return parts.join(" · ");
}

/** How the cloud was computed (the status line's tooltip, not its text): the tail mass pruned. */
export function statusDetails(state) {
  const pruned = Number(state.cloudInfo?.pruned);
  return state.cloud !== "none" && showsPruned(pruned) ? `cloud's pruned tail mass ${pruned.toExponential(1)}` : "";
}

/** Title text (plain). */
export const titleText = (state, count) =>
  `${state.label} over the ${count.toLocaleString("en-US")} confusion matrices with N = ${state.latticeN}`;
