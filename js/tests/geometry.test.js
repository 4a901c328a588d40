import { describe, expect, it } from "vitest";
import {
  boundingBox,
  dataDomain,
  fitView,
  hitTest,
  latticeToData,
  pointSize,
  project,
  rasterizePoints,
  rocToData,
  unproject,
} from "../roc_slice/geometry.js";
import { niceTicks } from "../shared/scale.js";

const margins = { left: 10, right: 10, top: 10, bottom: 10 };

describe("coordinates", () => {
  it("places lattice points in ROC and counts coordinates", () => {
    expect(latticeToData("roc", 20, 40, 16, 32)).toEqual([0.2, 0.8]);
    expect(latticeToData("counts", 20, 40, 16, 32)).toEqual([8, 16]);
    expect(rocToData("counts", 20, 40, 0.5, 0.25)).toEqual([20, 5]);
    expect(rocToData("roc", 20, 40, 0.5, 0.25)).toEqual([0.5, 0.25]);
  });

  it("pads the domain and widens it for contours up to the limit", () => {
    const d = dataDomain("roc", 20, 40);
    expect(d.x0).toBeLessThan(0);
    expect(d.x1).toBeGreaterThan(1);
    const wide = dataDomain("roc", 20, 40, { x0: -0.5, x1: 1, y0: 0, y1: 5 }, 1);
    expect(wide.x0).toBeLessThan(-0.5);
    expect(wide.y1).toBeGreaterThan(2);
    expect(wide.y1).toBeLessThan(2.2);
    const counts = dataDomain("counts", 20, 40);
    expect(counts.x1).toBeGreaterThan(40);
    expect(counts.y1).toBeGreaterThan(20);
  });
});

describe("projection", () => {
  const view = fitView({ x0: 0, x1: 1, y0: 0, y1: 1 }, 120, 120, false, margins);

  it("maps the unit square onto the plot area with y upwards", () => {
    expect(project(view, 0, 0)).toEqual([10, 110]);
    expect(project(view, 1, 1)).toEqual([110, 10]);
    expect(project(view, 0.5, 0.25)).toEqual([60, 85]);
  });

  it("unproject inverts project", () => {
    for (const [x, y] of [
      [0.1, 0.9],
      [0.73, 0.2],
      [-0.3, 1.4],
    ]) {
      const [u, v] = unproject(view, ...project(view, x, y));
      expect(u).toBeCloseTo(x, 12);
      expect(v).toBeCloseTo(y, 12);
    }
  });

  it("keeps equal data units equal on both axes in counts view", () => {
    const v = fitView({ x0: 0, x1: 40, y0: 0, y1: 20 }, 220, 220, true, margins);
    const [ax, ay] = project(v, 0, 0);
    const [bx, by] = project(v, 1, 1);
    expect(bx - ax).toBeCloseTo(ay - by, 12);
    expect(v.width).toBeCloseTo(200);
    expect(v.height).toBeCloseTo(100);
  });
});

describe("hit-testing", () => {
  const view = fitView({ x0: 0, x1: 1, y0: 0, y1: 1 }, 120, 120, false, margins);

  it("finds the lattice point under the pointer", () => {
    const [sx, sy] = project(view, ...latticeToData("roc", 20, 40, 16, 32));
    expect(hitTest(view, "roc", 20, 40, sx + 0.4, sy - 0.4)).toEqual({ tp: 16, tn: 32 });
  });

  it("clamps to the lattice and ignores points outside the plot", () => {
    expect(hitTest(view, "roc", 20, 40, 10, 10)).toEqual({ tp: 20, tn: 40 });
    expect(hitTest(view, "roc", 20, 40, 5, 50)).toBeNull();
    expect(hitTest(view, "roc", 20, 40, 50, 115)).toBeNull();
  });

  it("works in counts coordinates", () => {
    const v = fitView({ x0: 0, x1: 40, y0: 0, y1: 20 }, 220, 220, true, margins);
    const [sx, sy] = project(v, ...latticeToData("counts", 20, 40, 3, 39));
    expect(hitTest(v, "counts", 20, 40, sx, sy)).toEqual({ tp: 3, tn: 39 });
  });
});

describe("ticks and sizes", () => {
  it("chooses round ticks", () => {
    expect(niceTicks(0, 1, 5)).toEqual([0, 0.2, 0.4, 0.6, 0.8, 1]);
    expect(niceTicks(-0.03, 1.03, 5)).toEqual([0, 0.25, 0.5, 0.75, 1]);
    expect(niceTicks(0, 40, 4)).toEqual([0, 10, 20, 30, 40]);
    expect(niceTicks(1, 1, 5)).toEqual([]);
  });

  it("sizes points by their spacing, between 1 and max pixels", () => {
    const view = fitView({ x0: 0, x1: 1, y0: 0, y1: 1 }, 420, 420, false, margins);
    expect(pointSize(view, "roc", 4, 4)).toBe(7);
    expect(pointSize(view, "roc", 40, 40)).toBe(6);
    expect(pointSize(view, "roc", 499, 499)).toBe(1);
  });
});

describe("rasterisation", () => {
  it("fills one square per point and counts points drawn", () => {
    const pixels = new Uint32Array(10 * 10);
    const drawn = rasterizePoints(pixels, 10, 10, [2, 7, 50], [2, 7, 50], new Uint32Array([5, 9, 1]), 3);
    expect(drawn).toBe(2);
    expect(pixels.filter((c) => c === 5).length).toBe(9);
    expect(pixels.filter((c) => c === 9).length).toBe(9);
    expect(pixels[2 * 10 + 2]).toBe(5);
    expect(pixels[0]).toBe(0);
  });

  it("writes single pixels when points are one pixel wide", () => {
    const pixels = new Uint32Array(3 * 3);
    const drawn = rasterizePoints(pixels, 3, 3, [0, 2.4, 3, -1], [0, 1.6, 0, 0], new Uint32Array([4, 6, 8, 9]), 1);
    expect(drawn).toBe(2);
    expect(Array.from(pixels)).toEqual([4, 0, 0, 0, 0, 0, 0, 0, 6]);
  });

  it("clips points on the edge", () => {
    const pixels = new Uint32Array(4 * 4);
    expect(rasterizePoints(pixels, 4, 4, [0], [0], new Uint32Array([7]), 3)).toBe(1);
    expect(pixels.filter((c) => c === 7).length).toBe(4);
  });

  it("bounds finite interleaved points", () => {
    expect(boundingBox(new Float32Array([0, 1, -2, 3, NaN, 9, 4, -1]))).toEqual({
      x0: -2,
      x1: 4,
      y0: -1,
      y1: 3,
    });
    expect(boundingBox(new Float32Array([]))).toBeNull();
  });
});
