// The CPU splat of the lattice against the GL point rules written out independently:
// which pixels a point covers (centres inside its square, or disc above 2.5 px), depth
// LESS, shading, highlighted size, the dimmed pass blended "over" without depth writes.
import { describe, expect, it } from "vitest";
import { DIM, HIGHLIGHT, NORMAL } from "../confusion_simplex/layers.js";
import { recolourLattice, splatLattice, splatTarget } from "../confusion_simplex/splat.js";
import { latticePoints } from "../confusion_simplex/lattice.js";
import { DEFAULT_CAMERA, clipMatrix } from "../confusion_simplex/camera.js";

// Identity-like clip: ndc = (x, y, z) directly (column-major 4 × 4).
const IDENTITY = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
const W = 20;
const H = 10;

/** Pixel (column i, row j counted from the bottom) → ndc of its centre. */
const ndcOf = (i, j) => [((i + 0.5) / W) * 2 - 1, ((j + 0.5) / H) * 2 - 1];

function run(points, view = {}) {
  const target = splatTarget(W, H);
  const n = points.length;
  const positions = new Float32Array(points.flatMap((p) => p.xyz));
  const colours = new Uint8Array(points.flatMap((p) => p.rgba ?? [200, 100, 50, 255]));
  const codes = new Uint8Array(points.map((p) => p.code ?? NORMAL));
  splatLattice(
    target,
    { positions, colours, codes, count: view.count ?? n, hasDim: view.hasDim ?? false, focus: view.focus ?? null },
    { clip: IDENTITY, size: 1, dimAlpha: 0.25, ...view },
  );
  return target;
}

const pixel = (t, i, j) => Array.from(t.rgba.subarray(4 * (j * W + i), 4 * (j * W + i) + 4));
const covered = (t) => {
  const out = [];
  for (let j = 0; j < H; j++) for (let i = 0; i < W; i++) if (t.rgba[4 * (j * W + i) + 3]) out.push([i, j]);
  return out;
};

describe("splatLattice", () => {
  it("covers the pixels whose centres lie inside the point's square", () => {
    // A point at the corner shared by pixels (4, 2), (5, 2), (4, 3), (5, 3): size 2 covers those four.
    const x = (5 / W) * 2 - 1;
    const y = (3 / H) * 2 - 1;
    expect(covered(run([{ xyz: [x, y, -0.5] }], { size: 2 }))).toEqual([
      [4, 2],
      [5, 2],
      [4, 3],
      [5, 3],
    ]);
    // Size 1 at a pixel centre: that pixel only.
    const [cx, cy] = ndcOf(7, 6);
    expect(covered(run([{ xyz: [cx, cy, -0.5] }], { size: 1 }))).toEqual([[7, 6]]);
  });

  it("shades by depth: rgb × (1 − 0.3·clamp(z + 0.5, 0, 1)), opaque", () => {
    const [cx, cy] = ndcOf(3, 3);
    for (const z of [-0.9, -0.5, 0, 0.4, 0.9]) {
      const shade = 1 - 0.3 * Math.min(1, Math.max(0, z + 0.5));
      const got = pixel(run([{ xyz: [cx, cy, z], rgba: [200, 100, 40, 255] }]), 3, 3);
      expect(got).toEqual([Math.round(200 * shade), Math.round(100 * shade), Math.round(40 * shade), 255]);
    }
  });

  it("keeps the nearest point (smaller z) whatever the order; ties keep the first", () => {
    const [cx, cy] = ndcOf(3, 3);
    const near = { xyz: [cx, cy, -0.6], rgba: [255, 0, 0, 255] };
    const far = { xyz: [cx, cy, -0.55], rgba: [0, 0, 255, 255] };
    expect(pixel(run([near, far]), 3, 3)[0]).toBeGreaterThan(0);
    expect(pixel(run([far, near]), 3, 3)[0]).toBeGreaterThan(0);
    const twin = { xyz: [cx, cy, -0.6], rgba: [0, 255, 0, 255] };
    expect(pixel(run([near, twin]), 3, 3)[1]).toBe(0);
  });

  it("drops points outside the clip volume, draws only the prefix", () => {
    const [cx, cy] = ndcOf(3, 3);
    expect(covered(run([{ xyz: [cx, cy, 1.5] }, { xyz: [1.2, 0, 0] }], { size: 3 }))).toEqual([]);
    expect(covered(run([{ xyz: [cx, cy, 0] }, { xyz: [...ndcOf(9, 5), 0] }], { count: 1 }))).toEqual([[3, 3]]);
  });

  it("draws highlighted points 1.8× larger and discs above 2.5 px", () => {
    const [cx, cy] = ndcOf(10, 5);
    // size 2 highlighted → 3.6 px disc: centres within 1.8 px of the point.
    const got = covered(run([{ xyz: [cx, cy, 0], code: HIGHLIGHT }], { size: 2 }));
    const expected = [];
    for (let j = 0; j < H; j++)
      for (let i = 0; i < W; i++) if ((i - 10) ** 2 + (j - 5) ** 2 <= 1.8 ** 2) expected.push([i, j]);
    expect(got).toEqual(expected);
    expect(got).toHaveLength(9); // the 3 × 3 block: corners at √2 ≤ 1.8
    // A normal 5-px point is a disc: its 5 × 5 block without the four corners (√8 > 2.5).
    expect(covered(run([{ xyz: [cx, cy, 0] }], { size: 5 }))).toHaveLength(21);
    // A 2.5-px point is a square: its 3 × 3 block whole (a disc would drop the corners, √2 > 1.25).
    expect(covered(run([{ xyz: [...ndcOf(4, 4), 0] }], { size: 2.5 }))).toHaveLength(9);
  });

  it("blends dimmed points over the opaque ones in front of nothing, without depth writes", () => {
    const [cx, cy] = ndcOf(3, 3);
    const opaque = { xyz: [cx, cy, 0.2], rgba: [0, 0, 200, 255] };
    const dimFront = { xyz: [cx, cy, -0.4], rgba: [200, 0, 0, 255], code: DIM };
    const dimBehind = { xyz: [cx, cy, 0.6], rgba: [0, 200, 0, 255], code: DIM };
    const t = run([dimFront, opaque, dimBehind], { hasDim: true });
    const a = 0.25;
    const shadeOpaque = 1 - 0.3 * 0.7;
    const shadeDim = 1 - 0.3 * 0.1;
    const under = [0, 0, Math.round(200 * shadeOpaque), 255];
    const expected = [
      Math.round(200 * shadeDim * a + under[0] * (1 - a)),
      Math.round(under[1] * (1 - a)),
      Math.round(under[2] * (1 - a)),
      Math.round(255 * a + 255 * (1 - a)),
    ];
    expect(pixel(t, 3, 3)).toEqual(expected);
    // Alone, two dimmed points both blend (no depth writes): a + a(1 − a) of coverage.
    const lone = run([{ ...dimFront }, { ...dimBehind }], { hasDim: true });
    expect(pixel(lone, 3, 3)[3]).toBe(Math.round(255 * a + Math.round(255 * a) * (1 - a)));
  });

  it("draws the focus points whatever the prefix when some are dimmed", () => {
    const points = [{ xyz: [...ndcOf(1, 1), 0], code: DIM }, { xyz: [...ndcOf(8, 8), 0], code: HIGHLIGHT }];
    const t = run(points, { hasDim: true, focus: new Uint32Array([1]), count: 1 });
    expect(pixel(t, 8, 8)[3]).toBe(255);
    expect(pixel(t, 1, 1)[3]).toBe(Math.round(255 * 0.25));
  });

  it("recolours the last picture exactly as a new splat with the new colours would draw it", () => {
    const N = 9;
    const { positions, count } = latticePoints(N);
    const codes = new Uint8Array(count).map((_, i) => (i % 5 === 0 ? HIGHLIGHT : NORMAL));
    const colours = (seed) => new Uint8Array(4 * count).map((_, i) => (i * seed + 17) % 251);
    const clip = clipMatrix({ ...DEFAULT_CAMERA, yaw: 0.7 }, N, 64, 64);
    const view = { clip, size: 3, dimAlpha: 0.1 };
    const points = { positions, codes, count, hasDim: false, focus: null };
    const recoloured = splatTarget(64, 64);
    splatLattice(recoloured, { ...points, colours: colours(7) }, view);
    recolourLattice(recoloured, positions, colours(13), clip);
    const fresh = splatTarget(64, 64);
    splatLattice(fresh, { ...points, colours: colours(13) }, view);
    expect(fresh.rgba.some((v) => v > 0)).toBe(true);
    expect(Array.from(recoloured.rgba)).toEqual(Array.from(fresh.rgba));
  });

  it("places square points through a projective clip (w = 2) as through the orthographic one (w = 1)", () => {
    // Every entry doubled: x/w is the same float (halving is exact), so the same points win
    // the same pixels at the same depths (the shade reads clip z, which doubles); the
    // orthographic frame (the camera's) skips the division, the other performs it.
    const N = 12;
    const { positions, count } = latticePoints(N);
    const codes = new Uint8Array(count).fill(NORMAL);
    const colours = new Uint8Array(4 * count).map((_, i) => (i * 11 + 5) % 253);
    const clip = clipMatrix({ ...DEFAULT_CAMERA, yaw: 1.1, pitch: 0.3 }, N, 48, 48);
    const points = { positions, codes, colours, count, hasDim: false, focus: null };
    const ortho = splatTarget(48, 48);
    splatLattice(ortho, points, { clip, size: 2, dimAlpha: 0.1 });
    const projective = splatTarget(48, 48);
    splatLattice(projective, points, { clip: Array.from(clip, (v) => 2 * v), size: 2, dimAlpha: 0.1 });
    expect(ortho.winner.filter((i) => i >= 0).length).toBeGreaterThan(300);
    expect(Array.from(projective.winner)).toEqual(Array.from(ortho.winner));
    expect(Array.from(projective.depth)).toEqual(Array.from(ortho.depth));
  });

  it("reuses its target, and survives empty or inconsistent input", () => {
    const t = splatTarget(W, H);
    expect(splatTarget(W, H, t)).toBe(t);
    expect(splatTarget(W + 1, H, t)).not.toBe(t);
    const empty = { positions: new Float32Array(0), colours: new Uint8Array(0), codes: new Uint8Array(0), count: 5, hasDim: false };
    splatLattice(t, empty, { clip: IDENTITY, size: 2, dimAlpha: 0.1 });
    expect(t.rgba.every((v) => v === 0)).toBe(true);
    splatLattice(splatTarget(0, 0), empty, { clip: IDENTITY, size: 2, dimAlpha: 0.1 });
  });
});
