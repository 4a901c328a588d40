import { describe, expect, it } from "vitest";
import {
  BASE,
  DEFAULT_CAMERA,
  DEG,
  PITCH_LIMIT,
  ZOOM_LIMITS,
  applyMatrix,
  circumradius,
  clipMatrix,
  dragCamera,
  keyCamera,
  latticePointSize,
  projectPoint,
  rotate,
  rotationLabel,
  turntable,
  viewRotation,
  viewScale,
  wheelFactor,
  wrapAngle,
  zoomCamera,
} from "../confusion_simplex/camera.js";

// Centred isometric vertices of the simplex of size N (as Python sends them):
// x = FN − TN/3, y = FP − TN/3, z = TP − TN/3, minus the centroid (N/6, N/6, N/6).
const vertices = (N) => {
  const c = N / 6;
  return {
    TP: [-c, -c, N - c],
    FN: [N - c, -c, -c],
    FP: [-c, N - c, -c],
    TN: [-N / 3 - c, -N / 3 - c, -N / 3 - c],
  };
};
const FRONT = { yaw: 0, pitch: 0, zoom: 1 };
const dot = (a, b) => a.reduce((s, v, i) => s + v * b[i], 0);

describe("base orientation", () => {
  it("is orthonormal, a reflection (determinant −1)", () => {
    for (let i = 0; i < 3; i++) {
      for (let j = 0; j < 3; j++) expect(dot(BASE[i], BASE[j])).toBeCloseTo(i === j ? 1 : 0, 12);
    }
    const [a, b, c] = BASE;
    const det =
      a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0]) + a[2] * (b[0] * c[1] - b[1] * c[0]);
    expect(det).toBeCloseTo(-1, 12);
  });

  it("puts TP on top, FN back-left, FP back-right, TN in front", () => {
    const v = vertices(60);
    const m = viewRotation(FRONT);
    const [tpx, tpy] = rotate(m, v.TP);
    expect(tpx).toBeCloseTo(0, 9);
    expect(tpy).toBeCloseTo(circumradius(60), 9);
    const fn = rotate(m, v.FN);
    const fp = rotate(m, v.FP);
    const tn = rotate(m, v.TN);
    expect(fn[0]).toBeLessThan(0);
    expect(fn[2]).toBeLessThan(0);
    expect(fp[0]).toBeGreaterThan(0);
    expect(fp[2]).toBeLessThan(0);
    expect(tn[0]).toBeCloseTo(0, 9);
    expect(tn[2]).toBeGreaterThan(0);
  });

  it("preserves distances (edges stay N·√2)", () => {
    const v = vertices(30);
    const m = viewRotation({ yaw: 0.7, pitch: -0.3, zoom: 1 });
    const a = rotate(m, v.FN);
    const b = rotate(m, v.TN);
    expect(Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2])).toBeCloseTo(30 * Math.SQRT2, 9);
  });
});

describe("projection", () => {
  it("maps the centroid to the canvas centre", () => {
    for (const camera of [FRONT, DEFAULT_CAMERA, { yaw: 2, pitch: -1, zoom: 3 }]) {
      const [sx, sy] = projectPoint(camera, 60, 500, 400, [0, 0, 0]);
      expect(sx).toBeCloseTo(250, 9);
      expect(sy).toBeCloseTo(200, 9);
    }
  });

  it("maps the TP vertex straight above the centre at any yaw", () => {
    for (const yaw of [0, 0.5, -2, Math.PI]) {
      const [sx, sy] = projectPoint({ yaw, pitch: 0, zoom: 1 }, 60, 500, 500, vertices(60).TP);
      expect(sx).toBeCloseTo(250, 9);
      expect(sy).toBeCloseTo(250 - viewScale(60, 500, 500) * circumradius(60), 9);
      expect(sy).toBeGreaterThan(0);
    }
  });

  it("keeps the whole simplex inside the canvas at zoom 1", () => {
    for (const camera of [FRONT, DEFAULT_CAMERA, { yaw: 1.1, pitch: 1.4, zoom: 1 }]) {
      for (const xyz of Object.values(vertices(150))) {
        const [sx, sy] = projectPoint(camera, 150, 520, 520, xyz);
        expect(sx).toBeGreaterThanOrEqual(0);
        expect(sx).toBeLessThanOrEqual(520);
        expect(sy).toBeGreaterThanOrEqual(0);
        expect(sy).toBeLessThanOrEqual(520);
      }
    }
  });

  it("the clip matrix agrees with projectPoint, nearer points have smaller depth", () => {
    const camera = { yaw: 0.4, pitch: 0.3, zoom: 1.7 };
    const mat = clipMatrix(camera, 60, 400, 300);
    for (const xyz of [...Object.values(vertices(60)), [3, -2, 5]]) {
      const [cx, cy, cz, cw] = applyMatrix(mat, xyz);
      const [sx, sy, depth] = projectPoint(camera, 60, 400, 300, xyz);
      expect(cw).toBe(1);
      expect(((cx + 1) / 2) * 400).toBeCloseTo(sx, 3);
      expect(((1 - cy) / 2) * 300).toBeCloseTo(sy, 3);
      expect(cz).toBeCloseTo(-depth / (2 * circumradius(60)), 6);
      expect(Math.abs(cz)).toBeLessThanOrEqual(0.5 + 1e-6);
    }
  });

  it("zoom scales distances from the centre", () => {
    const tp = vertices(60).TP;
    const [, y1] = projectPoint({ ...FRONT, zoom: 1 }, 60, 500, 500, tp);
    const [, y2] = projectPoint({ ...FRONT, zoom: 2 }, 60, 500, 500, tp);
    expect(250 - y2).toBeCloseTo(2 * (250 - y1), 9);
  });
});

describe("interaction", () => {
  it("a drag to the right turns the yaw, down raises the pitch (clamped)", () => {
    const c = dragCamera(FRONT, 100, 0);
    expect(c.yaw).toBeCloseTo(1, 12);
    expect(c.pitch).toBe(0);
    expect(dragCamera(FRONT, 0, 1e6).pitch).toBe(PITCH_LIMIT);
    expect(dragCamera(FRONT, 0, -1e6).pitch).toBe(-PITCH_LIMIT);
  });

  it("a drag changes the screen position of a vertex", () => {
    const fn = vertices(60).FN;
    const before = projectPoint(DEFAULT_CAMERA, 60, 500, 500, fn);
    const after = projectPoint(dragCamera(DEFAULT_CAMERA, 40, 10), 60, 500, 500, fn);
    expect(Math.hypot(after[0] - before[0], after[1] - before[1])).toBeGreaterThan(10);
  });

  it("zoom is clamped and the wheel zooms in when scrolled up", () => {
    expect(zoomCamera(FRONT, 1e9).zoom).toBe(ZOOM_LIMITS[1]);
    expect(zoomCamera(FRONT, 1e-9).zoom).toBe(ZOOM_LIMITS[0]);
    expect(wheelFactor(-100)).toBeGreaterThan(1);
    expect(wheelFactor(100)).toBeLessThan(1);
  });

  it("keys rotate, zoom and reset; other keys are not ours", () => {
    expect(keyCamera(FRONT, "ArrowRight").yaw).toBeCloseTo(5 * DEG, 12);
    expect(keyCamera(FRONT, "ArrowLeft").yaw).toBeCloseTo(-5 * DEG, 12);
    expect(keyCamera(FRONT, "ArrowDown").pitch).toBeCloseTo(5 * DEG, 12);
    expect(keyCamera(FRONT, "+").zoom).toBeCloseTo(1.2, 12);
    expect(keyCamera(FRONT, "-").zoom).toBeCloseTo(1 / 1.2, 12);
    expect(keyCamera({ yaw: 1, pitch: 1, zoom: 3 }, "0")).toEqual({ ...DEFAULT_CAMERA });
    expect(keyCamera(FRONT, "a")).toBeNull();
  });

  it("wraps angles and labels the rotation in degrees", () => {
    expect(wrapAngle(3 * Math.PI)).toBeCloseTo(Math.PI, 12);
    expect(wrapAngle(-0.5)).toBeCloseTo(-0.5, 12);
    expect(rotationLabel({ yaw: 30 * DEG, pitch: -10 * DEG })).toBe("30,-10");
  });

  it("turntable is a rotation (orthonormal, determinant 1)", () => {
    const m = turntable(0.3, 0.8);
    for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) expect(dot(m[i], m[j])).toBeCloseTo(i === j ? 1 : 0, 12);
  });
});

describe("point size", () => {
  it("follows the on-screen spacing, within 1 and 7 pixels", () => {
    const small = latticePointSize(150, 520, 520, 1);
    const big = latticePointSize(10, 520, 520, 1);
    expect(small).toBeGreaterThanOrEqual(1);
    expect(small).toBeLessThan(big);
    expect(big).toBe(7);
    expect(latticePointSize(150, 520, 520, 1, 2)).toBeCloseTo(Math.min(7, 2 * small), 9);
  });
});
