// The canvas module every view shares: HiDPI sizing, frames, listeners, segments, axes;
// and the small shared helpers next to it (parts, linearScale, setCommonData).
import { describe, expect, it } from "vitest";
import { beginFrame, canvas2d, drawAxes, listen, segment, sizeCanvas } from "../shared/canvas.js";
import { parts } from "../shared/dom.js";
import { linearScale } from "../shared/scale.js";
import { setCommonData } from "../shared/state.js";

/** A context that records every call, and the properties set before each. */
function recorder() {
  const calls = [];
  const state = {};
  const ctx = new Proxy(state, {
    get: (target, name) => (name in target ? target[name] : (...args) => calls.push([name, ...args])),
    set: (target, name, value) => {
      target[name] = value;
      calls.push([`=${String(name)}`, value]);
      return true;
    },
  });
  return { ctx, calls, named: (name) => calls.filter((c) => c[0] === name).map((c) => c.slice(1)) };
}

const THEME = { muted: "#616161", foreground: "#212121", font: "sans-serif" };

describe("sizeCanvas and canvas2d", () => {
  it("backs each CSS pixel with dpr × dpr device pixels", () => {
    const canvas = document.createElement("canvas");
    sizeCanvas(canvas, 300, 150.5, 2);
    expect([canvas.width, canvas.height]).toEqual([600, 301]);
    expect([canvas.style.width, canvas.style.height]).toEqual(["300px", "150.5px"]);
  });

  it("returns the 2-D context, or null where the browser gives none", () => {
    const ctx = {};
    const canvas = { style: {}, getContext: (kind) => (kind === "2d" ? ctx : null) };
    expect(canvas2d(canvas, 10, 20, 1.5)).toBe(ctx);
    expect([canvas.width, canvas.height]).toEqual([15, 30]);
    expect(canvas2d({ style: {} }, 10, 10, 1)).toBeNull();
  });

  it("starts a frame in CSS pixels and clears it", () => {
    const { ctx, named } = recorder();
    beginFrame(ctx, 40, 30, 2);
    expect(named("setTransform")).toEqual([[2, 0, 0, 2, 0, 0]]);
    expect(named("clearRect")).toEqual([[0, 0, 40, 30]]);
  });
});

describe("listen", () => {
  it("adds every listener and removes exactly those", () => {
    const a = document.createElement("div");
    const b = document.createElement("div");
    const seen = [];
    const stop = listen([
      [a, "click", () => seen.push("a click")],
      [a, "keydown", () => seen.push("a key")],
      [b, "wheel", () => seen.push("b wheel"), { passive: false }],
    ]);
    a.dispatchEvent(new Event("click"));
    a.dispatchEvent(new Event("keydown"));
    b.dispatchEvent(new Event("wheel"));
    expect(seen).toEqual(["a click", "a key", "b wheel"]);
    stop();
    a.dispatchEvent(new Event("click"));
    b.dispatchEvent(new Event("wheel"));
    expect(seen).toHaveLength(3);
  });
});

describe("segment", () => {
  it("strokes one line, dashed only when asked and reset afterwards", () => {
    const { ctx, calls } = recorder();
    segment(ctx, 1, 2, 3, 4, { colour: "red", width: 2, dash: [5, 4] });
    expect(calls).toEqual([
      ["=strokeStyle", "red"],
      ["=lineWidth", 2],
      ["setLineDash", [5, 4]],
      ["beginPath"],
      ["moveTo", 1, 2],
      ["lineTo", 3, 4],
      ["stroke"],
      ["setLineDash", []],
    ]);
    const plain = recorder();
    segment(plain.ctx, 0, 0, 1, 1);
    expect(plain.named("setLineDash")).toEqual([]);
    expect(plain.named("=strokeStyle")).toEqual([]); // keeps the caller's colour
  });
});

describe("drawAxes", () => {
  const box = { left: 50, top: 10, width: 200, height: 100 };
  const x = linearScale(0, 1, 50, 250);
  const y = linearScale(0, 1, 110, 10);

  it("frames the box, labels the ticks below and left, and titles both axes", () => {
    const { ctx, named } = recorder();
    drawAxes(ctx, THEME, { box, x, y, xTicks: [0, 0.5, 1], yTicks: [0, 1], xTitle: "FPR", yTitle: "TPR" });
    expect(named("strokeRect")).toEqual([[50, 10, 200, 100]]);
    expect(named("fillText")).toEqual([
      ["0", 50, 114],
      ["0.5", 150, 114],
      ["1", 250, 114],
      ["0", 46, 110],
      ["1", 46, 10],
      ["FPR", 150, 128],
      ["TPR", 0, 0],
    ]);
    expect(named("translate")).toEqual([[12, 60]]);
    expect(named("rotate")).toEqual([[-Math.PI / 2]]);
    expect(named("=font")).toEqual([["10px sans-serif"], ["10px sans-serif"]]);
  });

  it("draws only the base line, another rectangle, or no frame", () => {
    const base = recorder();
    drawAxes(base.ctx, THEME, { box, frame: "base" });
    expect(base.named("strokeRect")).toEqual([]);
    expect(base.named("moveTo")).toEqual([[50, 110.5]]);
    expect(base.named("lineTo")).toEqual([[250, 110.5]]);
    const other = recorder();
    drawAxes(other.ctx, THEME, { box, frame: { left: 60, top: 20, width: 10, height: 5 } });
    expect(other.named("strokeRect")).toEqual([[60, 20, 10, 5]]);
    const none = recorder();
    drawAxes(none.ctx, THEME, { box, frame: "none", xTitle: "", yTitle: "" });
    expect(none.calls.filter((c) => !c[0].startsWith("="))).toEqual([]);
  });

  it("places labels where asked, formatted and in their own sizes", () => {
    const { ctx, named } = recorder();
    drawAxes(ctx, THEME, {
      box,
      x,
      y,
      xTicks: [0.25],
      yTicks: [0.5],
      format: (v) => `${100 * v}%`,
      fontSize: 11,
      titleSize: 12,
      xTickY: 130,
      yTickX: 40,
      xTitle: "N",
      xTitleY: 150,
      xTitleBaseline: "bottom",
      yTitle: "h",
      yTitleX: 3,
      yTitleBaseline: "top",
    });
    expect(named("fillText")).toEqual([
      ["25%", 100, 130],
      ["50%", 40, 60],
      ["N", 150, 150],
      ["h", 0, 0],
    ]);
    expect(named("=font")).toEqual([["11px sans-serif"], ["12px sans-serif"]]);
    expect(named("=textBaseline").slice(-2)).toEqual([["bottom"], ["top"]]);
    expect(named("translate")).toEqual([[3, 60]]);
  });
});

describe("parts", () => {
  it("creates named children in order: divs by class, other tags by [tag, class]", () => {
    const root = document.createElement("div");
    const { title, canvas, note } = parts(root, { title: "cl-title", canvas: ["canvas", "cl-canvas"], note: "cl-note" });
    expect([...root.children]).toEqual([title, canvas, note]);
    expect(canvas.tagName).toBe("CANVAS");
    expect(note.className).toBe("cl-note");
  });
});

describe("linearScale", () => {
  it("maps either way round, and an empty domain to its start", () => {
    expect(linearScale(0, 10, 0, 100)(2.5)).toBe(25);
    expect(linearScale(110, 10, 0, 1)(60)).toBe(0.5); // a y axis read back from pixels
    expect(linearScale(3, 3, 7, 9)(100)).toBe(7);
    expect(linearScale(NaN, 1, 7, 9)(0)).toBe(7);
  });
});

describe("setCommonData", () => {
  it("mirrors the slice, the metric and the generation", () => {
    const root = document.createElement("div");
    setCommonData(root, { p: 20, n: 40, tp: 16, tn: 32, metric: "mcc", generation: 3, other: 1 });
    expect({ ...root.dataset }).toEqual({ p: "20", n: "40", tp: "16", tn: "32", metric: "mcc", generation: "3" });
  });
});
