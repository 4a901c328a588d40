import { describe, expect, it } from "vitest";
import {
  DIVERGING,
  MISSING,
  colourValues,
  cssRGB,
  divergingPosition,
  packRGBA,
  paletteAt,
} from "../shared/colour.js";

describe("diverging scale", () => {
  it("maps lo, mid, hi to 0, 0.5, 1 and is piecewise linear", () => {
    expect(divergingPosition(-1, -1, 0, 1)).toBe(0);
    expect(divergingPosition(0, -1, 0, 1)).toBe(0.5);
    expect(divergingPosition(1, -1, 0, 1)).toBe(1);
    expect(divergingPosition(-0.5, -1, 0, 1)).toBeCloseTo(0.25);
    // asymmetric sides: mid = 0.5 in [0, 0.6]
    expect(divergingPosition(0.55, 0, 0.5, 0.6)).toBeCloseTo(0.75);
    expect(divergingPosition(0.25, 0, 0.5, 0.6)).toBeCloseTo(0.25);
  });

  it("clamps, sends infinities to the ends and keeps NaN", () => {
    expect(divergingPosition(5, -1, 0, 1)).toBe(1);
    expect(divergingPosition(-5, -1, 0, 1)).toBe(0);
    expect(divergingPosition(Infinity, 0, 1, 2)).toBe(1);
    expect(divergingPosition(-Infinity, 0, 1, 2)).toBe(0);
    expect(Number.isNaN(divergingPosition(NaN, 0, 1, 2))).toBe(true);
  });

  it("handles a degenerate domain (all values equal)", () => {
    expect(divergingPosition(0.3, 0.3, 0.3, 0.3)).toBe(0.5);
  });

  it("interpolates the palette at its ends, middle and between stops", () => {
    expect(paletteAt(0)).toEqual(DIVERGING[0]);
    expect(paletteAt(1)).toEqual(DIVERGING[DIVERGING.length - 1]);
    expect(paletteAt(0.5)).toEqual(DIVERGING[4]);
    const between = paletteAt(0.5 / 8);
    for (let k = 0; k < 3; k++) {
      expect(between[k]).toBe(Math.round((DIVERGING[0][k] + DIVERGING[1][k]) / 2));
    }
    expect(paletteAt(NaN)).toEqual(MISSING);
  });

  it("packs RGBA for a little-endian ImageData and formats CSS", () => {
    const packed = packRGBA([1, 2, 3]);
    const bytes = new Uint8Array(new Uint32Array([packed]).buffer);
    expect(Array.from(bytes)).toEqual([1, 2, 3, 255]);
    expect(cssRGB([1, 2, 3])).toBe("rgb(1, 2, 3)");
  });

  it("colours through a lookup table within one table step of the exact colour", () => {
    const values = new Float32Array([-0.9, -0.33, 0.2, 0.77]);
    const out = colourValues(values, [-1, 0, 1]);
    values.forEach((v, i) => {
      const exact = paletteAt(divergingPosition(v, -1, 0, 1));
      const got = Array.from(new Uint8Array(new Uint32Array([out[i]]).buffer)).slice(0, 3);
      got.forEach((c, k) => expect(Math.abs(c - exact[k])).toBeLessThanOrEqual(1));
    });
  });

  it("colours an array of values", () => {
    const out = colourValues(new Float32Array([-1, 0, 1, NaN]), [-1, 0, 1]);
    expect(out).toBeInstanceOf(Uint32Array);
    expect(Array.from(out)).toEqual([
      packRGBA(DIVERGING[0]),
      packRGBA(DIVERGING[4]),
      packRGBA(DIVERGING[8]),
      packRGBA(MISSING),
    ]);
  });
});
