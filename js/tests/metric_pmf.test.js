// MetricPMF: histogram binning, per-pixel merging, float64 decoding, render with a fake model.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { histogram, nearestIndex, stickColumns } from "../metric_pmf/geometry.js";
import { linearScale, niceTicks } from "../shared/scale.js";
import { decodeFloat64 } from "../shared/buffers.js";
import {
  panelColour,
  panelDetails,
  panelMarks,
  panelSummary,
  readState,
  render,
  titleDetails,
  titleText,
} from "../metric_pmf/widget.js";
import { PALETTE } from "../shared/palette.js";
import { FakeModel, f32, u32, mountWidget } from "./fake_model.js";

const f64 = (values) => new DataView(new Float64Array(values).buffer);

describe("histogram", () => {
  it("sums masses and multiplicities into equal bins over [lo, hi]", () => {
    const h = histogram([0, 0.1, 0.5, 0.99, 1], [0.1, 0.2, 0.3, 0.15, 0.25], 0, 1, 4, [1, 2, 3, 4, 5]);
    expect(Array.from(h.edges)).toEqual([0, 0.25, 0.5, 0.75, 1]);
    expect(Array.from(h.mass).map((m) => Number(m.toFixed(6)))).toEqual([0.3, 0, 0.3, 0.4]);
    expect(Array.from(h.count)).toEqual([3, 0, 3, 9]);
  });

  it("clamps out-of-range and infinite values into the end bins and skips NaN", () => {
    const h = histogram([-5, Infinity, -Infinity, NaN], [1, 2, 4, 8], 0, 1, 2);
    expect(Array.from(h.mass)).toEqual([5, 2]);
    expect(Array.from(h.count)).toEqual([2, 1]);
  });

  it("keeps the total mass", () => {
    const values = Array.from({ length: 1000 }, (_, i) => Math.sin(i));
    const masses = values.map(() => 0.001);
    const h = histogram(values, masses, -1, 1, 37);
    expect(h.mass.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 9);
  });
});

describe("sticks and scales", () => {
  it("merges sticks per pixel column and counts distinct values", () => {
    const cols = stickColumns([0, 0.001, 0.5, 1], [0.25, 0.25, 0.3, 0.2], [1, 2, 3, 4], 0, 1, 10);
    expect(cols.mass[0]).toBeCloseTo(0.5, 9);
    expect(cols.values[0]).toBe(2);
    expect(cols.count[0]).toBe(3);
    expect(cols.mass[9]).toBeCloseTo(0.2, 9);
  });

  it("maps linearly, finds the nearest value, makes round ticks", () => {
    const x = linearScale(-1, 1, 0, 200);
    expect(x(0)).toBe(100);
    expect(nearestIndex([0.1, 0.2, 0.4], 0.31)).toBe(2);
    expect(nearestIndex([0.1, 0.2, 0.4], -3)).toBe(0);
    expect(nearestIndex([], 1)).toBe(-1);
    expect(niceTicks(0, 1, 5)).toEqual([0, 0.2, 0.4, 0.6, 0.8, 1]);
  });

  it("decodes float64 buffers, aligned or not", () => {
    expect(Array.from(decodeFloat64(f64([0.1, -2])))).toEqual([0.1, -2]);
    const raw = new Uint8Array(17);
    new DataView(raw.buffer).setFloat64(1, Math.PI, true);
    new DataView(raw.buffer).setFloat64(9, -1 / 3, true);
    expect(Array.from(decodeFloat64(new DataView(raw.buffer, 1, 16)))).toEqual([Math.PI, -1 / 3]);
  });
});

function pmfState(extra = {}) {
  // Two panels: 3 values and 2 values.
  return {
    p: 20, n: 40, tp: 16, tn: 32, metric: "mcc", mode: "pmf", bins: 4, width: 300, generation: 3,
    _metric_label: "MCC",
    _offsets: [0, 3, 5],
    _values: f64([0.2, 0.5, 0.8, 0.4, 0.6]),
    _probabilities: f32([0.25, 0.5, 0.25, 0.5, 0.5]),
    _multiplicities: u32([1, 3, 1, 2, 2]),
    _distinct: u32([1, 1, 1, 1, 1]),
    _domain: [0, 1],
    _panels: [
      { model: "binomial", distinct: 3, lattice_points: 5, mean: 0.5, std: 0.2, interval: [0.2, 0.8], confidence: 0.95, undefined_mass: 0, pruned_mass: 0, aggregated: false },
      { model: "beta-binomial", distinct: 2, lattice_points: 4, mean: 0.5, std: 0.1, interval: [0.4, 0.6], confidence: 0.95, undefined_mass: 0.01, pruned_mass: 1e-10, aggregated: false },
    ],
    ...extra,
  }; // fmt
}

let ctx;
beforeEach(() => {
  ctx = { calls: [] };
  const names = ["setTransform", "clearRect", "fillRect", "strokeRect", "beginPath", "moveTo", "lineTo", "stroke", "fillText"];
  for (const name of [...names, "save", "restore", "translate", "rotate"]) {
    ctx[name] = (...args) => ctx.calls.push([name, ...args]);
  }
  vi.spyOn(HTMLCanvasElement.prototype, "getContext").mockImplementation(() => ctx);
});
afterEach(() => {
  vi.restoreAllMocks();
  document.body.innerHTML = "";
});

const mount = (state) => mountWidget(render, state, ".confusionlab-metric-pmf");

describe("render", () => {
  it("splits the buffers into panels", () => {
    const state = readState(new FakeModel(pmfState()));
    expect(state.panels.map((p) => p.values.length)).toEqual([3, 2]);
    expect(Array.from(state.panels[1].values)).toEqual([0.4, 0.6]);
    const broken = readState(new FakeModel(pmfState({ _offsets: [0, 3, 6] })));
    expect(broken.panels.map((p) => p.values.length)).toEqual([0, 0]);
  });

  it("draws one panel per model with sticks, and mirrors the state", () => {
    const { root } = mount(pmfState());
    expect(root.querySelectorAll("canvas")).toHaveLength(2);
    expect(root.dataset.values).toBe("3,2");
    expect(root.dataset.marks).toBe("5");
    expect(root.dataset.generation).toBe("3");
    expect(root.dataset.mode).toBe("pmf");
    const summaries = [...root.querySelectorAll(".cl-summary")].map((s) => s.textContent);
    expect(summaries[0]).toContain("95% interval [0.2, 0.8]");
    expect(summaries[1]).toContain("undefined mass");
    expect(summaries[1]).not.toContain("pruned"); // 1e-10: below any printed digit
  });

  it("keeps how a panel was computed out of the visible text, in its tooltip (issue 38)", () => {
    const coarse = { ...pmfState()._panels[1], values: [0.4, 0.6], pruned_mass: 4e-7, aggregated: true };
    expect(panelSummary(coarse, {})).not.toMatch(/pruned|aggregated|bins/);
    expect(panelDetails(coarse)).toBe("sent aggregated into 2 bins · pruned tail mass 4.00e-7");
    expect(panelDetails(pmfState()._panels[1])).toBe(""); // 1e-10 pruned, not aggregated: nothing to say
    // an undefined mass of 5.3e-11 (the Explorer's beta-binomial MCC) changes no printed digit: tooltip only
    const tiny = { ...pmfState()._panels[1], undefined_mass: 5.3e-11 };
    expect(panelSummary(tiny, {})).not.toContain("undefined");
    expect(panelDetails(tiny)).toBe("undefined mass 5.30e-11 (counted as 0)");
    const { root } = mount(pmfState({ _panels: [pmfState()._panels[0], coarse] }));
    const summaries = [...root.querySelectorAll(".cl-summary")];
    expect(summaries[1].textContent).not.toContain("pruned");
    expect(summaries[1].title).toContain("pruned tail mass 4.00e-7");
  });

  it("says in the title's tooltip, not its text, that sticks denser than the pixels are merged", () => {
    const state = readState(new FakeModel(pmfState()));
    expect(titleText(state)).toBe("PMF of MCC for a new test set like TP = 16, FN = 4, FP = 8, TN = 32 · shown: 0 to 1");
    expect(titleDetails(true)).toBe("sticks closer than a pixel are merged into one");
    expect(titleDetails(false)).toBe("");
  });

  it("draws each panel's sticks and interval in its model's colour: binomial orange, beta-binomial blue", () => {
    // issue 25: as in the lessons' figures (confusionlab.palette.MODEL_COLOURS), not the theme's foreground
    const styles = [];
    ctx.fillRect = (...args) => {
      ctx.calls.push(["fillRect", ...args]);
      styles.push(ctx.fillStyle);
    };
    mount(pmfState());
    expect(styles).toContain(PALETTE.models.binomial);
    expect(styles).toContain(PALETTE.models["beta-binomial"]);
    expect(PALETTE.models.binomial).toBe("#e08214");
    expect(panelColour({ model: "binomial" }, { foreground: "#000000" })).toBe("#e08214");
    expect(panelColour({ model: "unknown" }, { foreground: "#000000" })).toBe("#000000");
  });

  it("titles both axes of every panel: the metric across, the probability up", () => {
    mount(pmfState());
    const texts = ctx.calls.filter((c) => c[0] === "fillText").map((c) => c[1]);
    expect(texts.filter((t) => t === "MCC")).toHaveLength(2);
    expect(texts.filter((t) => t === "probability")).toHaveLength(2);
    const rotations = ctx.calls.filter((c) => c[0] === "rotate").map((c) => c[1]);
    expect(rotations).toEqual([-Math.PI / 2, -Math.PI / 2]);
  });

  it("bins into a histogram and redraws once per batch of changes", async () => {
    const { model, root } = mount(pmfState());
    model.set("mode", "histogram");
    model.set("bins", 2);
    expect(root.dataset.mode).toBe("pmf");
    await new Promise((r) => setTimeout(r, 0));
    expect(root.dataset.mode).toBe("histogram");
    expect(root.dataset.marks).toBe("4"); // two bins with mass in each panel
    const marks = panelMarks(readState(model).panels[0], readState(model), 200).marks;
    expect(marks.map((m) => m.mass)).toEqual([0.25, 0.75]);
    expect(marks.map((m) => m.count)).toEqual([1, 4]);
  });

  it("merges dense sticks per pixel", () => {
    const n = 2000;
    const values = Array.from({ length: n }, (_, i) => i / n);
    const state = pmfState({
      _offsets: [0, n], _values: f64(values), _probabilities: f32(values.map(() => 1 / n)),
      _multiplicities: u32(values.map(() => 1)), _distinct: u32(values.map(() => 1)),
      _panels: [pmfState()._panels[0]],
    });
    const info = panelMarks(readState(new FakeModel(state)).panels[0], readState(new FakeModel(state)), 242);
    expect(info.merged).toBe(true);
    expect(info.marks.length).toBeLessThanOrEqual(242);
    expect(info.marks.reduce((a, m) => a + m.mass, 0)).toBeCloseTo(1, 5);
  });

  it("writes labels as text", () => {
    const { root } = mount(pmfState({ _metric_label: "<b>x</b>" }));
    expect(root.querySelector("b")).toBeNull();
    expect(root.querySelector(".cl-title").textContent).toContain("<b>x</b>");
    expect(panelSummary({ model: "<i>m</i>", interval: [0, 1], distinct: 1 }, {})).toContain("<i>m</i>");
  });

  it("removes its listeners on cleanup", () => {
    const { model, cleanup } = mount(pmfState());
    cleanup();
    expect(model.listenerCount()).toBe(0);
  });
});

describe("theme", () => {
  it("redraws when JupyterLab switches theme", async () => {
    const { root } = mount(pmfState());
    const before = ctx.calls.length;
    document.body.dataset.jpThemeLight = "false";
    await new Promise((r) => setTimeout(r, 0));
    expect(ctx.calls.length).toBeGreaterThan(before);
    expect(root.dataset.theme).toBeTruthy();
    delete document.body.dataset.jpThemeLight;
  });
});

describe("shown range", () => {
  it("leaves values outside the shown range out of the bins and the sticks", () => {
    const h = histogram([-5, 0.1, 0.9, 7], [0.001, 0.5, 0.498, 0.001], 0, 1, 2, [900, 1, 1, 900], false);
    expect(Array.from(h.mass)).toEqual([0.5, 0.498]);
    expect(Array.from(h.count)).toEqual([1, 1]);
    const state = readState(new FakeModel(pmfState({ _domain: [0.3, 0.7] })));
    const { marks } = panelMarks(state.panels[0], state, 200);
    expect(marks.map((m) => m.x0)).toEqual([0.5]);
  });
});
