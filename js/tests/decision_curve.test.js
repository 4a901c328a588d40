// DecisionCurveView: geometry (the nearest column as Python's nearest_index, the readout), the
// pure drawing function with a recording context, and render with a fake model: the slider moves
// the cursor locally (the static export has no kernel) and the readout follows. The numbers are
// arbitrary: the browser never computes a net benefit or an interval.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { consistent, layout, nearestIndex, readoutLines, row, scales, xDomain, yDomain } from "../decision_curve/geometry.js";
import {
  BAND_ALPHA,
  INTERVAL_ALPHA,
  LEGEND_MODELS,
  drawCurve,
  legendEntries,
  modelColour,
  readState,
  render,
} from "../decision_curve/widget.js";
import { PALETTE } from "../shared/palette.js";
import { FakeModel, mountWidget } from "./fake_model.js";

const f64 = (values) => new DataView(new Float64Array(values).buffer);
const THEME = { accent: "#1976d2", muted: "#616161", foreground: "#212121", font: "sans-serif" };

/** One model and the two references over three thresholds (rows: model, treat all, treat none). */
function curveState(extra = {}) {
  return {
    confidence: 0.95,
    threshold: 0.2,
    width: 500,
    generation: 1,
    _thresholds: f64([0.1, 0.2, 0.3]),
    _net_benefit: f64([0.3, 0.25, 0.2, 0.28, 0.1, -0.05, 0, 0, 0]),
    _lower: f64([0.25, 0.2, 0.14, 0.26, 0.08, -0.08, 0, 0, 0]),
    _upper: f64([0.35, 0.3, 0.26, 0.3, 0.12, -0.02, 0, 0, 0]),
    _band_lower: f64([0.1, 0.05, 0.0, 0.2, 0.0, -0.15, 0, 0, 0]),
    _band_upper: f64([0.45, 0.4, 0.38, 0.36, 0.2, 0.05, 0, 0, 0]),
    _prob_useful: f64([0.999, 0.98, 0.9]),
    _summary: {
      names: ['<img src=x onerror="window.__pwned=1">', "treat all", "treat none"],
      models: 1,
      confidence: 0.95,
      y_range: [-0.05, 0.4],
      title: "Decision curve: 300 examples",
      text: "model beats treating all and none",
      note: "Darker shade: the 95% interval at each threshold on its own. Lighter, wider shade: the 95% band.",
    },
    ...extra,
  };
}

let ctx;
beforeEach(() => {
  ctx = { calls: [], fills: [] };
  const names = ["setTransform", "clearRect", "fillRect", "strokeRect", "beginPath", "moveTo", "lineTo", "stroke"];
  for (const name of [...names, "fillText", "save", "restore", "translate", "rotate", "setLineDash", "arc", "rect"]) {
    ctx[name] = (...args) => ctx.calls.push([name, ...args]);
  }
  ctx.clip = () => ctx.calls.push(["clip"]);
  ctx.closePath = () => ctx.calls.push(["closePath"]);
  ctx.fill = () => ctx.fills.push([ctx.fillStyle, ctx.globalAlpha]);
  vi.spyOn(HTMLCanvasElement.prototype, "getContext").mockImplementation(() => ctx);
});
afterEach(() => {
  vi.restoreAllMocks();
  document.body.innerHTML = "";
});

describe("geometry", () => {
  it("picks the nearest threshold, the lower of two equally near, as Python does", () => {
    const t = new Float64Array([0, 0.1, 0.2]);
    expect(nearestIndex(t, 0.14)).toBe(1);
    expect(nearestIndex(t, 0.15)).toBe(1); // in floats 0.15 − 0.1 < 0.2 − 0.15, as numpy finds
    expect(nearestIndex(t, -3)).toBe(0);
    expect(nearestIndex(t, 9)).toBe(2);
    expect(nearestIndex(new Float64Array([]), 0.1)).toBe(-1);
  });

  it("lays out a box under the width and scales the thresholds' range onto it", () => {
    const { width, height, box } = layout(500);
    expect(width).toBe(500);
    expect(height).toBe(box.top + box.height + 40);
    const { x, y } = scales(box, xDomain(new Float64Array([0.1, 0.3])), [-0.05, 0.4]);
    expect(x(0.1)).toBe(box.left);
    expect(x(0.3)).toBe(box.left + box.width);
    expect(y(0.4)).toBe(box.top);
    expect(xDomain(new Float64Array([0.2]))).toEqual([-0.3, 0.7]);
    expect(yDomain({ y_range: [1, 0] })).toEqual([-0.05, 1]);
  });

  it("cuts each strategy's row out of the flat buffer and refuses inconsistent ones", () => {
    const state = readState(new FakeModel(curveState()));
    expect(Array.from(row(state.netBenefit, 1, 3))).toEqual([0.28, 0.1, -0.05]);
    expect(consistent(state)).toBe(true);
    expect(consistent(readState(new FakeModel(curveState({ _prob_useful: f64([1]) }))))).toBe(false);
    expect(consistent(readState(new FakeModel(curveState({ _summary: { names: ["a"], models: 1 } }))))).toBe(false);
  });

  it("reads out each model with its interval, band and P(useful), and treating all", () => {
    const state = readState(new FakeModel(curveState()));
    const lines = readoutLines(state, 1);
    expect(lines).toEqual([
      '<img src=x onerror="window.__pwned=1">: net benefit 0.25 (95% interval 0.2 to 0.3; 95% band 0.05 to 0.4), P(useful) = 0.98',
      "treat all: net benefit 0.1 (95% interval 0.08 to 0.12; 95% band 0 to 0.2)",
    ]);
    expect(readoutLines(state, -1)).toEqual([]);
  });
});

describe("drawing", () => {
  it("shades each model's band lighter and its interval darker, then draws every line", () => {
    const state = readState(new FakeModel(curveState()));
    const drawn = drawCurve(ctx, state, THEME, layout(500), 1);
    expect(drawn).toEqual({ lines: 3, shaded: 3 });
    const colour = modelColour(0);
    expect(colour).toBe(PALETTE.contours[0]);
    expect(ctx.fills.slice(0, 3)).toEqual([
      [colour, BAND_ALPHA],
      [colour, INTERVAL_ALPHA],
      [THEME.muted, BAND_ALPHA],
    ]);
    expect(BAND_ALPHA).toBeLessThan(INTERVAL_ALPHA);
    const { box } = layout(500);
    const { x } = scales(box, [0.1, 0.3], [-0.05, 0.4]);
    const cursor = ctx.calls.find((c) => c[0] === "moveTo" && c[1] === x(0.2) && c[2] === box.top);
    expect(cursor).toBeDefined();
    const texts = ctx.calls.filter((c) => c[0] === "fillText").map((c) => c[1]);
    expect(texts).toContain("net benefit");
    expect(texts).toContain("treat all");
  });

  it("names at most LEGEND_MODELS models in the legend, then how many more, then the references", () => {
    const names = [...Array.from({ length: 12 }, (_, m) => `m${m}`), "treat all", "treat none"];
    const entries = legendEntries({ names, models: 12 });
    expect(entries.length).toBe(LEGEND_MODELS + 3);
    expect(entries[LEGEND_MODELS]).toEqual([-1, "… and 4 more"]);
    expect(entries.slice(-2)).toEqual([[12, "treat all"], [13, "treat none"]]);
    expect(legendEntries({ names: ["x".repeat(50), "treat all", "treat none"], models: 1 })[0][1]).toBe(`${"x".repeat(39)}…`);
  });

  it("draws no curve for inconsistent buffers, only the axes", () => {
    const state = readState(new FakeModel(curveState({ _lower: f64([0]) })));
    expect(drawCurve(ctx, state, THEME, layout(500), 1)).toEqual({ lines: 0, shaded: 0 });
  });

  it("skips non-finite values instead of drawing them", () => {
    const nb = [NaN, 0.25, 0.2, 0.28, 0.1, -0.05, 0, 0, 0];
    const state = readState(new FakeModel(curveState({ _net_benefit: f64(nb) })));
    drawCurve(ctx, state, THEME, layout(500), 0);
    expect(ctx.calls.every((c) => c.slice(1).every((v) => typeof v !== "number" || Number.isFinite(v)))).toBe(true);
  });
});

describe("render", () => {
  it("mirrors the cursor in data attributes; the slider moves it without a kernel", async () => {
    const { model, root, cleanup } = mountWidget(render, curveState(), ".confusionlab-decision-curve");
    const d = root.dataset;
    expect([d.strategies, d.models, d.thresholds, d.lines, d.shaded]).toEqual(["3", "1", "3", "3", "3"]);
    expect([d.index, d.threshold, d.netBenefit, d.probUseful]).toEqual(["1", "0.2", "0.25", "0.98"]);
    // a hostile name is text: no element made of it
    expect(root.querySelector("img")).toBeNull();
    expect(root.querySelector(".cl-readout").textContent).toContain("P(useful) = 0.98");
    expect(root.querySelector(".cl-note").textContent).toContain("Lighter, wider shade");
    const slider = root.querySelector("input.cl-threshold");
    expect([slider.min, slider.max, slider.value]).toEqual(["0", "2", "1"]);
    slider.value = "2";
    slider.dispatchEvent(new Event("input"));
    expect(model.get("threshold")).toBe(0.3);
    expect(model.saved).toBe(1);
    await Promise.resolve();
    expect([d.index, d.netBenefit, d.probUseful]).toEqual(["2", "0.2", "0.9"]);
    expect(root.querySelector(".cl-threshold-label").textContent).toBe("p_t = 0.3");
    model.set("generation", 4);
    await Promise.resolve();
    expect(d.generation).toBe("4");
    const before = model.listenerCount();
    cleanup();
    expect(model.listenerCount()).toBeLessThan(before);
  });
});
