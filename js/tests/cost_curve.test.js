// CostCurveView: the readout, the hull lines spread, the pure drawing with a recording context,
// and render with a fake model (the slider moves the cursor locally: the static export has no
// kernel). The numbers are arbitrary: the browser never computes a cost.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { layout, scales } from "../decision_curve/geometry.js";
import { HULL_DRAWN, Y_DOMAIN, consistent, drawCostCurve, drawnHull, readState, readoutText, render } from "../cost_curve/widget.js";
import { FakeModel, mountWidget } from "./fake_model.js";

const f64 = (values) => new DataView(new Float64Array(values).buffer);
const i32 = (values) => new DataView(new Int32Array(values).buffer);
const THEME = { accent: "#1976d2", muted: "#616161", foreground: "#212121", font: "sans-serif" };

/** Three probability costs; the hull (0, 0), (0.2, 0.8), (1, 1). */
function costState(extra = {}) {
  return {
    confidence: 0.95,
    probability_cost: 0.5,
    width: 500,
    generation: 1,
    _pc: f64([0, 0.5, 1]),
    _cost: f64([0, 0.2, 0]),
    _lower: f64([0, 0.1, 0]),
    _upper: f64([0, 0.3, 0]),
    _hull_fpr: f64([0, 0.2, 1]),
    _hull_tpr: f64([0, 0.8, 1]),
    _best: i32([0, 1, 2]),
    _summary: { confidence: 0.95, title: "Cost curve", text: "Area 0.1", note: "Shaded: the 95% band" },
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
  ctx.fill = () => ctx.fills.push(ctx.fillStyle);
  vi.spyOn(HTMLCanvasElement.prototype, "getContext").mockImplementation(() => ctx);
});
afterEach(() => {
  vi.restoreAllMocks();
  document.body.innerHTML = "";
});

describe("state", () => {
  it("reads out the cost, its band and the best operating point", () => {
    const state = readState(new FakeModel(costState()));
    expect(readoutText(state, 1)).toBe(
      "At PC(+) = 0.5: normalised expected cost 0.2 (95% band 0.1 to 0.3), at the operating point FPR 0.2, TPR 0.8; " +
        "the trivial classifiers cost 0.5.",
    );
    expect(readoutText(state, -1)).toBe("");
  });

  it("refuses inconsistent buffers and a best point outside the hull", () => {
    expect(consistent(readState(new FakeModel(costState())))).toBe(true);
    expect(consistent(readState(new FakeModel(costState({ _lower: f64([0]) }))))).toBe(false);
    expect(consistent(readState(new FakeModel(costState({ _best: i32([0, 3, 2]) }))))).toBe(false);
  });

  it("draws every hull line, or HULL_DRAWN spread from the first to the last", () => {
    expect(drawnHull(3)).toEqual([0, 1, 2]);
    const many = drawnHull(10_000);
    expect(many.length).toBe(HULL_DRAWN);
    expect([many[0], many[many.length - 1]]).toEqual([0, 9999]);
  });
});

describe("drawing", () => {
  it("draws each hull point's line from FPR at 0 to 1 − TPR at 1, the band and the cursor", () => {
    const state = readState(new FakeModel(costState()));
    expect(drawCostCurve(ctx, state, THEME, layout(500), 1)).toEqual({ hull: 3, shaded: 1 });
    const { box } = layout(500);
    const { x, y } = scales(box, [0, 1], Y_DOMAIN);
    const moves = ctx.calls.filter((c) => c[0] === "moveTo" || c[0] === "lineTo");
    expect(moves).toContainEqual(["moveTo", x(0), y(0.2)]);
    expect(moves).toContainEqual(["lineTo", x(1), y(1 - 0.8)]);
    expect(ctx.calls).toContainEqual(["arc", x(0.5), y(0.2), 3.5, 0, 2 * Math.PI]);
    expect(drawCostCurve(ctx, readState(new FakeModel(costState({ _cost: f64([0]) }))), THEME, layout(500), 1)).toEqual({
      hull: 0,
      shaded: 0,
    });
  });
});

describe("render", () => {
  it("mirrors the cursor in data attributes; the slider moves it without a kernel", async () => {
    const { model, root, cleanup } = mountWidget(render, costState(), ".confusionlab-cost-curve");
    const d = root.dataset;
    expect([d.points, d.hull, d.shaded, d.index, d.cost, d.band]).toEqual(["3", "3", "1", "1", "0.2", "0.1;0.3"]);
    const slider = root.querySelector("input.cl-probability-cost");
    slider.value = "2";
    slider.dispatchEvent(new Event("input"));
    expect(model.get("probability_cost")).toBe(1);
    await Promise.resolve();
    expect([d.index, d.probabilityCost, d.cost]).toEqual(["2", "1", "0"]);
    expect(root.querySelector(".cl-readout").textContent).toContain("operating point FPR 1, TPR 1");
    const before = model.listenerCount();
    cleanup();
    expect(model.listenerCount()).toBeLessThan(before);
  });
});
