// The modules every widget shares: DOM helper, ticks and maxima, the redraw scaffold,
// the common slice state.
import { describe, expect, it } from "vitest";
import { el } from "../shared/dom.js";
import { PRUNED_SHOWN, showsPruned } from "../shared/format.js";
import { THEME_ATTRIBUTES, redrawOnChange } from "../shared/redraw.js";
import { maxOf, niceTicks } from "../shared/scale.js";
import { readCommonState } from "../shared/state.js";
import { FakeModel } from "./fake_model.js";

const flush = () => new Promise((resolve) => queueMicrotask(resolve));
const mutations = () => new Promise((resolve) => setTimeout(resolve, 0)); // MutationObserver delivery

describe("showsPruned", () => {
  it("names a pruned mass only above what the default tolerance (1e-12 per marginal) can drop", () => {
    expect(PRUNED_SHOWN).toBe(1e-9);
    expect([0, 1e-12, 2e-12, 1e-9].map(showsPruned)).toEqual([false, false, false, false]);
    expect([2e-9, 1e-6, 0.01].map(showsPruned)).toEqual([true, true, true]);
    expect([NaN, undefined, null, Infinity].map(showsPruned)).toEqual([false, false, false, false]);
  });
});

describe("el", () => {
  it("creates an element with a class, appended to its parent", () => {
    const parent = document.createElement("div");
    const node = el("span", "cl-x", parent);
    expect(node.tagName).toBe("SPAN");
    expect(node.className).toBe("cl-x");
    expect(parent.firstChild).toBe(node);
    expect(el("div").className).toBe("");
  });
});

describe("niceTicks and maxOf", () => {
  it("chooses round ticks inside the range", () => {
    expect(niceTicks(0, 1, 5)).toEqual([0, 0.2, 0.4, 0.6, 0.8, 1]);
    expect(niceTicks(-0.03, 1.03, 5)).toEqual([0, 0.25, 0.5, 0.75, 1]);
    expect(niceTicks(0, 40, 4)).toEqual([0, 10, 20, 30, 40]);
    expect(niceTicks(-1, 1, 4)).toEqual([-1, -0.5, 0, 0.5, 1]);
  });

  it("gives no ticks for an empty or non-finite range", () => {
    expect(niceTicks(1, 1)).toEqual([]);
    expect(niceTicks(2, 1)).toEqual([]);
    expect(niceTicks(0, Infinity)).toEqual([]);
    expect(niceTicks(NaN, 1)).toEqual([]);
  });

  it("finds the largest entry of typed and plain arrays (0 when empty)", () => {
    expect(maxOf(new Float32Array([0.1, 0.7, 0.2]))).toBeCloseTo(0.7, 6);
    expect(maxOf([3, 9, 1])).toBe(9);
    expect(maxOf([])).toBe(0);
  });
});

describe("redrawOnChange", () => {
  it("draws once per burst of changes, in a microtask", async () => {
    const model = new FakeModel({ a: 1, b: 2 });
    let draws = 0;
    const redraw = redrawOnChange(model, ["a", "b"], () => draws++);
    model.set("a", 3);
    model.set("b", 4);
    model.set("a", 5);
    expect(draws).toBe(0);
    await flush();
    expect(draws).toBe(1);
    model.set("b", 6);
    await flush();
    expect(draws).toBe(2);
    redraw.dispose();
  });

  it("redraws when JupyterLab switches theme, or calls onTheme", async () => {
    const model = new FakeModel({ a: 1 });
    let draws = 0;
    let themes = 0;
    const plain = redrawOnChange(model, ["a"], () => draws++);
    const custom = redrawOnChange(model, ["a"], () => {}, { onTheme: () => themes++ });
    document.body.setAttribute(THEME_ATTRIBUTES[1], "false");
    await mutations();
    await flush();
    expect(draws).toBe(1);
    expect(themes).toBe(1);
    plain.dispose();
    custom.dispose();
    document.body.removeAttribute(THEME_ATTRIBUTES[1]);
  });

  it("dispose removes every listener and cancels a pending redraw", async () => {
    const model = new FakeModel({ a: 1 });
    let draws = 0;
    const redraw = redrawOnChange(model, ["a"], () => draws++);
    expect(model.listenerCount()).toBe(1);
    model.set("a", 2);
    redraw.dispose();
    expect(model.listenerCount()).toBe(0);
    await flush();
    document.body.setAttribute(THEME_ATTRIBUTES[0], "dark");
    await mutations();
    await flush();
    expect(draws).toBe(0);
    document.body.removeAttribute(THEME_ATTRIBUTES[0]);
  });
});

describe("readCommonState", () => {
  it("reads the observed matrix, the metric, its label and the generation", () => {
    const model = new FakeModel({ p: 20, n: 40, tp: 16, tn: 32, metric: "mcc", _metric_label: "MCC" });
    expect(readCommonState(model)).toEqual({
      p: 20,
      n: 40,
      tp: 16,
      tn: 32,
      metric: "mcc",
      label: "MCC",
      generation: 0,
    });
    model.set("_metric_label", "");
    model.set("generation", 3);
    expect(readCommonState(model)).toMatchObject({ label: "mcc", generation: 3 });
  });
});
