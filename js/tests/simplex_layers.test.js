import { describe, expect, it } from "vitest";
import { decodeUint16 } from "../shared/buffers.js";
import { DIVERGING, MISSING } from "../shared/colour.js";
import {
  DIM,
  HIGHLIGHT,
  NORMAL,
  cloudDiscs,
  cloudEncoding,
  cloudMarks,
  dimAlpha,
  volumeAlpha,
  countEmphasis,
  emphasis,
  parseColour,
  codeColours,
  pointColours,
  readState,
  drawingCodes,
  statusDetails,
  statusText,
  titleText,
} from "../confusion_simplex/layers.js";
import { latticePoints } from "../confusion_simplex/lattice.js";
import { FakeModel, f32 } from "./fake_model.js";
import { countsOf, latticeIndex, simplexState, u16 } from "./simplex_fixtures.js";

describe("buffers", () => {
  it("decodes little-endian uint16, aligned (zero-copy) or not", () => {
    const aligned = decodeUint16(u16([0, 1, 300, 65535]));
    expect(Array.from(aligned)).toEqual([0, 1, 300, 65535]);
    const bytes = new Uint8Array([9, 0x2c, 0x01, 0x05, 0x00]); // offset 1: 300, 5
    const odd = decodeUint16(new DataView(bytes.buffer, 1, 4));
    expect(Array.from(odd)).toEqual([300, 5]);
    expect(() => decodeUint16(new DataView(new ArrayBuffer(3)))).toThrow(RangeError);
    expect(decodeUint16(null).length).toBe(0);
  });

  it("reads a consistent state: C(N+3, 3) points", () => {
    const state = readState(new FakeModel(simplexState(6)));
    expect(state.count).toBe(84);
    expect(state.positions.length).toBe(3 * 84);
    expect(state.p.length).toBe(84);
    expect(state.values.length).toBe(84);
    expect(state.vertices).toHaveLength(4);
    expect(state.latticeN).toBe(6);
  });

  it("draws nothing of a state whose buffers disagree", () => {
    // A point count that is not C(N+3, 3): no geometry, no values.
    let state = readState(new FakeModel(simplexState(6, { _lattice: [6, 1, 83] })));
    expect(state.count).toBe(0);
    expect(state.positions.length).toBe(0);
    expect(state.values.length).toBe(0);
    // Codes of another lattice, or of the wrong length: geometry, but no values.
    state = readState(new FakeModel(simplexState(6, { _values_info: { key: "accuracy@5/1", code_bytes: 2 } })));
    expect(state.count).toBe(84);
    expect(state.values.length).toBe(0);
    state = readState(new FakeModel(simplexState(6, { _codes: new DataView(new Uint16Array(83).buffer) })));
    expect(state.values.length).toBe(0);
  });

  it("decodes uint32 codes, sent in the lattice order, and reads each drawn point's value from the table", () => {
    const codes = new Uint32Array(84).map((_, i) => i % 3);
    const state = readState(
      new FakeModel(
        simplexState(6, {
          _codes: new DataView(codes.buffer),
          _value_table: new DataView(new Float64Array([-0.5, 0.1, NaN]).buffer),
          _values_info: { key: "mcc@6/1", code_bytes: 4, distinct: 3 },
        }),
      ),
    );
    // Drawn point i is the matrix at lattice place latticeIndex(its counts): code place % 3.
    const table = [-0.5, 0.1, NaN];
    const expected = Array.from({ length: 84 }, (_, i) => table[latticeIndex(countsOf(state.positions, i, 6), 6) % 3]);
    expect(Array.from(state.values)).toEqual(expected);
    expect(Array.from(state.values.slice(0, 3))).toEqual([-0.5, -0.5, NaN]); // places 0, 3, 5: (0,0,0,6), (0,0,2,4), (0,2,0,4)
  });

  it("reorders the codes once per message, not once per sync (issue 24)", () => {
    const model = new FakeModel(simplexState(6));
    const first = readState(model);
    expect(readState(model).codes).toBe(first.codes); // the same buffer: the same reordered codes
    const sent = decodeUint16(model.get("_codes"));
    const { order } = latticePoints(6);
    expect(Array.from(first.codes)).toEqual(Array.from(order, (j) => sent[j]));
    model.set("_codes", new DataView(new Uint16Array(sent).buffer)); // a new message, equal codes
    const next = readState(model);
    expect(next.codes).not.toBe(first.codes);
    expect(Array.from(next.codes)).toEqual(Array.from(first.codes));
    expect(Array.from(drawingCodes(new Uint32Array([7, 8, 9]), new Uint32Array([2, 0, 1])))).toEqual([9, 7, 8]);
  });

  it("drops a cloud whose positions and masses disagree", () => {
    const state = readState(new FakeModel(simplexState(3, { _cloud_xyz: f32([0, 0, 0, 1]), _cloud_mass: f32([1]) })));
    expect(state.cloudMass.length).toBe(0);
  });
});

describe("colours", () => {
  it("colours coded values as their values, with NaN (and unknown codes) grey", () => {
    const table = new Float64Array([-1, 0, 1, NaN]);
    const codes = new Uint16Array([3, 2, 0, 1, 9]);
    const rgba = codeColours(codes, table, [-1, 0, 1]);
    const reference = pointColours(new Float64Array([NaN, 1, -1, 0, NaN]), [-1, 0, 1]);
    expect(Array.from(rgba)).toEqual(Array.from(reference));
  });

  it("maps the values of the buffer to the diverging palette as RGBA bytes", () => {
    const rgba = pointColours(new Float32Array([-1, 0, 1, NaN]), [-1, 0, 1]);
    expect(rgba).toBeInstanceOf(Uint8Array);
    expect(rgba.length).toBe(16);
    expect(Array.from(rgba.slice(0, 4))).toEqual([...DIVERGING[0], 255]);
    expect(Array.from(rgba.slice(4, 8))).toEqual([...DIVERGING[4], 255]);
    expect(Array.from(rgba.slice(8, 12))).toEqual([...DIVERGING[8], 255]);
    expect(Array.from(rgba.slice(12, 16))).toEqual([...MISSING, 255]);
  });
});

describe("emphasis", () => {
  const p = new Uint16Array([0, 1, 2, 2, 3, 20, 20]);

  it("everything normal without slices or cloud", () => {
    expect(Array.from(emphasis(p, [], true))).toEqual(new Array(7).fill(NORMAL));
  });

  it("highlights the chosen slices and dims the others", () => {
    const codes = emphasis(p, [2, 20], true);
    expect(Array.from(codes)).toEqual([DIM, DIM, HIGHLIGHT, HIGHLIGHT, DIM, HIGHLIGHT, HIGHLIGHT]);
    expect(countEmphasis(codes)).toEqual({ dim: 3, normal: 0, highlight: 4 });
  });

  it("keeps the others normal when dim_others is off", () => {
    const codes = emphasis(p, [3], false);
    expect(Array.from(codes)).toEqual([NORMAL, NORMAL, NORMAL, NORMAL, HIGHLIGHT, NORMAL, NORMAL]);
  });

  it("dims the lattice under a cloud", () => {
    expect(countEmphasis(emphasis(p, [], true, true))).toEqual({ dim: 7, normal: 0, highlight: 0 });
    expect(countEmphasis(emphasis(p, [], false, true))).toEqual({ dim: 0, normal: 7, highlight: 0 });
  });

  it("a slice of the fixture simplex holds (p + 1)(N − p + 1) points", () => {
    const state = readState(new FakeModel(simplexState(10)));
    const codes = emphasis(state.p, [4], true);
    expect(countEmphasis(codes).highlight).toBe(5 * 7);
  });
});

describe("cloud discs", () => {
  it("area ∝ mass: diameter ∝ √mass, the heaviest at the largest size", () => {
    const { sizes, alphas } = cloudDiscs(new Float32Array([0.4, 0.1, 0.0]), 20, 1.5, 0.6);
    expect(sizes[0]).toBeCloseTo(20, 5);
    expect(sizes[1]).toBeCloseTo(10, 5);
    expect(alphas[0]).toBeCloseTo(0.6, 6);
    expect(alphas[2]).toBe(0);
  });

  it("tiny masses keep the minimum size with their ink scaled down", () => {
    const { sizes, alphas } = cloudDiscs(new Float32Array([1, 1e-4]), 10, 2, 0.5);
    expect(sizes[1]).toBe(2);
    // true diameter 0.1 px: ink = alpha·d² = 0.5·0.01, spread over 2 px
    expect(alphas[1] * sizes[1] ** 2).toBeCloseTo(0.5 * 0.1 ** 2, 6);
  });
});

describe("cloud encodings", () => {
  it("the slice cloud uses size, the simplex cloud opacity", () => {
    expect(cloudEncoding("beta-binomial")).toBe("size");
    expect(cloudEncoding("dirichlet-multinomial")).toBe("opacity");
  });

  it("a volume cloud's peak opacity falls with its size", () => {
    expect(volumeAlpha(10)).toBe(0.6);
    expect(volumeAlpha(64000)).toBeCloseTo(3 / 40, 9);
  });

  it("opacity ∝ mass at one size", () => {
    const { sizes, alphas } = cloudMarks(new Float32Array([0.5, 0.25, 0]), "opacity", 4, 1, 0.8);
    expect(Array.from(sizes)).toEqual([4, 4, 4]);
    expect(alphas[0]).toBeCloseTo(0.8, 6);
    expect(alphas[1]).toBeCloseTo(0.4, 6);
    expect(alphas[2]).toBe(0);
  });
});

describe("dimming", () => {
  it("dimmed points get fainter as more of them overlap", () => {
    const sparse = dimAlpha(1000, 3, 4, 60);
    const dense = dimAlpha(176851, 3, 4, 60);
    expect(dense).toBeLessThan(sparse);
    expect(dense).toBeGreaterThanOrEqual(0.01);
    expect(sparse).toBeLessThanOrEqual(0.2);
  });

  it("`layers` overlapping points cover the target fraction of a pixel", () => {
    // layers = count · size² / (scale · N)² = 10; 1 − (1 − a)^10 = 0.4
    const a = dimAlpha(1000, 1, 1, 10, 0.4);
    expect(1 - (1 - a) ** 10).toBeCloseTo(0.4, 9);
  });
});

describe("text", () => {
  it("parses CSS colours", () => {
    expect(parseColour("#fff")).toEqual([1, 1, 1, 1]);
    expect(parseColour("#336699")).toEqual([0.2, 0.4, 0.6, 1]);
    expect(parseColour("rgb(255, 0, 51)")).toEqual([1, 0, 0.2, 1]);
    expect(parseColour("rgba(0 0 0 / 50%)")).toEqual([0, 0, 0, 0.5]);
    expect(parseColour("var(--x)", [9, 9, 9, 9])).toEqual([9, 9, 9, 9]);
  });

  it("states the observed matrix, slices, cloud and thinning", () => {
    const state = readState(
      new FakeModel(
        simplexState(4, {
          observed: [1, 1, 1, 1],
          _observed_value: 0.5,
          slices: [2],
          cloud: "beta-binomial",
          _cloud_info: { points: 9, mass: 0.999, pruned: 1e-9 },
          _lattice: [4, 2, 35],
        }),
      ),
    );
    const text = statusText(state, 35);
    expect(text).toContain("TP 1, FN 1, FP 1, TN 1");
    expect(text).toContain("slices p = 2");
    expect(text).toContain("beta-binomial cloud: 9 matrices");
    expect(text).not.toContain("pruned"); // 1e-9: not more than PRUNED_SHOWN
    state.cloudInfo = { ...state.cloudInfo, pruned: 3e-5 };
    expect(statusText(state, 35)).not.toContain("pruned"); // issue 38: in the tooltip, not the text
    expect(statusDetails(state)).toBe("cloud's pruned tail mass 3.0e-5");
    expect(statusDetails({ ...state, cloud: "none" })).toBe("");
    expect(titleText(state, 35)).toContain("35 confusion matrices with N = 4");
  });
});
