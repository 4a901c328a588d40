// render() with a recording stand-in for the WebGL renderer: what is uploaded when.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { FakeModel, f32 } from "./fake_model.js";
import { codesState, simplexState } from "./simplex_fixtures.js";
import { DEFAULT_CAMERA, clipMatrix, latticePointSize, projectPoint } from "../confusion_simplex/camera.js";
import { cachedLattice } from "../confusion_simplex/lattice.js";

const calls = [];
vi.mock("../confusion_simplex/gl.js", () => ({
  webglContext: () => ({}),
  createRenderer: () => {
    const record =
      (name) =>
      (...args) =>
        calls.push([name, ...args]);
    let count = 0;
    return {
      maxPointSize: 64,
      setPositions: (positions) => {
        count = positions.length / 3;
        calls.push(["setPositions", positions]);
      },
      setColours: record("setColours"),
      setEmphasis: record("setEmphasis"),
      setCloud: record("setCloud"),
      setEdges: record("setEdges"),
      setMarker: record("setMarker"),
      prepare: (args) => {
        calls.push(["prepare", args]);
        return true;
      },
      draw: (args) => {
        calls.push(["draw", args]);
        return args.ready ? Math.min(count, args.limit ?? count) : 0;
      },
      destroy: record("destroy"),
    };
  },
}));

const { CONTEXT_LOST, render } = await import("../confusion_simplex/widget.js");
const flush = () => new Promise((resolve) => setTimeout(resolve, 30));
const names = () => calls.map(([name]) => name);

beforeEach(() => {
  calls.length = 0;
});
afterEach(() => {
  document.body.innerHTML = "";
});

function mount(state) {
  const model = new FakeModel(state);
  const host = document.createElement("div");
  document.body.appendChild(host);
  const cleanup = render({ model, el: host });
  return { model, cleanup, root: host.querySelector(".confusionlab-simplex") };
}

describe("render with a renderer", () => {
  it("uploads everything once and counts the points drawn and the frames", async () => {
    const { root } = mount(simplexState(6));
    await flush();
    expect(names().filter((n) => n === "setPositions")).toHaveLength(1);
    expect(names().filter((n) => n === "setColours")).toHaveLength(1);
    expect(root.dataset.renderer).toBe("webgl");
    expect(root.dataset.error).toBeUndefined();
    expect(root.dataset.points).toBe("84");
    expect(Number(root.dataset.frames)).toBeGreaterThanOrEqual(1);
  });

  it("a new metric re-uploads colours, not positions", async () => {
    const { model, root } = mount(simplexState(6));
    await flush();
    calls.length = 0;
    model.set("metric", "f1");
    for (const [k, v] of Object.entries(codesState(new Array(84).fill(0.25), 6, "f1"))) model.set(k, v);
    model.set("_colour_domain", [0, 0.5, 1]);
    await flush();
    expect(names()).toContain("setColours");
    expect(names()).not.toContain("setPositions");
    expect(root.dataset.metric).toBe("f1");
  });

  it("a new slice re-uploads emphasis only, and the frame counter grows per frame", async () => {
    const { model, root } = mount(simplexState(6));
    await flush();
    const frames = Number(root.dataset.frames);
    calls.length = 0;
    model.set("slices", [3]);
    await flush();
    expect(names()).toContain("setEmphasis");
    expect(names()).not.toContain("setPositions");
    expect(names()).not.toContain("setColours");
    const [, codes, hasDim] = calls.find(([n]) => n === "setEmphasis");
    expect(codes.filter((c) => c === 2).length).toBe(4 * 4);
    expect(hasDim).toBe(true);
    expect(Number(root.dataset.frames)).toBe(frames + 1);
  });

  it("splats an announced lattice ahead and draws its state with the same emphasis (issue 24)", async () => {
    const { model, root } = mount(simplexState(4));
    await flush();
    calls.length = 0;
    const announce = (content) => {
      for (const cb of model.listeners.get("msg:custom") ?? []) cb(content, []);
    };
    announce({ prepare_lattice: [5, 1] });
    const prepares = calls.filter(([n]) => n === "prepare");
    expect(prepares).toHaveLength(1);
    const [, ahead] = prepares[0];
    const lattice = cachedLattice(5, 1);
    expect(ahead.positions).toBe(lattice.positions);
    expect(ahead.codes.length).toBe(56);
    expect(ahead.clip).toEqual(clipMatrix(DEFAULT_CAMERA, 5, 400, 400));
    expect(ahead.pointSize).toBe(latticePointSize(5, 400, 400, DEFAULT_CAMERA.zoom, 1));
    const next = simplexState(5);
    for (const key of ["N", "_lattice", "_codes", "_value_table", "_values_info", "_vertices"]) model.set(key, next[key]);
    await flush();
    expect(root.dataset.n).toBe("5");
    // The frame's inputs are the prepared ones: the same positions and emphasis objects.
    const emphasisSet = calls.filter(([n]) => n === "setEmphasis").at(-1);
    expect(emphasisSet[1]).toBe(ahead.codes);
    expect(calls.filter(([n]) => n === "setPositions").at(-1)[1]).toBe(ahead.positions);
    // Dimmed points are blended, so nothing is prepared while a slice dims the others.
    model.set("slices", [2]);
    await flush();
    calls.length = 0;
    announce({ prepare_lattice: [6, 1] });
    expect(calls.filter(([n]) => n === "prepare")).toHaveLength(0);
  });

  it("draws the cloud with area ∝ mass", async () => {
    const { model } = mount(simplexState(3));
    await flush();
    calls.length = 0;
    model.set("cloud", "beta-binomial");
    model.set("_cloud_xyz", f32([0, 0, 0, 1, 1, 1]));
    model.set("_cloud_mass", f32([0.8, 0.2]));
    await flush();
    const [, xyz, sizes] = calls.find(([n]) => n === "setCloud");
    expect(xyz.length).toBe(6);
    expect(sizes[0] / sizes[1]).toBeCloseTo(2, 5); // √(0.8 / 0.2)
  });

  it("draws nothing while the values lag behind new positions", async () => {
    const { model, root } = mount(simplexState(4));
    await flush();
    const next = simplexState(5);
    model.set("_lattice", next._lattice);
    await flush();
    expect(root.dataset.points).toBe("0");
  });

  it("while the view turns slowly, draws a prefix; once still, everything", async () => {
    const { root } = mount(simplexState(12, { _lattice: [12, 1, 455, 40, 200, 300] }));
    await flush();
    expect(root.dataset.points).toBe("455");
    const canvas = root.querySelector("canvas");
    const move = (type, x) => canvas.dispatchEvent(new MouseEvent(type, { clientX: x, clientY: 0, button: 0 }));
    move("pointerdown", 0);
    // Frames here come ~30 ms apart at best (timers): slow, so the level coarsens.
    for (let i = 1; i <= 6; i++) {
      move("pointermove", 10 * i);
      await new Promise((resolve) => setTimeout(resolve, 60));
    }
    move("pointerup", 60);
    const limits = calls.filter(([n]) => n === "draw").map(([, a]) => a.limit);
    expect(Math.min(...limits)).toBeLessThan(455);
    expect(Number(root.dataset.level)).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 400)); // settle
    expect(root.dataset.points).toBe("455");
    expect(root.dataset.level).toBe("0");
  });

  it("says so when the browser takes the WebGL context away", async () => {
    const { root } = mount(simplexState(4));
    await flush();
    const frames = Number(root.dataset.frames);
    root.querySelector("canvas").dispatchEvent(new Event("webglcontextlost", { cancelable: true }));
    expect(root.dataset.error).toBe(CONTEXT_LOST);
    expect(root.dataset.renderer).toBe("none");
    expect(root.querySelector(".cl-error").textContent).toBe(CONTEXT_LOST);
    root.dispatchEvent(new KeyboardEvent("keydown", { key: "ArrowLeft" }));
    await flush();
    expect(Number(root.dataset.frames)).toBe(frames); // no drawing on a lost context
    expect(root.dataset.points).toBe("0");
  });

  it("names the matrix under a still pointer, follows a new metric, hides while dragging and on leave", async () => {
    const N = 6;
    const { model, root } = mount(simplexState(N, { size: 400 }));
    await flush();
    const canvas = root.querySelector("canvas");
    // The TN vertex (0, 0, 0, 6) is in front in the default view; jsdom's canvas box is
    // empty, so client coordinates are canvas pixels.
    const [sx, sy] = projectPoint(DEFAULT_CAMERA, N, 400, 400, [-N / 2, -N / 2, -N / 2]);
    const pointer = (type, x, y) => canvas.dispatchEvent(new MouseEvent(type, { clientX: x, clientY: y, button: 0 }));
    pointer("pointermove", sx, sy);
    await flush();
    expect(root.dataset.hover).toBe("0,0,0,6");
    expect(root.dataset.hoverValue).toBe("1"); // the fixture's value (TP + TN) / N, read from the buffer
    const tip = root.querySelector(".cl-hover");
    expect(tip.hidden).toBe(false);
    expect(tip.textContent).toBe("TP 0 · FN 0 · FP 0 · TN 6 — Accuracy = 1");
    expect(root.querySelector(".cl-hover-ring").hidden).toBe(false);

    for (const [k, v] of Object.entries(codesState(new Array(84).fill(0.25), N))) model.set(k, v);
    await flush();
    expect(root.dataset.hover).toBe("0,0,0,6");
    expect(root.dataset.hoverValue).toBe("0.25");

    pointer("pointermove", 2, 2); // a corner: no point there
    await flush();
    expect(root.dataset.hover).toBeUndefined();
    expect(tip.hidden).toBe(true);

    pointer("pointermove", sx, sy);
    await flush();
    expect(root.dataset.hover).toBe("0,0,0,6");
    pointer("pointerdown", sx, sy);
    expect(root.dataset.hover).toBeUndefined(); // dragging turns the view: no read-out
    pointer("pointerup", sx, sy);
    await flush();
    expect(root.dataset.hover).toBe("0,0,0,6");
    pointer("pointerleave", sx, sy);
    await flush();
    expect(root.dataset.hover).toBeUndefined();
    expect(root.dataset.hoverValue).toBeUndefined();
  });

  it("destroys the renderer on cleanup", () => {
    const { cleanup } = mount(simplexState(2));
    cleanup();
    expect(names()).toContain("destroy");
  });
});
