// The canvas chart of BiasView and StabilityView: reading, scales, ticks, drawing, render.
import { describe, expect, it } from "vitest";
import { chartScales, drawChart, readChart, render, xTicks, MARGINS } from "../chart/chart.js";
import { applyLayout } from "../export/embed.js";
import { mountWidget } from "./fake_model.js";

const f64 = (values) => new DataView(new Float64Array(values).buffer);

const STATE = {
  title: "Facets in ROC space",
  x_label: "FPR",
  y_label: "TPR",
  x_log: false,
  x_domain: [0, 1],
  y_domain: [0, 1],
  width: 420,
  height: 360,
  message: "",
  // a line of 2 vertices, 3 points, one bar pair
  _series: [
    { kind: "line", offset: 0, count: 2 },
    { kind: "points", offset: 2, count: 3, label: "d" },
    { kind: "bars", offset: 5, count: 1, end: 0.5 },
  ],
  _xy: f64([0, 0, 1, 1, 0.1, 0.9, 0.2, 0.8, NaN, 0.5, 0.25, 0.4]),
  _texts: [{ x: 0.5, y: 0.5, text: "here" }],
  _root_class: "confusionlab-bias-plot",
};

/** A 2-D context that records the calls that draw marks. */
function recordingContext() {
  const calls = { arc: 0, fillRect: 0, lineTo: 0, moveTo: 0, fillText: [] };
  return new Proxy(calls, {
    get(target, key) {
      if (key in target && key !== "fillText") return (...args) => (target[key] += 1);
      if (key === "fillText") return (text) => target.fillText.push(String(text));
      if (key === "measureText") return (text) => ({ width: String(text).length * 6 });
      if (key === "calls") return target;
      return () => {};
    },
    set() {
      return true;
    },
  });
}

describe("readChart", () => {
  it("splits the pairs per series and refuses inconsistent buffers", () => {
    const model = { get: (k) => STATE[k] };
    const chart = readChart(model);
    expect(chart.consistent).toBe(true);
    expect(Array.from(chart.series[1].xy)).toEqual([0.1, 0.9, 0.2, 0.8, NaN, 0.5]);
    const broken = { get: (k) => (k === "_xy" ? f64([0, 0]) : STATE[k]) };
    expect(readChart(broken).series).toEqual([]);
    expect(readChart(broken).consistent).toBe(false);
  });
});

describe("scales and ticks", () => {
  it("maps the domain corners onto the plot's corners", () => {
    const chart = readChart({ get: (k) => STATE[k] });
    const { x, y, plotW, plotH } = chartScales(chart);
    expect(x(0)).toBe(MARGINS.left);
    expect(x(1)).toBe(MARGINS.left + plotW);
    expect(y(0)).toBe(MARGINS.top + plotH);
    expect(y(1)).toBe(MARGINS.top);
  });
  it("puts 1-2-5 ticks on a log axis and decades at equal distances", () => {
    const chart = { ...readChart({ get: (k) => STATE[k] }), xLog: true, xDomain: [7, 1200] };
    expect(xTicks(chart)).toEqual([10, 20, 50, 100, 200, 500, 1000]);
    const { x } = chartScales(chart);
    expect(x(100) - x(10)).toBeCloseTo(x(1000) - x(100), 9);
    expect(Number.isNaN(x(0))).toBe(true);
  });
});

describe("drawChart", () => {
  it("draws every finite mark and skips NaN points", () => {
    const ctx = recordingContext();
    const chart = readChart({ get: (k) => STATE[k] });
    const theme = { accent: "#1976d2", foreground: "#212121", muted: "#616161", font: "sans-serif" };
    const marks = drawChart(ctx, chart, theme);
    expect(marks).toBe(2 + 2 + 1); // 2 line vertices, 2 finite points, 1 bar
    expect(ctx.calls.arc).toBe(2);
    expect(ctx.calls.fillText).toContain("here");
    expect(ctx.calls.fillText).toContain("FPR");
  });
});

describe("render", () => {
  it("mirrors what it drew in data attributes and says when it cannot draw", () => {
    const { root, model } = mountWidget(render, STATE, ".confusionlab-bias-plot");
    expect(root.querySelector(".cl-title").textContent).toBe("Facets in ROC space");
    expect(root.dataset.series).toBe("3");
    expect(root.querySelector(".cl-legend").textContent).toContain("d");
    // jsdom has no 2-D canvas: the chart says so in the page instead of an empty canvas.
    expect(root.dataset.error).toMatch(/cannot be drawn/);
    expect(root.querySelector(".cl-message").textContent).toMatch(/cannot be drawn/);
    model.set("title", "new");
    return Promise.resolve().then(() => expect(root.querySelector(".cl-title").textContent).toBe("new"));
  });

  it("carries the root class its model names: one bundle serves BiasView's and StabilityView's charts", () => {
    const stability = mountWidget(render, { ...STATE, _root_class: "confusionlab-stability-plot" }, ".confusionlab-chart");
    expect([...stability.root.classList]).toEqual(["confusionlab-chart", "confusionlab-stability-plot"]);
    const unnamed = mountWidget(render, { ...STATE, _root_class: undefined }, ".confusionlab-chart");
    expect(unnamed.root.classList.contains("confusionlab-plot")).toBe(true);
  });
});

describe("applyLayout (static export)", () => {
  it("copies the Layout model's sizes and the box classes onto the element", () => {
    const models = { L1: { state: { width: "404px", flex: "0 0 auto", height: null } } };
    const el = document.createElement("div");
    applyLayout(models, { layout: "IPY_MODEL_L1", _dom_classes: ["confusionlab-bias-view"] }, el);
    expect(el.style.width).toBe("404px");
    expect(el.style.flex).toBe("0 0 auto");
    expect(el.classList.contains("confusionlab-bias-view")).toBe(true);
  });
});
