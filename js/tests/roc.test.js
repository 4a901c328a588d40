// RocView / PrecisionRecallView: the curve's vertices, the band's polygon, the nearest point,
// the readout, and render with a fake model (the slider moves the index and sends it).
import { describe, expect, it } from "vitest";
import {
  bandPolygon,
  clampIndex,
  curveVertices,
  layout,
  legendItems,
  nearestIndex,
  noSkillLabel,
  operatingPoint,
  readout,
  summaryText,
} from "../roc/geometry.js";
import { moveTo, readState, render } from "../roc/widget.js";
import { FakeModel, f32, i32, mountWidget } from "./fake_model.js";

const f64 = (values) => new DataView(new Float64Array(values).buffer);

// A staircase of 2 positives and 2 negatives with a tied block (one positive, one negative).
function state(extra = {}) {
  return {
    _kind: "roc",
    _x: f32([0, 0, 0.5, 1]),
    _y: f32([0, 0.5, 1, 1]),
    _tp: i32([0, 1, 2, 2]),
    _fp: i32([0, 0, 1, 2]),
    _thresholds: f64([Infinity, 0.9, 0.5, 0.1]),
    _band_x: f32([0, 0.5, 1]),
    _band_lower: f32([0, 0.2, 0.6]),
    _band_upper: f32([0.7, 1, 1]),
    _summary: { label: "AUC", value: 0.875, interval: [0.4, 0.99], confidence: 0.95, method: "DeLong, logit scale",
      band: "Campbell's simultaneous band", p: 2, n: 2, x_label: "false-positive rate", y_label: "true-positive rate" },
    index: 1,
    confidence: 0.95,
    size: 300,
    generation: 4,
    ...extra,
  };
}

describe("geometry", () => {
  it("keeps the ROC staircase's vertices and draws PR as the steps AP sums", () => {
    expect(Array.from(curveVertices([0, 0.5, 1], [0, 1, 1], "roc"))).toEqual([0, 0, 0.5, 1, 1, 1]);
    // PR: (R0, P0), then for each k the step (R_{k-1}, P_k) → (R_k, P_k)
    expect(Array.from(curveVertices([0, 0.5, 1], [1, 1, 0.5], "pr"))).toEqual([0, 1, 0, 1, 0.5, 1, 0.5, 0.5, 1, 0.5]);
    expect(curveVertices([], [], "pr").length).toBe(0);
  });

  it("closes the band along its lower edge and back along the upper one", () => {
    expect(Array.from(bandPolygon([0, 1], [0.1, 0.2], [0.8, 0.9]))).toEqual([0, 0.1, 1, 0.2, 1, 0.9, 0, 0.8]);
  });

  it("clamps an index and finds the nearest point to a pixel", () => {
    expect(clampIndex(7, 4)).toBe(3);
    expect(clampIndex(-2, 4)).toBe(0);
    expect(clampIndex(Number.NaN, 4)).toBe(0);
    expect(clampIndex(2, 0)).toBe(0);
    const id = (v) => 100 * v;
    expect(nearestIndex([0, 0.5, 1], [0, 0.9, 1], 48, 88, id, id)).toBe(1);
    expect(nearestIndex([], [], 0, 0, id, id)).toBe(-1);
  });

  it("lays out a square plot inside the margins", () => {
    const { box, width, height } = layout(300);
    expect(box.width).toBe(box.height);
    expect(width).toBe(300);
    expect(height).toBeGreaterThan(box.height);
  });

  it("reads the operating point and says it in words", () => {
    const s = readState(new FakeModel(state()));
    expect(s.count).toBe(4);
    const point = operatingPoint(s, 2);
    expect(point).toEqual({ x: 0.5, y: 1, tp: 2, fp: 1, threshold: 0.5 });
    expect(readout(s, point)).toBe("positive when score ≥ 0.5: TP 2 of 2, FP 1 of 2 · FPR 0.5, TPR 1");
    expect(readout(s, operatingPoint(s, 0))).toMatch(/^nobody called positive/);
    expect(operatingPoint(s, 4)).toBeNull();
    expect(summaryText(s.summary)).toBe(
      "AUC 0.875 · 95% interval [0.4, 0.99] (DeLong, logit scale) on 2 positives and 2 negatives",
    );
  });

  it("gives an empty curve for inconsistent buffers", () => {
    const s = readState(new FakeModel(state({ _tp: i32([0, 1]) })));
    expect(s.count).toBe(0);
    expect(s.index).toBe(0);
  });
});

describe("render", () => {
  it("mirrors the operating point in data attributes and moves it with the slider", async () => {
    const { model, root, cleanup } = mountWidget(render, state(), ".confusionlab-roc");
    expect(root.dataset.kind).toBe("roc");
    expect(root.dataset.points).toBe("4");
    expect(root.dataset.band).toBe("6");
    expect(root.dataset.index).toBe("1");
    expect([root.dataset.tp, root.dataset.fp, root.dataset.threshold]).toEqual(["1", "0", "0.9"]);
    const slider = root.querySelector("input.cl-threshold");
    expect([slider.min, slider.max, slider.value]).toEqual(["0", "3", "1"]);
    slider.value = "3";
    slider.dispatchEvent(new Event("input"));
    expect(model.get("index")).toBe(3);
    expect(model.saved).toBe(1);
    await Promise.resolve();
    expect([root.dataset.index, root.dataset.tp, root.dataset.fp]).toEqual(["3", "2", "2"]);
    expect(root.querySelector(".cl-readout").textContent).toMatch(/positive when score ≥ 0.1/);
    expect(root.querySelector(".cl-summary").textContent).toMatch(/^AUC 0.875/);
    expect(Number(root.dataset.draws)).toBe(2);
    cleanup();
    expect(model.listenerCount()).toBe(0);
  });

  it("draws the precision–recall kind and refuses to move to the same index twice", () => {
    const { model, root, cleanup } = mountWidget(render, state({ _kind: "pr", _y: f32([1, 1, 0.667, 0.5]) }), ".confusionlab-roc");
    expect(root.dataset.kind).toBe("pr");
    expect(moveTo(model, 1)).toBe(false);
    expect(moveTo(model, 99)).toBe(true);
    expect(model.get("index")).toBe(3);
    cleanup();
  });
});

describe("legend (issue 38)", () => {
  it("says in words what the pale region and the dashed chance line of the ROC view are", () => {
    const items = legendItems(state()._summary, "roc");
    expect(items.map((i) => i.mark)).toEqual(["band", "dashed"]);
    expect(items[0].text).toBe(
      "pale region: with 95% confidence the whole true ROC curve lies inside it " +
        "(Campbell's simultaneous band, for every point of the curve at once)",
    );
    expect(items[1].text).toContain("dashed: chance");
    expect(legendItems({ ...state()._summary, confidence: 0.9 }, "roc")[0].text).toContain("with 90% confidence");
    expect(legendItems({}, "roc")).toEqual([]);
  });

  it("labels the precision–recall view's no-skill line with the share of positives", () => {
    // 2 positives of 4 examples: the no-skill precision is 2 / 4 = 0.5
    const summary = { ...state()._summary, band: "the simultaneous ROC band mapped to precision", baseline: 0.5 };
    const items = legendItems(summary, "pr");
    expect(items[0].text).toContain("the whole true precision–recall curve lies inside it");
    expect(items[1].text).toBe(
      "dashed: no skill, precision 0.5 = the share of positives (2 of 4), what scores unrelated to the label give",
    );
    expect(noSkillLabel(0.25)).toBe("no skill (0.25)");
  });

  it("renders the legend under the plot and writes the no-skill label on the PR canvas", () => {
    const texts = [];
    const proto = HTMLCanvasElement.prototype;
    const original = proto.getContext;
    const calls = new Proxy({}, { get: (_, name) => (name === "fillText" ? (t) => texts.push(t) : () => ({})) });
    proto.getContext = () => calls;
    try {
      const summary = { ...state()._summary, baseline: 0.5 };
      const { root, cleanup } = mountWidget(render, state({ _kind: "pr", _summary: summary }), ".confusionlab-roc");
      const rows = [...root.querySelectorAll(".cl-legend-item")];
      expect(rows).toHaveLength(2);
      expect(rows[0].querySelector(".cl-legend-band")).not.toBeNull();
      expect(rows[1].textContent).toContain("no skill, precision 0.5");
      expect(texts).toContain("no skill (0.5)");
      cleanup();
    } finally {
      proto.getContext = original;
    }
  });
});

