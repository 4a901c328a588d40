// render() in jsdom: there is no WebGL here, so the widget must say so, while the
// pure pipeline (decoding, counts, emphasis, labels, camera) still runs.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { NO_WEBGL, prepareLattice, render } from "../confusion_simplex/widget.js";
import { cachedLattice } from "../confusion_simplex/lattice.js";
import { readState } from "../confusion_simplex/layers.js";
import { mountWidget } from "./fake_model.js";
import { simplexState } from "./simplex_fixtures.js";

const flush = () => new Promise((resolve) => setTimeout(resolve, 30));

beforeEach(() => {
  vi.spyOn(HTMLCanvasElement.prototype, "getContext").mockImplementation(() => null);
});
afterEach(() => {
  vi.restoreAllMocks();
  document.body.innerHTML = "";
});

const mount = (state) => mountWidget(render, state, ".confusionlab-simplex");

describe("render without WebGL", () => {
  it("shows a visible message and sets data-error", () => {
    const { root } = mount(simplexState(6));
    const message = root.querySelector(".cl-error");
    expect(message).not.toBeNull();
    expect(message.textContent).toBe(NO_WEBGL);
    expect(message.getAttribute("role")).toBe("alert");
    expect(root.dataset.error).toBe(NO_WEBGL);
    expect(root.dataset.renderer).toBe("none");
  });

  it("still mirrors the state and counts the points of the pipeline", async () => {
    const { root } = mount(simplexState(6, { slices: [2, 4], metric: "mcc", observed: [1, 2, 1, 2], cloud: "dirichlet-multinomial" }));
    expect(root.dataset.n).toBe("6");
    expect(root.dataset.latticePoints).toBe("84");
    expect(root.dataset.metric).toBe("mcc");
    expect(root.dataset.slices).toBe("2,4");
    expect(root.dataset.observed).toBe("1,2,1,2");
    expect(root.dataset.cloud).toBe("dirichlet-multinomial");
    // p = 2: 3 × 5 = 15 points, p = 4: 5 × 3 = 15 points
    expect(root.dataset.highlighted).toBe("30");
    expect(root.dataset.dimmed).toBe("54");
    await flush();
    expect(root.dataset.points).toBe("0"); // nothing drawn without WebGL
    expect(root.dataset.frames).toBe("0");
  });

  it("labels the four vertices as text at their projected positions", async () => {
    const { root } = mount(simplexState(6));
    await flush();
    const labels = [...root.querySelectorAll(".cl-vertex-label")];
    expect(labels.map((l) => l.textContent)).toEqual(["TP", "FN", "FP", "TN"]);
    const top = (name) => parseFloat(labels.find((l) => l.dataset.vertex === name).style.top);
    // TP above every other vertex
    for (const name of ["FN", "FP", "TN"]) expect(top("TP")).toBeLessThan(top(name));
  });

  it("never writes the metric label as HTML", async () => {
    const { root } = mount(simplexState(3, { _metric_label: "<img src=x onerror=alert(1)>" }));
    await flush();
    expect(root.querySelector("img")).toBeNull();
    expect(root.querySelector(".cl-title").textContent).toContain("<img");
  });

  it("follows a change of N once all buffers have arrived together", async () => {
    const { model, root } = mount(simplexState(4));
    const next = simplexState(5);
    for (const key of ["N", "_lattice", "_codes", "_value_table", "_values_info", "_vertices"]) model.set(key, next[key]);
    expect(root.dataset.n).toBe("4");
    await flush();
    expect(root.dataset.n).toBe("5");
    expect(root.dataset.latticePoints).toBe("56");
  });

  it("enumerates a lattice the kernel announces before its state arrives (issue 24)", async () => {
    const { model, root } = mount(simplexState(4));
    const announce = (content) => {
      for (const cb of model.listeners.get("msg:custom") ?? []) cb(content, []);
    };
    announce({ prepare_lattice: [9, 1] });
    const prepared = cachedLattice(9, 1); // a hit: the arrays generated on the announcement
    announce({ prepare_lattice: [9, 1] });
    expect(cachedLattice(9, 1)).toBe(prepared);
    expect(prepared.count).toBe(220);
    // Nothing is drawn from an announcement alone; the state that follows uses the prepared arrays.
    expect(root.dataset.n).toBe("4");
    const next = simplexState(9);
    for (const key of ["N", "_lattice", "_codes", "_value_table", "_values_info", "_vertices"]) model.set(key, next[key]);
    await flush();
    expect(root.dataset.n).toBe("9");
    expect(readState(model).positions).toBe(prepared.positions);
    // Whatever is not a lattice is ignored.
    expect(prepareLattice({ prepare_lattice: [-1, 1] })).toBe(false);
    expect(prepareLattice({ prepare_lattice: [3000, 1] })).toBe(false); // too large: refused, nothing allocated
    expect(prepareLattice({ other: 1 })).toBe(false);
    expect(prepareLattice(null)).toBe(false);
    expect(prepareLattice({ prepare_lattice: [5, 1] })).toBe(true);
  });

  it("rotates with the arrow keys and resets with 0", async () => {
    const { root } = mount(simplexState(4));
    await flush();
    const before = root.dataset.rotation;
    root.dispatchEvent(new KeyboardEvent("keydown", { key: "ArrowRight" }));
    root.dispatchEvent(new KeyboardEvent("keydown", { key: "ArrowDown" }));
    await flush();
    const [yaw, pitch] = before.split(",").map(Number);
    expect(root.dataset.rotation).toBe(`${yaw + 5},${pitch + 5}`);
    root.dispatchEvent(new KeyboardEvent("keydown", { key: "0" }));
    await flush();
    expect(root.dataset.rotation).toBe(before);
  });

  it("rotates with a mouse drag and zooms with the wheel", async () => {
    const { host, root } = mount(simplexState(4));
    await flush();
    const canvas = host.querySelector("canvas");
    const before = root.dataset.rotation;
    const pointer = (type, x, y) => {
      const event = new MouseEvent(type, { clientX: x, clientY: y, button: 0, bubbles: true });
      canvas.dispatchEvent(event);
    };
    pointer("pointerdown", 100, 100);
    pointer("pointermove", 160, 100);
    pointer("pointerup", 160, 100);
    pointer("pointermove", 400, 400); // not dragging any more
    await flush();
    const [yaw] = root.dataset.rotation.split(",").map(Number);
    expect(yaw).toBe(Number(before.split(",")[0]) + Math.round((60 * 0.01 * 180) / Math.PI));
    canvas.dispatchEvent(new WheelEvent("wheel", { deltaY: -100, cancelable: true }));
    await flush();
    expect(Number(root.dataset.zoom)).toBeGreaterThan(1);
  });

  it("removes its listeners on cleanup", () => {
    const { model, cleanup } = mount(simplexState(3));
    expect(model.listenerCount()).toBeGreaterThan(0);
    cleanup();
    expect(model.listenerCount()).toBe(0);
  });
});
