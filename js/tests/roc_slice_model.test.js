// RocSlice extensions: model bubbles, marginal PMFs, several contour metrics, dragging.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  bubbleGeometry,
  bubbleRadii,
  dragTarget,
  fitView,
  groupMarginal,
  hitTestClamped,
  marginalBars,
  marginsFor,
  MARGINS,
  project,
  latticeToData,
  STRIP,
  STRIP_GAP,
} from "../roc_slice/geometry.js";
import { contourColour, layoutFor, readState, render, statusDetails, statusText } from "../roc_slice/widget.js";
import { FakeModel, f32, sliceState, u32, mountWidget } from "./fake_model.js";

const view = fitView({ x0: 0, x1: 1, y0: 0, y1: 1 }, 300, 300, false, { left: 0, right: 0, top: 0, bottom: 0 });

/** State with model marginals: TP = 2 + i has mass tp[i], TN = 1 + j has mass tn[j]. */
function modelState(p, n, tp, tn, extra = {}) {
  return sliceState(p, n, { model: "binomial", _pmf_lo: [2, 1], _pmf_tp: f32(tp), _pmf_tn: f32(tn), ...extra });
}

describe("bubbles", () => {
  it("gives areas proportional to the masses", () => {
    const r = bubbleRadii([0.4, 0.1, 0.025, 0], 0.4, 10);
    expect(r[0]).toBeCloseTo(10, 5);
    expect((r[1] / r[0]) ** 2).toBeCloseTo(0.25, 5);
    expect((r[2] / r[0]) ** 2).toBeCloseTo(0.0625, 5);
    expect(r[3]).toBe(0);
  });

  it("drops bubbles below the smallest radius", () => {
    expect(Array.from(bubbleRadii([1, 1e-6], 1, 10, 0.5))).toEqual([10, 0]);
    expect(Array.from(bubbleRadii([1, 2], 0, 10))).toEqual([0, 0]);
  });

  it("places one bubble per lattice point of the outer product, area ∝ joint mass", () => {
    const state = readState(new FakeModel(modelState(4, 4, [0.5, 0.25], [0.2, 0.6, 0.2])));
    expect(state.withModel).toBe(true);
    const { xs, ys, rs, count } = bubbleGeometry(view, state, 12, 0);
    expect(count).toBe(6);
    // First bubble: TP = 2, TN = 1 → (FPR, TPR) = (3/4, 2/4).
    const [x, y] = project(view, ...latticeToData("roc", 4, 4, 2, 1));
    expect(xs[0]).toBeCloseTo(x, 4);
    expect(ys[0]).toBeCloseTo(y, 4);
    // The heaviest (0.5 · 0.6) has the largest radius; areas follow the joint masses.
    const heaviest = 1;
    expect(rs[heaviest]).toBeCloseTo(12, 4);
    const joint = [0.5 * 0.2, 0.5 * 0.6, 0.5 * 0.2, 0.25 * 0.2, 0.25 * 0.6, 0.25 * 0.2];
    for (let k = 0; k < 6; k++) expect((rs[k] / rs[heaviest]) ** 2).toBeCloseTo(joint[k] / 0.3, 4);
  });

  it("groups lattice points closer than the smallest cell into blocks, keeping area ∝ mass", () => {
    // 200 × 200 lattice in a 300 px view: spacing 1.5 px → blocks of 3 × 3 points.
    const tp = Array.from({ length: 9 }, (_, i) => (i + 1) / 45);
    const tn = Array.from({ length: 6 }, (_, j) => (j + 1) / 21);
    const state = readState(new FakeModel(modelState(200, 200, tp, tn)));
    const { rs, count, group } = bubbleGeometry(view, state, 10, 0, 4);
    expect(group).toBe(3);
    expect(count).toBe(3 * 2);
    const block = (m, g) => Array.from({ length: m.length / g }, (_, b) => m.slice(b * g, b * g + g).reduce((a, c) => a + c, 0));
    const A = block(tp, 3);
    const B = block(tn, 3);
    const joint = A.flatMap((a) => B.map((b) => a * b));
    const top = Math.max(...joint);
    joint.forEach((m, k) => expect((rs[k] / 10) ** 2).toBeCloseTo(m / top, 5));
    expect(joint.reduce((a, c) => a + c, 0)).toBeCloseTo(1, 9);
  });

  it("centres a block's bubble on its centre of mass", () => {
    const g = groupMarginal([0, 1, 3, 0, 0, 2], 3);
    expect(Array.from(g.mass)).toEqual([4, 2]);
    expect(g.centre[0]).toBeCloseTo((1 * 1 + 2 * 3) / 4, 9);
    expect(g.centre[1]).toBeCloseTo(5, 9);
  });

  it("draws no bubbles without a model or with inconsistent buffers", () => {
    const none = readState(new FakeModel(sliceState(4, 4)));
    expect(none.withModel).toBe(false);
    expect(bubbleGeometry(view, none, 10).count).toBe(0);
    const broken = readState(new FakeModel(modelState(4, 4, [1], [1], { _pmf_lo: [] })));
    expect(broken.withModel).toBe(false);
  });
});

describe("marginal bars", () => {
  const state = readState(new FakeModel(modelState(4, 4, [0.5, 0.25], [0.2, 0.6, 0.2])));

  it("puts the FPR marginal above the plot, the heaviest bar filling the strip", () => {
    const bars = marginalBars(view, state, "fpr");
    expect(bars).toHaveLength(3);
    const tallest = bars[1];
    expect(tallest.h).toBeCloseTo(STRIP, 5);
    expect(tallest.y + tallest.h).toBeCloseTo(view.top - STRIP_GAP, 5);
    expect(bars[0].h / tallest.h).toBeCloseTo(0.2 / 0.6, 5);
    // centred on the x of TN = 1 + j
    const [x] = project(view, ...latticeToData("roc", 4, 4, 0, 2));
    expect(tallest.x + tallest.w / 2).toBeCloseTo(x, 5);
  });

  it("puts the TPR marginal right of the plot, lengths ∝ mass", () => {
    const bars = marginalBars(view, state, "tpr");
    expect(bars).toHaveLength(2);
    expect(bars[0].x).toBeCloseTo(view.left + view.width + STRIP_GAP, 5);
    expect(bars[0].w).toBeCloseTo(STRIP, 5);
    expect(bars[1].w).toBeCloseTo(STRIP / 2, 5);
    const [, y] = project(view, ...latticeToData("roc", 4, 4, 3, 0));
    expect(bars[1].y + bars[1].h / 2).toBeCloseTo(y, 5);
  });

  it("makes room for the strips in the layout", () => {
    expect(marginsFor(false)).toBe(MARGINS);
    const m = marginsFor(true);
    expect(m.top - MARGINS.top).toBe(STRIP + STRIP_GAP);
    const { view: v, width, height } = layoutFor(state);
    expect(v.top).toBeGreaterThanOrEqual(STRIP + STRIP_GAP);
    expect(width).toBe(300 + STRIP + STRIP_GAP);
    expect(height).toBe(300 + STRIP + STRIP_GAP);
    expect(v.width).toBeCloseTo(layoutFor(readState(new FakeModel(sliceState(4, 4)))).view.width, 5);
  });
});

describe("drag hit-testing", () => {
  it("moves to the nearest lattice point and clamps outside the plot", () => {
    const [x, y] = project(view, ...latticeToData("roc", 20, 40, 10, 30));
    expect(dragTarget(view, "roc", 20, 40, { tp: 16, tn: 32 }, x + 1, y - 1)).toEqual({ tp: 10, tn: 30 });
    expect(dragTarget(view, "roc", 20, 40, { tp: 10, tn: 30 }, x + 1, y - 1)).toBeNull();
    expect(hitTestClamped(view, "roc", 20, 40, -50, -50)).toEqual({ tp: 20, tn: 40 });
    expect(hitTestClamped(view, "roc", 20, 40, 1e4, 1e4)).toEqual({ tp: 0, tn: 0 });
  });
});

// ---------------------------------------------------------------------------- render
function fakeContext() {
  const calls = [];
  const ctx = { calls, images: [] };
  for (const name of [
    "setTransform", "clearRect", "strokeRect", "fillText", "save", "restore", "translate", "rotate",
    "beginPath", "rect", "clip", "moveTo", "lineTo", "stroke", "arc", "fill", "fillRect", "setLineDash",
  ]) {
    ctx[name] = (...args) => calls.push([name, ...args]);
  }
  ctx.createImageData = (w, h) => ({ width: w, height: h, data: new Uint8ClampedArray(4 * w * h) });
  ctx.putImageData = (image) => ctx.images.push(image);
  return ctx;
}

let ctx;
beforeEach(() => {
  ctx = fakeContext();
  vi.spyOn(HTMLCanvasElement.prototype, "getContext").mockImplementation(() => ctx);
  HTMLCanvasElement.prototype.getBoundingClientRect = () => ({ left: 0, top: 0, width: 300, height: 300 });
});
afterEach(() => {
  vi.restoreAllMocks();
  document.body.innerHTML = "";
});

const mount = (state) => mountWidget(render, state, ".confusionlab-roc-slice");

function pointer(type, x, y) {
  const event = new MouseEvent(type, { clientX: x, clientY: y, bubbles: true, button: 0 });
  Object.defineProperty(event, "pointerId", { value: 1 });
  return event;
}

describe("render with a model and contour metrics", () => {
  it("draws bubbles and marginal bars and reports them", () => {
    const { root } = mount(modelState(20, 40, [0.5, 0.25], [0.2, 0.6, 0.2], { generation: 7 }));
    expect(root.dataset.model).toBe("binomial");
    expect(root.dataset.bubbles).toBe("6");
    expect(root.dataset.marginalBars).toBe("5");
    expect(root.dataset.generation).toBe("7");
    expect(ctx.calls.filter(([n]) => n === "arc").length).toBeGreaterThanOrEqual(6);
    expect(root.querySelector(".cl-status").textContent).toContain("binomial PMF");
  });

  it("names the pruned tail mass in the status line's tooltip, not its text (issue 38)", () => {
    const state = readState(new FakeModel(modelState(20, 40, [0.5, 0.25], [0.2, 0.6, 0.2], { _pmf_pruned: 3e-6 })));
    expect(statusText(state, 10)).toContain("bubbles: binomial PMF of a new test set (area ∝ probability)");
    expect(statusText(state, 10)).not.toMatch(/tail mass|pruned|not drawn/);
    expect(statusDetails(state)).toBe("bubbles leave out a tail mass of 3.00e-6 (pruned)");
    expect(statusDetails({ ...state, pmfPruned: 1e-12 })).toBe(""); // the default tolerance's: no digit shows it
    const { root } = mount(modelState(20, 40, [0.5, 0.25], [0.2, 0.6, 0.2], { _pmf_pruned: 3e-6 }));
    const status = root.querySelector(".cl-status");
    expect(status.textContent).not.toContain("tail mass");
    expect(status.title).toBe("bubbles leave out a tail mass of 3.00e-6 (pruned)");
  });

  it("colours each contour metric and lists them as text", () => {
    const { root } = mount(
      sliceState(4, 4, {
        _contour_xy: f32([0, 0, 1, 1, 0, 1, 1, 0]),
        _contour_offsets: u32([0, 2, 4]),
        _contour_levels: f32([0.1, 0.2]),
        _contour_metric: u32([0, 1]),
        _contour_labels: ["MCC", "<img src=x onerror=alert(1)>"],
      }),
    );
    expect(root.dataset.contourMetrics).toBe("1");
    const items = root.querySelectorAll(".cl-contour-item");
    expect(items).toHaveLength(2);
    expect(root.querySelector("img")).toBeNull();
    expect(items[1].textContent).toContain("<img");
    expect(contourColour(0, { foreground: "#111" })).toBe("#111");
    expect(contourColour(1, { foreground: "#111" })).not.toBe("#111");
  });

  it("drags the observed point, saving once per lattice point crossed", () => {
    const { model, root } = mount(sliceState(20, 40, { tp: 16, tn: 32, size: 300 }));
    const state = readState(model);
    const { view: v } = layoutFor(state);
    const canvas = root.querySelector("canvas");
    const at = (tp, tn) => project(v, ...latticeToData("roc", 20, 40, tp, tn));
    canvas.dispatchEvent(pointer("pointerdown", ...at(16, 32)));
    expect(root.classList.contains("cl-dragging")).toBe(true);
    expect(model.saved).toBe(0); // pressed on the point itself: nothing moved
    canvas.dispatchEvent(pointer("pointermove", ...at(12, 30)));
    canvas.dispatchEvent(pointer("pointermove", ...at(12, 30)));
    expect([model.get("tp"), model.get("tn")]).toEqual([12, 30]);
    expect(model.saved).toBe(1);
    canvas.dispatchEvent(pointer("pointermove", -100, -100)); // outside: clamped to the corner
    expect([model.get("tp"), model.get("tn")]).toEqual([20, 40]);
    canvas.dispatchEvent(pointer("pointerup", 0, 0));
    expect(root.classList.contains("cl-dragging")).toBe(false);
    canvas.dispatchEvent(pointer("pointermove", ...at(5, 5)));
    expect(model.get("tp")).toBe(20); // no longer dragging
  });

  it("keeps keyboard nudging alongside dragging", () => {
    const { model, root } = mount(sliceState(20, 40, { tp: 16, tn: 32 }));
    root.dispatchEvent(new KeyboardEvent("keydown", { key: "ArrowLeft" }));
    expect(model.get("tn")).toBe(33);
  });
});
