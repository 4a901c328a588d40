// hover.js: the drawn point under the pointer and the matrix it is.
// References: the lattice is enumerated here by brute force (compositions) and mapped
// with the isometric formula of the Python core (iso below, as in simplex_fixtures.js);
// screen positions come from camera.js's projectPoint, a separate function from the
// picking loop; the front-most point is found by brute force over projectPoint depths.
import { describe, expect, it } from "vitest";
import { DEFAULT_CAMERA, projectPoint, viewRotation } from "../confusion_simplex/camera.js";
import {
  COUNT_TOLERANCE,
  MIN_PICK_RADIUS,
  canvasPoint,
  countsAt,
  formatValue,
  hoverAt,
  hoverText,
  pickPoint,
  tooltipPosition,
} from "../confusion_simplex/hover.js";
import { DIM, HIGHLIGHT, NORMAL, readState } from "../confusion_simplex/layers.js";
import { FakeModel } from "./fake_model.js";
import { codesState, compositions, countsOf, simplexState } from "./simplex_fixtures.js";

const iso = ([tp, fn, fp, tn], N) => [fn - tn / 3 - N / 6, fp - tn / 3 - N / 6, tp - tn / 3 - N / 6];

/** A reproducible pseudo-random generator (mulberry32). */
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Float32 positions of `counts` (as Python sends them), in the given order. */
const positionsOf = (counts, N) => new Float32Array(counts.flatMap((c) => iso(c, N)));

/** The lattice in a shuffled order: a point's index is not its lattice index (as with levels of detail). */
function shuffled(N, seed = 1) {
  const counts = compositions(N);
  const random = rng(seed);
  for (let i = counts.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [counts[i], counts[j]] = [counts[j], counts[i]];
  }
  return counts;
}

const CAMERAS = [
  DEFAULT_CAMERA,
  { yaw: 0.37, pitch: 0.21, zoom: 1 },
  { yaw: -2.1, pitch: -0.8, zoom: 2.5 },
  { yaw: 3.0, pitch: 1.4, zoom: 0.7 },
];

describe("countsAt: the matrix at an isometric position", () => {
  it("recovers every matrix of small simplices exactly from float32 positions", () => {
    for (const N of [0, 1, 2, 7, 20]) {
      for (const c of compositions(N)) expect(countsAt(Float32Array.from(iso(c, N)), N)).toEqual(c);
    }
  });

  it("is exact at the largest N the widget draws (300), vertices, edges and interior", () => {
    const N = 300;
    const random = rng(7);
    const cases = [
      [N, 0, 0, 0],
      [0, N, 0, 0],
      [0, 0, N, 0],
      [0, 0, 0, N],
      [299, 1, 0, 0],
      [1, 1, 1, 297],
      [75, 75, 75, 75],
    ];
    for (let k = 0; k < 2000; k++) {
      const cuts = [0, 0, 0].map(() => Math.floor(random() * (N + 1))).sort((a, b) => a - b);
      cases.push([cuts[0], cuts[1] - cuts[0], cuts[2] - cuts[1], N - cuts[2]]);
    }
    for (const c of cases) {
      expect(c.reduce((s, v) => s + v, 0)).toBe(N);
      expect(countsAt(Float32Array.from(iso(c, N)), N)).toEqual(c);
    }
  });

  it("refuses positions that are not a matrix with N examples", () => {
    const N = 10;
    const [x, y, z] = iso([2, 3, 4, 1], N);
    expect(countsAt([x + 0.5, y, z], N)).toBeNull(); // between lattice points
    expect(countsAt([x + 3 * COUNT_TOLERANCE, y, z], N)).toBeNull();
    expect(countsAt(iso([-1, 5, 5, 1], N), N)).toBeNull(); // a negative count
    expect(countsAt(iso([2, 3, 4, 1], 11), N)).toBeNull(); // a matrix of another N
    expect(countsAt([x, y, z], 10.5)).toBeNull();
    expect(countsAt([x, y, z], -1)).toBeNull();
    expect(countsAt([NaN, y, z], N)).toBeNull();
    expect(countsAt([Infinity, y, z], N)).toBeNull();
    expect(countsAt([x, y], N)).toBeNull();
    expect(countsAt(null, N)).toBeNull();
  });

  it("gives a valid matrix or null for any input (random hostile arguments)", () => {
    const random = rng(11);
    const hostile = [NaN, Infinity, -Infinity, -0, 0, 1e308, -1e-308, 0.5, 3, -7];
    const pick = () => (random() < 0.3 ? hostile[Math.floor(random() * hostile.length)] : (random() - 0.5) * 400);
    for (let k = 0; k < 5000; k++) {
      const N = random() < 0.2 ? pick() : Math.floor(random() * 301);
      const out = countsAt([pick(), pick(), pick()], N);
      if (out !== null) {
        expect(out.every((v) => Number.isInteger(v) && v >= 0)).toBe(true);
        expect(out.reduce((s, v) => s + v, 0)).toBe(N);
      }
    }
  });
});

describe("pickPoint: the front-most drawn point under the pointer", () => {
  it("projecting known lattice points with the camera recovers exactly their counts", () => {
    const N = 7;
    const counts = shuffled(N);
    const positions = positionsOf(counts, N);
    for (const camera of CAMERAS) {
      let checked = 0;
      for (const c of counts) {
        const [sx, sy] = projectPoint(camera, N, 400, 400, iso(c, N));
        // The point itself is under the pointer; another point may hide it only when it
        // projects onto the same pixel in front of it (checked by brute force).
        const hidden = counts.some((o) => {
          if (o === c) return false;
          const [ox, oy, oz] = projectPoint(camera, N, 400, 400, iso(o, N));
          const [, , cz] = projectPoint(camera, N, 400, 400, iso(c, N));
          return Math.hypot(ox - sx, oy - sy) <= MIN_PICK_RADIUS && oz > cz;
        });
        if (hidden) continue;
        const index = pickPoint(positions, camera, N, 400, 400, sx, sy);
        expect(index).toBeGreaterThanOrEqual(0);
        expect(countsAt(positions.subarray(3 * index, 3 * index + 3), N)).toEqual(c);
        checked++;
      }
      expect(checked).toBeGreaterThan(counts.length * 0.9);
    }
  });

  it("picks the front-most of several points under the pointer, whatever their order", () => {
    const camera = { yaw: 0.4, pitch: 0.3, zoom: 1 };
    const N = 12;
    const towards = viewRotation(camera)[2]; // unit vector towards the viewer, simplex coordinates
    const base = iso([3, 3, 3, 3], N);
    const along = (t) => base.map((v, j) => v + t * towards[j]);
    const points = [along(-2), along(1.5), along(0), along(0.7)]; // same pixel, depths −2 … 1.5
    for (const order of [
      [0, 1, 2, 3],
      [3, 2, 1, 0],
      [1, 3, 0, 2],
    ]) {
      const positions = new Float32Array(order.flatMap((k) => points[k]));
      const [sx, sy] = projectPoint(camera, N, 300, 300, base);
      expect(pickPoint(positions, camera, N, 300, 300, sx, sy, { pointSize: 4 })).toBe(order.indexOf(1));
    }
  });

  it("agrees with a brute-force search over projectPoint on the whole lattice", () => {
    const N = 15;
    const counts = shuffled(N, 3);
    const positions = positionsOf(counts, N);
    const random = rng(5);
    for (const camera of CAMERAS) {
      const projected = counts.map((c) => projectPoint(camera, N, 500, 500, Array.from(Float32Array.from(iso(c, N)))));
      for (let k = 0; k < 60; k++) {
        const px = 100 + 300 * random();
        const py = 100 + 300 * random();
        const pointSize = 1 + 8 * random();
        let expected = -1;
        let bestZ = -Infinity;
        projected.forEach(([sx, sy, z], i) => {
          if (Math.hypot(sx - px, sy - py) <= Math.max(pointSize / 2, MIN_PICK_RADIUS) + 1e-9 && z > bestZ) {
            expected = i;
            bestZ = z;
          }
        });
        const got = pickPoint(positions, camera, N, 500, 500, px, py, { pointSize });
        if (expected < 0) expect(got).toBe(-1);
        else expect(projected[got][2]).toBeCloseTo(bestZ, 9); // the same point, or a tie in depth
      }
    }
  });

  it("skips points not drawn (beyond the prefix) and prefers opaque points to dimmed ones", () => {
    const camera = { yaw: 0.4, pitch: 0.3, zoom: 1 };
    const N = 12;
    const towards = viewRotation(camera)[2];
    const base = iso([3, 3, 3, 3], N);
    const front = base.map((v, j) => v + 2 * towards[j]);
    const positions = new Float32Array([...base, ...front]);
    const [sx, sy] = projectPoint(camera, N, 300, 300, base);
    const at = (options) => pickPoint(positions, camera, N, 300, 300, sx, sy, { pointSize: 4, ...options });
    expect(at({})).toBe(1);
    expect(at({ limit: 1 })).toBe(0); // the front point is not drawn while the view turns
    expect(at({ limit: 0 })).toBe(-1);
    expect(at({ codes: Uint8Array.of(NORMAL, DIM) })).toBe(0); // the faint point in front loses
    expect(at({ codes: Uint8Array.of(DIM, DIM) })).toBe(1);
    // Focus points are drawn whatever the prefix when others are dimmed (gl.js).
    expect(at({ codes: Uint8Array.of(DIM, HIGHLIGHT), limit: 0 })).toBe(1);
  });

  it("highlighted points are picked within their larger disc", () => {
    const camera = DEFAULT_CAMERA;
    const N = 6;
    const positions = Float32Array.from(iso([2, 2, 1, 1], N));
    const [sx, sy] = projectPoint(camera, N, 400, 400, iso([2, 2, 1, 1], N));
    const near = (codes) => pickPoint(positions, camera, N, 400, 400, sx + 3, sy, { pointSize: 4, codes });
    expect(near(Uint8Array.of(NORMAL))).toBe(-1);
    expect(near(Uint8Array.of(HIGHLIGHT))).toBe(0);
  });

  it("returns −1 or a valid index for hostile arguments", () => {
    const random = rng(13);
    const hostile = [NaN, Infinity, -Infinity, 0, -1, 1e300];
    const h = () => hostile[Math.floor(random() * hostile.length)];
    const positions = positionsOf(compositions(4), 4);
    for (let k = 0; k < 500; k++) {
      const arg = () => (random() < 0.3 ? h() : 400 * random());
      const got = pickPoint(
        random() < 0.1 ? new Float32Array(0) : positions,
        { yaw: random() < 0.1 ? h() : random(), pitch: random(), zoom: random() < 0.1 ? h() : 1 },
        random() < 0.1 ? h() : 4,
        arg(),
        arg(),
        arg(),
        arg(),
        { pointSize: arg(), limit: random() < 0.2 ? h() : undefined },
      );
      expect(Number.isInteger(got)).toBe(true);
      expect(got).toBeGreaterThanOrEqual(-1);
      expect(got).toBeLessThan(positions.length / 3);
    }
  });
});

describe("hoverAt: the matrix and its value from the buffers", () => {
  it("names the matrix and reads its value from the value table at the drawn index's code", () => {
    const N = 6;
    // Codes in reverse order of the points, so the test sees which entry was read.
    const count = compositions(N).length;
    const values = Array.from({ length: count }, (_, i) => count - i + 0.25);
    const state = readState(new FakeModel(simplexState(N, codesState(values, N))));
    const withValues = state;
    const camera = { yaw: 0.37, pitch: 0.21, zoom: 1 };
    const target = [1, 2, 0, 3];
    const [sx, sy] = projectPoint(camera, N, 400, 400, iso(target, N));
    const hit = hoverAt(withValues, camera, 400, 400, sx, sy, { pointSize: 1 });
    expect(hit.counts).toEqual(target);
    const index = Array.from({ length: count }, (_, i) => countsOf(state.positions, i, N).join()).indexOf(target.join());
    expect(hit.index).toBe(index);
    expect(hit.value).toBe(count - index + 0.25);
    expect(hit.screen[0]).toBeCloseTo(sx, 3);
    expect(hit.screen[1]).toBeCloseTo(sy, 3);
  });

  it("is null over empty space, and before the values arrive", () => {
    const state = readState(new FakeModel(simplexState(3)));
    expect(hoverAt(state, DEFAULT_CAMERA, 400, 400, 2, 2)).toBeNull();
    const [sx, sy] = projectPoint(DEFAULT_CAMERA, 3, 400, 400, iso([0, 0, 0, 3], 3));
    expect(hoverAt(state, DEFAULT_CAMERA, 400, 400, sx, sy).counts).toEqual([0, 0, 0, 3]);
    expect(hoverAt({ ...state, values: new Float64Array(0) }, DEFAULT_CAMERA, 400, 400, sx, sy)).toBeNull();
    // Codes of another N (a state still arriving): no value, no read-out.
    const stale = readState(new FakeModel(simplexState(3, { _values_info: { key: "accuracy@4/1", code_bytes: 2 } })));
    expect(hoverAt(stale, DEFAULT_CAMERA, 400, 400, sx, sy)).toBeNull();
  });
});

describe("read-out helpers", () => {
  it("formats the matrix and the value (undefined, ±∞)", () => {
    expect(hoverText([3, 2, 4, 11], 0.123456, "MCC")).toBe("TP 3 · FN 2 · FP 4 · TN 11 — MCC = 0.1235");
    expect(formatValue(NaN)).toBe("undefined");
    expect(formatValue(null)).toBe("undefined");
    expect(formatValue(Infinity)).toBe("∞");
    expect(formatValue(-Infinity)).toBe("−∞");
    expect(formatValue(-0.5)).toBe("-0.5");
  });

  it("maps client coordinates to canvas pixels, also when a layout scales the canvas", () => {
    expect(canvasPoint(110, 220, { left: 10, top: 20, width: 400, height: 400 }, 400)).toEqual([100, 200]);
    expect(canvasPoint(110, 220, { left: 10, top: 20, width: 200, height: 200 }, 400)).toEqual([200, 400]);
    expect(canvasPoint(5, 6, { left: 0, top: 0, width: 0, height: 0 }, 400)).toEqual([5, 6]);
  });

  it("keeps the read-out inside the stage", () => {
    expect(tooltipPosition(10, 10, 400, 400, 100, 20)).toEqual([22, 22]);
    expect(tooltipPosition(390, 390, 400, 400, 100, 20)).toEqual([278, 358]);
    expect(tooltipPosition(50, 50, 80, 80, 200, 20)).toEqual([0, 18]);
  });
});
