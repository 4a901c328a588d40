import { describe, expect, it } from "vitest";
import { FAST_MS, LEVELS, SLOW_MS, levelCounts, nextLevel } from "../confusion_simplex/lod.js";
import { focusIndices } from "../confusion_simplex/layers.js";

describe("levels of detail", () => {
  it("prefix lengths shrink level by level", () => {
    // N = 100: coarse surface, surface, coarse interior ends as Python sends them
    expect(levelCounts(176851, [5101, 20002, 39610])).toEqual([176851, 39610, 20002, 5101]);
    expect(levelCounts(10, [])).toEqual([10, 10, 10, 10]);
    expect(levelCounts(10, [50, 3, 60])).toEqual([10, 10, 3, 3]);
  });

  it("slow frames coarsen, fast frames refine, within the levels", () => {
    expect(nextLevel(0, SLOW_MS + 1)).toBe(1);
    expect(nextLevel(LEVELS - 1, 500)).toBe(LEVELS - 1);
    expect(nextLevel(2, FAST_MS - 1)).toBe(1);
    expect(nextLevel(0, 1)).toBe(0);
    expect(nextLevel(2, (SLOW_MS + FAST_MS) / 2)).toBe(2);
    expect(nextLevel(2, null)).toBe(2);
  });

  it("focus indices are the non-dimmed points, ascending", () => {
    expect(Array.from(focusIndices(new Uint8Array([0, 2, 0, 1, 2])))).toEqual([1, 3, 4]);
  });
});
