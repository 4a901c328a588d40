// The browser's lattice generator against Python: the fixture holds
// confusionlab.widgets.confusion_simplex.drawing_order for small (N, stride), written by
// tests/widgets/test_confusion_simplex.py (which checks it is current); positions are
// checked against the isometric formula written out here independently.
import { describe, expect, it } from "vitest";
import { cachedLattice, latticeCount, latticePoints, levelEnds } from "../confusion_simplex/lattice.js";
import { compositions, countsOf, latticeIndex } from "./simplex_fixtures.js";
import fixture from "./simplex_lattice_fixture.json";


/** Centred isometric map, written out: x = FN − TN/3 − N/6, y = FP − TN/3 − N/6, z = TP − TN/3 − N/6. */
const iso = ([tp, fn, fp, tn], N) => [fn - tn / 3 - N / 6, fp - tn / 3 - N / 6, tp - tn / 3 - N / 6];

describe("latticePoints", () => {
  for (const [key, { N, stride, ends, counts, order }] of Object.entries(fixture)) {
    it(`generates Python's drawing order and positions for N/stride = ${key}`, () => {
      const lattice = latticePoints(N, stride);
      expect(lattice.count).toBe(counts.length);
      expect(lattice.ends).toEqual(ends);
      expect(Array.from(lattice.positions)).toEqual(Array.from(new Float32Array(counts.flatMap((c) => iso(c, N)))));
      expect(Array.from(lattice.p)).toEqual(counts.map(([tp, fn]) => tp + fn));
      // Where each drawn point sits in the lattice order the codes are sent in (drawing_permutation).
      expect(Array.from(lattice.order)).toEqual(order);
    });
  }

  it("holds every matrix with N examples once (N = 0 to 9), as C(N + 3, 3) counts", () => {
    for (let N = 0; N <= 9; N++) {
      const { count, positions } = latticePoints(N);
      expect(count).toBe(latticeCount(N));
      expect(count).toBe(((N + 1) * (N + 2) * (N + 3)) / 6);
      const got = new Set();
      for (let i = 0; i < count; i++) got.add(Array.from(positions.subarray(3 * i, 3 * i + 3)).join());
      const expected = new Set(compositions(N).map((c) => Array.from(new Float32Array(iso(c, N))).join()));
      expect(got).toEqual(expected);
    }
  });

  it("puts the surface first, the coarse points first within surface and interior", () => {
    const N = 12;
    const { positions, ends, count } = latticePoints(N);
    for (let i = 0; i < count; i++) {
      const [x, y, z] = positions.subarray(3 * i, 3 * i + 3);
      const tn = Math.round((N / 2 - (x + y + z)) / 2);
      const c = [z, x, y].map((v) => Math.round(v + tn / 3 + N / 6)).concat([tn]);
      const surface = Math.min(...c) === 0;
      const even = c.slice(0, 3).every((v) => v % 2 === 0);
      const level = (surface ? 0 : 2) + (even ? 0 : 1);
      expect(i).toBeLessThan(ends[level]);
      if (level > 0) expect(i).toBeGreaterThanOrEqual(ends[level - 1]);
    }
  });

  it("maps every drawn point to its matrix's place in the lattice order, each place once (N = 0 to 12)", () => {
    for (let N = 0; N <= 12; N++) {
      const { count, positions, order } = latticePoints(N);
      const places = Array.from({ length: count }, (_, i) => latticeIndex(countsOf(positions, i, N), N));
      expect(Array.from(order)).toEqual(places);
      expect(new Set(places).size).toBe(count);
    }
  });

  it("counts each level as its points are classified (N = 0 to 15, strides 1 to 4)", () => {
    for (let N = 0; N <= 15; N++)
      for (let stride = 1; stride <= 4; stride++) {
        const sizes = [0, 0, 0, 0];
        const M = Math.floor(N / stride);
        for (let a = 0; a <= M; a++)
          for (let b = 0; a + b <= M; b++)
            for (let c = 0; a + b + c <= M; c++) {
              const tn = N - stride * (a + b + c);
              const surface = a === 0 || b === 0 || c === 0 || tn === 0;
              sizes[(surface ? 0 : 2) + (a % 2 || b % 2 || c % 2 ? 1 : 0)] += 1;
            }
        const ends = sizes.map((_, i) => sizes.slice(0, i + 1).reduce((x, y) => x + y, 0));
        expect(levelEnds(N, stride)).toEqual(ends);
        expect(latticePoints(N, stride).ends).toEqual(ends);
      }
  });

  it("refuses what is not a lattice, and keeps the last one", () => {
    for (const [N, stride] of [[-1, 1], [1.5, 1], [3, 0], [3, 1.5], [NaN, 1], ["3", 1]]) {
      expect(() => latticePoints(N, stride)).toThrow(RangeError);
    }
    expect(() => latticePoints(3000, 1)).toThrow(RangeError); // 4.5 × 10⁹ points: refused, nothing allocated
    expect(cachedLattice(5, 1)).toBe(cachedLattice(5, 1));
    expect(cachedLattice(5, 1).count).toBe(56);
  });

  it("keeps the current and the previous lattice, so an N changed back is not generated again (issue 24)", () => {
    const five = cachedLattice(5, 1);
    const six = cachedLattice(6, 1);
    expect(cachedLattice(5, 1)).toBe(five); // 5 → 6 → 5: the same arrays (the old cache kept only 6)
    expect(cachedLattice(6, 1)).toBe(six);
    cachedLattice(7, 1); // a third one drops the least recent (5)
    expect(cachedLattice(6, 1)).toBe(six);
    const again = cachedLattice(5, 1);
    expect(again).not.toBe(five);
    expect(Array.from(again.positions)).toEqual(Array.from(five.positions));
  });
});
