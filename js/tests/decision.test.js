// DecisionView: the pure geometry (slider ↔ cost, iso-cost line, candidate positions, plausible
// runs, texts), the drawing functions with a recording context, and render with a fake model
// (the numbers are arbitrary: the browser never computes a choice or a band).
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  GAP,
  MARGINS,
  NONE_OFFSET,
  candidateX,
  costFromPt,
  costText,
  finiteRange,
  isoCostSegment,
  layout,
  pendingText,
  plausibleRuns,
  ptFromCost,
  readout,
  runSpan,
  sameCost,
  xDomain,
  yDomain,
} from "../decision/geometry.js";
import { ISO_COLOUR, drawCost, drawRoc, readState, render } from "../decision/widget.js";
import { FakeModel, mountWidget } from "./fake_model.js";

const f64 = (values) => new DataView(new Float64Array(values).buffer);
const i32 = (values) => new DataView(new Int32Array(values).buffer);
const THEME = { accent: "#1976d2", muted: "#616161", foreground: "#212121", background: "#fff", font: "sans-serif" };

/** Four candidates (three scores and "none positive"), the second chosen. */
function decisionState(extra = {}) {
  return {
    cost: [1, 4],
    confidence: 0.95,
    width: 600,
    generation: 3,
    _fpr: f64([1, 0.5, 0.1, 0]),
    _tpr: f64([1, 0.9, 0.4, 0]),
    _thresholds: f64([0.2, 0.5, 0.8, Infinity]),
    _values: f64([0.6, 0.3, 0.5, 0.8]),
    _lower: f64([0.5, 0.2, 0.35, 0.8]),
    _upper: f64([0.7, 0.45, 0.65, 0.8]),
    _plausible: f64([0, 1, 1, 0]),
    _pointwise_index: i32([0, 1, 3]),
    _pointwise_lower: f64([0.55, 0.25, 0.7]),
    _pointwise_upper: f64([0.65, 0.35, 0.9]),
    _roc_fpr: f64([0, 0.5, 1]),
    _roc_lower: f64([0, 0.6, 1]),
    _roc_upper: f64([0.3, 1, 1]),
    _summary: {
      index: 1,
      threshold: 0.5,
      none_positive: false,
      tp: 9,
      fn: 1,
      fp: 5,
      tn: 5,
      value: 0.3,
      interval: [0.2, 0.45],
      pointwise: [0.25, 0.35],
      confidence: 0.95,
      objective: "expected cost",
      cost: [1, 4],
      p_t: 0.2,
      iso_slope: 0.25,
      plausible: 2,
      y_label: "expected cost per example",
      title: "Which threshold? Positive class: '<img src=x onerror=alert(1)>'",
      text: "The threshold 0.5 (scores ≥ it positive) minimises …",
      note: "Left: the ROC staircase …",
    },
    ...extra,
  };
}

let ctx;
beforeEach(() => {
  ctx = { calls: [], fills: [] };
  const names = ["setTransform", "clearRect", "fillRect", "strokeRect", "beginPath", "moveTo", "lineTo", "stroke"];
  for (const name of [...names, "fillText", "save", "restore", "translate", "rotate", "setLineDash", "arc", "closePath"]) {
    ctx[name] = (...args) => ctx.calls.push([name, ...args]);
  }
  ctx.fill = () => ctx.fills.push(ctx.fillStyle);
  vi.spyOn(HTMLCanvasElement.prototype, "getContext").mockImplementation(() => ctx);
});
afterEach(() => {
  vi.restoreAllMocks();
  document.body.innerHTML = "";
});

describe("geometry", () => {
  it("puts two square panels side by side", () => {
    const g = layout(600);
    const panel = (600 - GAP) / 2;
    expect(g.roc).toEqual({ left: MARGINS.left, top: MARGINS.top, width: panel - 64, height: panel - 64 });
    expect(g.cost.left).toBe(panel + GAP + MARGINS.left);
    expect(g.cost.width).toBe(g.roc.width);
    expect(g.width).toBe(600);
    expect(g.height).toBe(MARGINS.top + g.roc.height + MARGINS.bottom);
    expect(layout(10).roc.width).toBe(180 - 64); // never smaller than a usable panel
  });

  it("turns p_t into a cost pair with the same total, and back", () => {
    expect(ptFromCost([1, 4])).toBe(0.2);
    expect(ptFromCost([0, 3])).toBe(0);
    expect(ptFromCost(null)).toBe(null);
    expect(ptFromCost([])).toBe(null);
    expect(ptFromCost([0, 0])).toBe(null);
    expect(costFromPt(0.1, 5)).toEqual([0.5, 4.5]);
    expect(costFromPt(2, 5)).toEqual([5, 0]); // clamped to [0, 1]
    expect(costFromPt(0.5, NaN)).toEqual([0.5, 0.5]); // no usable total: 1
    const [fp, fn] = costFromPt(0.37, 10);
    expect(ptFromCost([fp, fn])).toBeCloseTo(0.37, 14);
  });

  it("clips the iso-cost line through the chosen point to the unit square", () => {
    // slope 0.25 through (0.5, 0.9): y = 0.9 + 0.25 (x − 0.5) reaches y = 1 at x = 0.9
    const seg = isoCostSegment(0.5, 0.9, 0.25);
    expect(seg[0]).toBeCloseTo(0, 14);
    expect(seg[1]).toBeCloseTo(0.775, 14);
    expect(seg[2]).toBeCloseTo(0.9, 14);
    expect(seg[3]).toBeCloseTo(1, 14);
    // the segment passes through the point: its slope between the ends is the given one
    expect((seg[3] - seg[1]) / (seg[2] - seg[0])).toBeCloseTo(0.25, 12);
    expect(isoCostSegment(0.3, 0.6, null)).toEqual([0.3, 0, 0.3, 1]); // cost_fn = 0: vertical
    expect(isoCostSegment(0.3, 0.6, 0)).toEqual([0, 0.6, 1, 0.6]); // cost_fp = 0: horizontal
    expect(isoCostSegment(0, 1, 4)).toEqual([0, 1, 0, 1]); // the corner: a point
    expect(isoCostSegment(NaN, 0.5, 1)).toBe(null);
  });

  it("places the candidates on the threshold axis, none positive right of the scores", () => {
    const t = [0.2, 0.5, 0.8, Infinity];
    expect(finiteRange(t)).toEqual([0.2, 0.8]);
    expect(finiteRange([3, Infinity])).toEqual([2.5, 3.5]);
    expect(finiteRange([Infinity])).toEqual([0, 1]);
    const xs = candidateX(t);
    expect(Array.from(xs.subarray(0, 3))).toEqual([0.2, 0.5, 0.8]);
    expect(xs[3]).toBeCloseTo(0.8 + NONE_OFFSET * 0.6, 14);
    const [lo, hi] = xDomain(t);
    expect(lo).toBe(0.2);
    expect(hi).toBeGreaterThan(xs[3]);
    expect(yDomain([0.3, NaN], [0.2], [0.5, Infinity])).toEqual([0.2 - 0.012, 0.5 + 0.012]);
    expect(yDomain([NaN])).toEqual([0, 1]);
  });

  it("finds the runs of plausible candidates and the thresholds each run stands for", () => {
    expect(plausibleRuns([0, 1, 1, 0, 1])).toEqual([
      [1, 2],
      [4, 4],
    ]);
    expect(plausibleRuns([1, 1])).toEqual([[0, 1]]);
    expect(plausibleRuns([])).toEqual([]);
    const xs = [0.2, 0.5, 0.8, 0.9];
    expect(runSpan(xs, [1, 2])).toEqual([0.2, 0.8]); // candidate 1 stands for (0.2, 0.5]
    expect(runSpan(xs, [0, 0])).toEqual([0.2, 0.2]);
  });

  it("says the choice in words", () => {
    const s = decisionState()._summary;
    expect(readout(s)).toBe(
      "positive when score ≥ 0.5: TP 9, FN 1, FP 5, TN 5 · expected cost per example 0.3, " +
        "95% after selection [0.2, 0.45], as if fixed in advance [0.25, 0.35]",
    );
    expect(readout({ ...s, none_positive: true, threshold: null })).toMatch(/^no example positive/);
    expect(readout({})).toBe("");
    expect(costText(s)).toBe("p_t 0.2 · cost FP 1, FN 4");
    expect(costText({ ...s, cost: null, objective: "f1" })).toBe("chosen by maximising f1: no cost to vary");
  });
});

describe("a cost asked for and not yet computed", () => {
  it("compares cost pairs to rounding and says what is drawn meanwhile", () => {
    expect(sameCost([1, 4], [1, 4 + 1e-15])).toBe(true);
    expect(sameCost([1, 4], [0.5, 4.5])).toBe(false);
    expect(sameCost([], null)).toBe(true);
    const s = decisionState()._summary;
    expect(pendingText([1, 4], s)).toBe("");
    expect(pendingText([], { ...s, cost: null })).toBe("");
    expect(pendingText([0.5, 4.5], s)).toBe(
      "Asked for p_t 0.1: the kernel recomputes the choice (a static page has no kernel; it keeps showing p_t 0.2).",
    );
  });
});

describe("drawing", () => {
  it("draws the ROC band, the staircase, the iso-cost line and the chosen point", () => {
    const state = readState(new FakeModel(decisionState()));
    expect(state.count).toBe(4);
    expect(state.index).toBe(1);
    const box = layout(600).roc;
    const drawn = drawRoc(ctx, state, THEME, box);
    expect(drawn).toEqual({ band: 6, iso: true });
    const arcs = ctx.calls.filter((c) => c[0] === "arc");
    expect(arcs).toHaveLength(1);
    expect(arcs[0][1]).toBeCloseTo(box.left + 0.5 * box.width, 9);
    expect(arcs[0][2]).toBeCloseTo(box.top + 0.1 * box.height, 9);
    const noCost = readState(new FakeModel(decisionState({ cost: [], _summary: { ...decisionState()._summary, cost: null } })));
    expect(drawRoc(ctx, noCost, THEME, box).iso).toBe(false);
  });

  it("draws the cost panel: shaded runs, band, pointwise bars and the chosen candidate", () => {
    const state = readState(new FakeModel(decisionState()));
    const drawn = drawCost(ctx, state, THEME, layout(600).cost);
    expect(drawn).toEqual({ candidates: 4, runs: 1, bars: 3 });
    const texts = ctx.calls.filter((c) => c[0] === "fillText").map((c) => c[1]);
    expect(texts).toContain("expected cost per example");
  });

  it("draws no candidate from inconsistent buffers", () => {
    const state = readState(new FakeModel(decisionState({ _values: f64([0.1]) })));
    expect(state.count).toBe(0);
    expect(state.index).toBe(-1);
    expect(drawCost(ctx, state, THEME, layout(600).cost)).toEqual({ candidates: 0, runs: 0, bars: 0 });
  });
});

describe("render", () => {
  it("mirrors the choice in data attributes, writes names as text and redraws on a change", async () => {
    const { model, root, cleanup } = mountWidget(render, decisionState(), ".confusionlab-decision");
    const d = root.dataset;
    expect([d.candidates, d.index, d.threshold, d.tp, d.fp, d.plausible]).toEqual(["4", "1", "0.5", "9", "5", "2"]);
    expect([d.runs, d.pointwise, d.rocBand, d.iso, d.pt, d.generation]).toEqual(["1", "3", "6", "1", "0.2", "3"]);
    const title = root.querySelector(".cl-title");
    expect(title.textContent).toContain("<img src=x onerror=alert(1)>");
    expect(root.querySelector("img")).toBe(null); // a hostile label is text, never markup
    expect(root.querySelector(".cl-cost-label").textContent).toBe("p_t 0.2 · cost FP 1, FN 4");
    model.set("_summary", { ...decisionState()._summary, index: 3, threshold: null, none_positive: true });
    await Promise.resolve();
    expect(d.index).toBe("3");
    expect(d.threshold).toBe("inf");
    cleanup();
    expect(model.listenerCount()).toBe(0);
  });

  it("sends the cost pair of the slider's p_t, keeping the total", async () => {
    const { model, root } = mountWidget(render, decisionState(), ".confusionlab-decision");
    const slider = root.querySelector("input.cl-cost");
    expect(slider.disabled).toBe(false);
    slider.value = "0.1";
    slider.dispatchEvent(new Event("change"));
    const [fp, fn] = model.get("cost");
    expect(fp).toBeCloseTo(0.5, 12);
    expect(fn).toBeCloseTo(4.5, 12);
    expect(model.saved).toBe(1);
    // until Python answers, the picture and its label stay those of the computed choice, and say so
    await Promise.resolve();
    expect(root.dataset.pt).toBe("0.2");
    expect(root.dataset.pending).toBe("1");
    expect(root.querySelector(".cl-cost-label").textContent).toBe("p_t 0.2 · cost FP 1, FN 4");
    expect(root.querySelector(".cl-pending").textContent).toMatch(/^Asked for p_t 0.1/);
    model.set("_summary", { ...decisionState()._summary, cost: [fp, fn], p_t: 0.1 });
    await Promise.resolve();
    expect(root.dataset.pt).toBe("0.1");
    expect(root.dataset.pending).toBe("0");
  });

  it("turns the slider off for a choice without a cost", () => {
    const state = decisionState({ cost: [], _summary: { ...decisionState()._summary, cost: null } });
    const { model, root } = mountWidget(render, state, ".confusionlab-decision");
    const slider = root.querySelector("input.cl-cost");
    expect(slider.disabled).toBe(true);
    slider.dispatchEvent(new Event("change"));
    expect(model.get("cost")).toEqual([]);
    expect(model.saved).toBe(0);
    expect(root.dataset.iso).toBe("0");
    expect(ISO_COLOUR).toMatch(/^#/);
  });
});
