// EvaluationView: buffer slicing, variance shares, refit spread, render with a fake model.
import { describe, expect, it } from "vitest";
import { maxMassInside, splitByOffsets, spread, varianceShares } from "../evaluation/geometry.js";
import { groupSummary, readState, render, selectGroup } from "../evaluation/widget.js";
import { FakeModel, f32, mountWidget } from "./fake_model.js";

const f64 = (values) => new DataView(new Float64Array(values).buffer);

function state(extra = {}) {
  return {
    metric: "f1",
    confidence: 0.95,
    width: 400,
    generation: 3,
    _panels: [
      { group: "F", value: 0.7, mean: 0.69, interval: [0.6, 0.8], confidence: 0.95, test_set_sd: 0.03, refit_sd: 0.04,
        total_sd: 0.05, positives: 40, negatives: 60, too_small: false, mc_error: 0 },
      { group: "all", value: 0.72, mean: 0.7, interval: [0.65, 0.78], confidence: 0.95, test_set_sd: 0.02, refit_sd: 0,
        total_sd: 0.02, positives: 4, negatives: 96, too_small: true, mc_error: 0 },
    ],
    _offsets: [0, 3, 5],
    _values: f64([0.6, 0.7, 0.8, 0.65, 0.75]),
    _probabilities: f32([0.2, 0.5, 0.3, 0.4, 0.6]),
    _refit_means: f64([0.68, 0.7, 0.71, 0.72]),
    _refit_offsets: [0, 2, 4],
    _domain: [0.5, 0.9],
    _question: "What will F1 score be on a new test set of the same size, scored by a new refit of the model?",
    _target: "next_test_set",
    _metric_label: "F1 score",
    _n_refits: 2,
    _unstable: [{ index: 7, group: "F", stability: -0.2 }],
    _slice_note: "Click a group to show its confusion matrix (of the first refit: only refits were given) in the linked ROC slice.",
    selected: "all",
    ...extra,
  };
}

describe("geometry", () => {
  it("splits buffers by offsets and refuses inconsistent ones", () => {
    const parts = splitByOffsets(new Float64Array([1, 2, 3, 4]), [0, 1, 4], 2);
    expect(parts.map((p) => Array.from(p))).toEqual([[1], [2, 3, 4]]);
    expect(splitByOffsets(new Float64Array([1, 2]), [0, 1, 4], 2).map((p) => p.length)).toEqual([0, 0]);
  });

  it("gives variance shares that add up to one", () => {
    const s = varianceShares(0.03, 0.04);
    expect(s.test).toBeCloseTo(0.36, 12);
    expect(s.refit).toBeCloseTo(0.64, 12);
    expect(varianceShares(0, 0)).toEqual({ test: 1, refit: 0 });
    expect(varianceShares(null, 0.1)).toEqual({ test: 0, refit: 1 });
  });

  it("finds the refits' spread and the largest mass shown", () => {
    expect(spread([0.7, 0.6, 0.75])).toEqual({ min: 0.6, max: 0.75 });
    expect(spread([])).toBeNull();
    expect(maxMassInside([0.1, 0.5, 2], [0.9, 0.3, 0.8], 0.2, 1.5)).toBe(0.3);
  });
});

describe("render", () => {
  it("states the question, draws every group and mirrors the state", () => {
    const { root, model, cleanup } = mountWidget(render, state(), ".confusionlab-evaluation");
    expect(root.querySelector(".cl-question").textContent).toContain("new test set of the same size");
    expect(root.dataset.groups).toBe("2");
    expect(root.dataset.refits).toBe("2");
    expect(root.dataset.target).toBe("next_test_set");
    expect(root.querySelectorAll("canvas").length).toBe(2);
    const verdicts = Array.from(root.querySelectorAll(".cl-verdict")).map((v) => v.textContent);
    expect(verdicts).toEqual(["36% test set · 64% refit", "too small to say anything"]);
    expect(parseFloat(root.querySelector(".cl-share-refit").style.width)).toBeCloseTo(64, 6);
    expect(root.querySelector(".cl-unstable").textContent).toContain("#7 (F)");
    expect(readState(model).panels[1].means.length).toBe(2);
    cleanup();
    expect(model.listenerCount()).toBe(0);
  });

  it("redraws once per change burst and drops panels", async () => {
    const { root, model } = mountWidget(render, state(), ".confusionlab-evaluation");
    model.set("_panels", state()._panels.slice(0, 1));
    model.set("_offsets", [0, 5]);
    model.set("_refit_offsets", [0, 4]);
    await Promise.resolve();
    expect(root.dataset.groups).toBe("1");
    expect(root.querySelectorAll(".cl-group").length).toBe(1);
  });

  it("summarises a group in words", () => {
    expect(groupSummary(state()._panels[0])).toBe("F: 0.7 · 95% [0.6, 0.8] · sd 0.05 · 40 pos / 60 neg");
  });
});

describe("selection", () => {
  it("a click on a group's panel sets selected and sends it to Python once", () => {
    const { root, model, cleanup } = mountWidget(render, state(), ".confusionlab-evaluation");
    const boxes = root.querySelectorAll(".cl-group");
    expect(Array.from(boxes).map((b) => b.dataset.group)).toEqual(["F", "all"]);
    expect(root.dataset.selected).toBe("all");
    expect(boxes[1].classList.contains("cl-selected")).toBe(true);
    expect(root.querySelector(".cl-slice-note").textContent).toContain("first refit");
    boxes[0].querySelector("canvas").dispatchEvent(new MouseEvent("click", { bubbles: true }));
    expect(model.get("selected")).toBe("F");
    expect(model.saved).toBe(1);
    boxes[0].click(); // the same group again: nothing to send
    expect(model.saved).toBe(1);
    boxes[1].dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", bubbles: true }));
    expect(model.get("selected")).toBe("all");
    expect(model.saved).toBe(2);
    cleanup();
  });

  it("draws the selection Python sends back (a refused one included)", async () => {
    const { root, model } = mountWidget(render, state(), ".confusionlab-evaluation");
    model.set("selected", "F");
    await Promise.resolve();
    expect(root.dataset.selected).toBe("F");
    const selected = Array.from(root.querySelectorAll(".cl-group.cl-selected")).map((b) => b.dataset.group);
    expect(selected).toEqual(["F"]);
    model.set("selected", "all"); // Python refused the click and restored the old value
    await Promise.resolve();
    expect(root.dataset.selected).toBe("all");
    expect(root.querySelector(".cl-group.cl-selected").dataset.group).toBe("all");
  });

  it("selectGroup ignores non-strings and unchanged groups", () => {
    const model = new FakeModel({ selected: "a" });
    expect(selectGroup(model, undefined)).toBe(false);
    expect(selectGroup(model, "a")).toBe(false);
    expect(selectGroup(model, "b")).toBe(true);
    expect([model.get("selected"), model.saved]).toEqual(["b", 1]);
  });
});
