import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { decodeFloat32 } from "../shared/buffers.js";
import { layoutFor, readState, render } from "../roc_slice/widget.js";
import { FakeModel, f32, i32, sliceState, u32, mountWidget } from "./fake_model.js";

/** A recording stand-in for CanvasRenderingContext2D (jsdom has no canvas). */
function fakeContext() {
  const calls = [];
  const record =
    (name) =>
    (...args) =>
      calls.push([name, ...args]);
  const ctx = { calls, images: [] };
  for (const name of [
    "setTransform",
    "clearRect",
    "strokeRect",
    "fillText",
    "save",
    "restore",
    "translate",
    "rotate",
    "beginPath",
    "rect",
    "clip",
    "moveTo",
    "lineTo",
    "stroke",
    "arc",
    "fill",
  ]) {
    ctx[name] = record(name);
  }
  ctx.createImageData = (w, h) => ({ width: w, height: h, data: new Uint8ClampedArray(4 * w * h) });
  ctx.putImageData = (image) => ctx.images.push(image);
  return ctx;
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

let ctx;
beforeEach(() => {
  ctx = fakeContext();
  vi.spyOn(HTMLCanvasElement.prototype, "getContext").mockImplementation(() => ctx);
});
afterEach(() => {
  vi.restoreAllMocks();
  document.body.innerHTML = "";
});

const mount = (state) => mountWidget(render, state, ".confusionlab-roc-slice");

const painted = (image) => new Uint32Array(image.data.buffer).filter((c) => c !== 0).length;

describe("render", () => {
  it("mirrors the state in data attributes and draws every lattice point", () => {
    const { root } = mount(sliceState(20, 40, { tp: 16, tn: 32, metric: "mcc" }));
    expect(root).not.toBeNull();
    expect(root.dataset.p).toBe("20");
    expect(root.dataset.n).toBe("40");
    expect(root.dataset.tp).toBe("16");
    expect(root.dataset.tn).toBe("32");
    expect(root.dataset.metric).toBe("mcc");
    expect(root.dataset.points).toBe("861");
    expect(root.dataset.contours).toBe("1");
    expect(ctx.images).toHaveLength(1);
    expect(painted(ctx.images[0])).toBeGreaterThan(861);
  });

  it("strokes each contour polyline through its vertices", () => {
    mount(sliceState(4, 4));
    const lineTos = ctx.calls.filter(([name]) => name === "lineTo");
    expect(lineTos).toHaveLength(2);
  });

  it("writes labels as text, never as HTML", () => {
    const { root } = mount(sliceState(4, 4, { _metric_label: "<b>evil</b>" }));
    expect(root.querySelector("b")).toBeNull();
    expect(root.querySelector(".cl-title").textContent).toContain("<b>evil</b>");
  });

  it("redraws once after several changes arrive together", async () => {
    const { model, root } = mount(sliceState(20, 40));
    const next = sliceState(20, 41);
    for (const key of ["n", "_slice", "_tp_axis", "_tn_axis", "_values"]) model.set(key, next[key]);
    expect(root.dataset.n).toBe("40");
    await flush();
    expect(root.dataset.n).toBe("41");
    expect(root.dataset.points).toBe("882");
    expect(ctx.images).toHaveLength(2);
  });

  it("draws no lattice while the buffers disagree", async () => {
    const { model, root } = mount(sliceState(3, 3));
    model.set("_tn_axis", i32([0, 1]));
    await flush();
    expect(root.dataset.points).toBe("0");
  });

  it("reports thinning when the lattice is strided", () => {
    const { root } = mount(
      sliceState(4, 4, {
        _slice: [4, 4, 2],
        _tp_axis: i32([0, 2, 4]),
        _tn_axis: i32([0, 2, 4]),
        _values: f32(new Array(9).fill(0.5)),
      }),
    );
    expect(root.dataset.points).toBe("9");
    expect(root.dataset.latticePoints).toBe("25");
    expect(root.querySelector(".cl-status").textContent).toContain("every 2th");
  });

  it("moves the observed point with the arrow keys and saves", () => {
    const { model, root } = mount(sliceState(20, 40, { tp: 16, tn: 32 }));
    root.dispatchEvent(new KeyboardEvent("keydown", { key: "ArrowUp" }));
    root.dispatchEvent(new KeyboardEvent("keydown", { key: "ArrowRight" }));
    expect(model.get("tp")).toBe(17);
    expect(model.get("tn")).toBe(31);
    expect(model.saved).toBe(2);
    model.set("tp", 20);
    model.set("tn", 32);
    root.dispatchEvent(new KeyboardEvent("keydown", { key: "ArrowUp" }));
    expect(model.get("tp")).toBe(20);
  });

  it("removes its listeners on cleanup", () => {
    const { model, cleanup } = mount(sliceState(4, 4));
    expect(model.listenerCount()).toBeGreaterThan(0);
    cleanup();
    expect(model.listenerCount()).toBe(0);
  });

  it("reads the contour buffers as sent", () => {
    const state = readState(
      new FakeModel(
        sliceState(4, 4, {
          _contour_xy: f32([0, 0, 1, 1, 0, 1, 1, 0]),
          _contour_offsets: u32([0, 2, 4]),
          _contour_levels: f32([0.1, 0.2]),
        }),
      ),
    );
    expect(Array.from(state.contourOffsets)).toEqual([0, 2, 4]);
    expect(Array.from(state.contourLevels)).toEqual(Array.from(decodeFloat32(f32([0.1, 0.2]))));
  });
});

describe("layout", () => {
  it("is square in ROC coordinates", () => {
    const { width, height } = layoutFor(readState(new FakeModel(sliceState(20, 40))));
    expect([width, height]).toEqual([300, 300]);
  });

  it("shrinks the canvas to a wide lattice in counts coordinates", () => {
    const state = readState(new FakeModel(sliceState(20, 40, { coordinates: "counts" })));
    const { view, width, height } = layoutFor(state);
    expect(width).toBeLessThanOrEqual(300);
    expect(height).toBeLessThan(width);
    // equal data units on both axes: one FP step is as long as one TP step
    expect(view.width / (view.x1 - view.x0)).toBeCloseTo(view.height / (view.y1 - view.y0), 9);
  });

  it("sizes the drawn canvas from the layout", () => {
    const { host } = mount(sliceState(20, 40, { coordinates: "counts" }));
    const canvas = host.querySelector("canvas");
    expect(canvas.height).toBeLessThan(canvas.width);
    expect(ctx.images.at(-1).height).toBe(canvas.height);
  });
});
