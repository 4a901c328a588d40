// PlannerView: pure geometry (frame, step paths, jumps, summary) and render with a fake model.
import { afterEach, describe, expect, it } from "vitest";
import { frame, planSummary, stepPaths, upwardJumps } from "../planner/geometry.js";
import { linearScale as linear } from "../shared/scale.js";
import { SLIDERS, drawCurve, readState, render } from "../planner/widget.js";
import { FakeModel, mountWidget } from "./fake_model.js";

const f64 = (values) => new DataView(new Float64Array(values).buffer);

function plannerState(extra = {}) {
  return {
    metric: "recall",
    prevalence: 0.5,
    tpr: 0.8,
    tnr: 0.8,
    mode: "rates",
    value: 0.6,
    half_width: 0.1,
    confidence: 0.95,
    width: 400,
    generation: 3,
    _metric_label: "Recall (TPR, sensitivity)",
    _plan: { N: 229, p: 115, n: 114, half_width: 0.1, requested_half_width: 0.1, confidence: 0.95, reached: true, range: [91, 366] },
    _exact_n: f64([220, 225, 229]),
    _exact_h: f64([0.102, 0.1009, 0.1]),
    _approx_n: f64([91, 92, 93, 94]),
    _approx_h: f64([0.15, 0.16, 0.149, NaN]),
    ...extra,
  };
}

describe("drawing", () => {
  it("titles both axes: N across, the interval half-width up", () => {
    const calls = [];
    // A canvas context that records every call and keeps every property set on it.
    const ctx = new Proxy(
      {},
      { get: (target, name) => (name in target ? target[name] : (...args) => calls.push([name, ...args])) },
    );
    const theme = { grid: "#ddd", muted: "#666", accent: "#1976d2", foreground: "#222", font: "sans-serif" };
    drawCurve(ctx, readState(new FakeModel(plannerState())), theme);
    const texts = calls.filter((c) => c[0] === "fillText").map((c) => c[1]);
    expect(texts).toContain("N (test-set size)");
    expect(texts).toContain("interval half-width");
    expect(calls.filter((c) => c[0] === "rotate").map((c) => c[1])).toEqual([-Math.PI / 2]);
  });
});

describe("geometry", () => {
  it("maps linearly and handles an empty domain", () => {
    expect(linear(0, 10, 0, 100)(5)).toBe(50);
    expect(linear(3, 3, 7, 9)(100)).toBe(7);
  });

  it("draws the approximation as steps, broken at NaN", () => {
    const x = (v) => v;
    const y = (v) => 10 * v;
    const paths = stepPaths([1, 2, 3, 4, 5], [1, 2, NaN, 3, 3], x, y);
    expect(paths).toEqual([
      [
        [1, 10],
        [2, 10],
        [2, 20],
      ],
      [
        [4, 30],
        [5, 30],
        [5, 30],
      ],
    ]);
  });

  it("counts upward jumps (the half-width is not monotone in N)", () => {
    expect(upwardJumps([0.3, 0.2, 0.25, 0.1, 0.12])).toBe(2);
    expect(upwardJumps([])).toBe(0);
  });

  it("frames the range and keeps the requested half-width visible", () => {
    const state = readState({ get: (k) => plannerState({ half_width: 0.5 })[k] });
    const f = frame(state, 400);
    expect(f.yMax).toBeGreaterThan(0.5);
    expect(f.x(91)).toBe(56);
    expect(f.x(366)).toBe(384);
  });

  it("summarises a plan and an unreachable target", () => {
    const plan = plannerState()._plan;
    expect(planSummary(plan, "Recall")).toContain("N = 229");
    expect(planSummary({ ...plan, target: "true_value" }, "Recall")).toContain("for the true value");
    expect(planSummary({ ...plan, target: "next_test_set" }, "Recall")).toContain("for a new test set");
    expect(planSummary({ ...plan, N_stable: 240 }, "Recall")).toContain("Every N from 240 on");
    expect(planSummary({ ...plan, reached: false, N: 5000, half_width: 0.2 }, "MCC")).toMatch(/^Not reached.*best N = 5,000/);
    expect(planSummary({}, "x")).toBe("");
  });

  it("says a clustered plan beside the independent one, and nothing without clusters", () => {
    const plan = plannerState()._plan;
    expect(planSummary(plan, "Recall")).not.toContain("Clustered");
    const clustered = { ...plan, icc: 0.1, cluster_size: 10, design_effect: 1.9, N_clustered: 440, n_clusters: 44 };
    expect(planSummary(clustered, "Recall")).toContain(
      "Clustered rows (ICC 0.1, clusters of 10 rows, design effect 1.9): plan 440 rows in 44 clusters.",
    );
  });
});

describe("render", () => {
  let mounted;
  afterEach(() => {
    mounted?.cleanup();
    mounted?.host.remove();
  });

  it("mirrors the plan in data attributes and draws the exact points", () => {
    mounted = mountWidget(render, plannerState(), ".confusionlab-planner");
    const d = mounted.root.dataset;
    expect(d.n).toBe("229");
    expect(d.reached).toBe("true");
    expect(d.points).toBe("3");
    expect(d.jumps).toBe("1");
    expect(d.generation).toBe("3");
    expect(mounted.root.querySelector(".cl-summary").textContent).toContain("N = 229");
    expect(mounted.root.querySelectorAll("input[type=range]").length).toBe(SLIDERS.length);
  });

  it("sends a slider change to the kernel and redraws on the answer", async () => {
    mounted = mountWidget(render, plannerState(), ".confusionlab-planner");
    const input = mounted.root.querySelector("input[data-key=half_width]");
    input.value = "0.05";
    input.dispatchEvent(new Event("change"));
    expect(mounted.model.get("half_width")).toBe(0.05);
    expect(mounted.model.saved).toBe(1);
    mounted.model.set("_plan", { ...plannerState()._plan, N: 905, reached: true });
    await Promise.resolve();
    expect(mounted.root.dataset.n).toBe("905");
  });

  it("shows the value slider instead of the rates in value mode", () => {
    mounted = mountWidget(render, plannerState({ mode: "value" }), ".confusionlab-planner");
    const row = (k) => mounted.root.querySelector(`.cl-slider-${k}`).style.display;
    expect(row("value")).toBe("");
    expect(row("tpr")).toBe("none");
  });

  it("survives inconsistent buffers", () => {
    mounted = mountWidget(render, plannerState({ _exact_h: f64([0.1]) }), ".confusionlab-planner");
    expect(mounted.root.dataset.points).toBe("0");
  });
});
