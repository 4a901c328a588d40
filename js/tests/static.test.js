// Linked states that travel with a static page: reading and choosing them (shared/static.js), the
// offline renderer's shared models (export/embed.js), and the RocView and DecisionView sliders
// offline: they land on a saved position and set its states on the linked models, say when the
// states are thinned or missing, and behave as before in Jupyter (no `offline` model).
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { modelRegistry } from "../export/embed.js";
import { render as renderDecision, sliderMode } from "../decision/widget.js";
import { landing, render as renderRoc, walkTo } from "../roc/widget.js";
import { applyStatic, isOffline, nearestPosition, readStatic, sliderOff, staticNote } from "../shared/static.js";
import { FakeModel, f32, i32 } from "./fake_model.js";

const f64 = (values) => new DataView(new Float64Array(values).buffer);

/** FakeModels that say they are offline and resolve each other by id, as the page's renderer does. */
function offlinePage(states) {
  const models = {};
  for (const [id, state] of Object.entries(states)) {
    const model = new FakeModel(state);
    model.offline = true;
    model.widget_manager = {
      get_model: async (ref) => {
        if (!models[ref]) throw new Error(`no widget ${ref}`);
        return models[ref];
      },
    };
    models[id] = model;
  }
  return models;
}

function mount(render, model, selector) {
  const host = document.createElement("div");
  document.body.appendChild(host);
  const cleanup = render({ model, el: host });
  return { root: host.querySelector(selector), cleanup };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

// A RocView of four staircase points and its slice; the slice's state at points 0, 2, 3 saved.
function rocState(statics) {
  return {
    _kind: "roc",
    _x: f32([0, 0, 0.5, 1]),
    _y: f32([0, 0.5, 1, 1]),
    _tp: i32([0, 1, 2, 2]),
    _fp: i32([0, 0, 1, 2]),
    _thresholds: f64([Infinity, 0.9, 0.5, 0.1]),
    _band_x: f32([]),
    _band_lower: f32([]),
    _band_upper: f32([]),
    _summary: { label: "AUC", value: 0.875, interval: [0.4, 0.99], confidence: 0.95, p: 2, n: 2 },
    index: 2,
    confidence: 0.95,
    size: 300,
    generation: 0,
    _static: statics,
  };
}
const SAVED = {
  links: ["IPY_MODEL_slice"],
  positions: [0, 2, 3],
  states: [[{ tp: 0, tn: 2, _pmf_tp: f32([1]) }], [{ tp: 2, tn: 1, _pmf_tp: f32([0.5, 0.5]) }], [{ tp: 2, tn: 0, _pmf_tp: f32([1]) }]],
  total: 4,
  note: "In this page the slider snaps to the 3 of 4 thresholds whose linked state was saved with it.",
};

let ctx;
beforeEach(() => {
  ctx = new Proxy({}, { get: (target, key) => (key in target ? target[key] : () => {}), set: (t, k, v) => ((t[k] = v), true) });
  vi.spyOn(HTMLCanvasElement.prototype, "getContext").mockImplementation(() => ctx);
});
afterEach(() => {
  vi.restoreAllMocks();
  document.body.innerHTML = "";
});

describe("the saved states", () => {
  it("are usable only with a state per link at two or more positions", () => {
    expect(readStatic(SAVED).usable).toBe(true);
    expect(readStatic({ ...SAVED, states: SAVED.states.slice(1) }).usable).toBe(false); // a position short
    expect(readStatic({ ...SAVED, links: ["IPY_MODEL_a", "IPY_MODEL_b"] }).usable).toBe(false); // a link short
    expect(readStatic({ ...SAVED, positions: [0], states: [SAVED.states[0]] }).usable).toBe(false);
    const none = readStatic(undefined);
    expect([none.usable, none.links, none.positions, none.states, none.note]).toEqual([false, [], [], null, ""]);
  });

  it("pick the nearest position, the lower of two equally near", () => {
    expect(nearestPosition([0, 2, 3], 1)).toBe(0);
    expect(nearestPosition([0, 2, 3], 1.01)).toBe(1);
    expect(nearestPosition([0, 2, 3], 9)).toBe(2);
    expect(nearestPosition([0.05, 0.1, 0.15], -1)).toBe(0);
    expect(nearestPosition([], 1)).toBe(-1);
    expect(nearestPosition([0, 1], Number.NaN)).toBe(-1);
  });

  it("are set on the linked models through the widget manager", async () => {
    const { view, slice } = offlinePage({ view: {}, slice: { tp: 1, tn: 1 } });
    const seen = [];
    slice.on("change:tp", () => seen.push(slice.get("tp")));
    expect(await applyStatic(view, readStatic(SAVED), 2)).toBe(3);
    expect([slice.get("tp"), slice.get("tn"), seen]).toEqual([2, 0, [2]]);
    expect(await applyStatic(view, readStatic(SAVED), 3)).toBe(0); // no such position
    await expect(applyStatic(view, readStatic({ ...SAVED, links: ["IPY_MODEL_gone"] }), 0)).rejects.toThrow("gone");
  });

  it("say why the slider snaps, is off, or leaves the linked views where they are", () => {
    expect(staticNote(readStatic(SAVED), "the linked slice")).toBe(SAVED.note);
    const off = readStatic({ links: SAVED.links, positions: [], states: null, total: 4, note: "too large: the slider is off" });
    expect([sliderOff(off), staticNote(off, "x")]).toEqual([true, "too large: the slider is off"]);
    const missing = readStatic({ links: SAVED.links, positions: [], states: null, total: 4, note: null });
    expect(sliderOff(missing)).toBe(false);
    expect(staticNote(missing, "the linked slice")).toMatch(/saved without the states of the linked slice/);
    expect(staticNote(readStatic({}), "the linked slice")).toBe(""); // nothing linked: nothing to say
    expect([isOffline({ offline: true }), isOffline(new FakeModel({}))]).toEqual([true, false]);
  });
});

describe("the offline renderer's models", () => {
  it("are one per widget id, offline, and find each other", async () => {
    const get = modelRegistry({
      a: { state: { n: 1, _static: { links: ["IPY_MODEL_b"] } } },
      b: { state: { tp: 3 }, buffers: [{ path: ["_pmf_tp"], data: btoa("\u0000\u0000\u0080\u003f"), encoding: "base64" }] },
    });
    const a = get("a");
    expect(get("a")).toBe(a);
    expect(a.offline).toBe(true);
    const b = await a.widget_manager.get_model("b");
    expect(b).toBe(get("b"));
    expect(b.get("_pmf_tp").getFloat32(0, true)).toBe(1);
    b.set("tp", 4);
    expect(get("b").get("tp")).toBe(4); // one model: every view of it sees the change
    expect(get("missing")).toBe(null);
    await expect(a.widget_manager.get_model("missing")).rejects.toThrow("no widget missing");
  });
});

describe("RocView offline", () => {
  it("snaps the slider to a saved threshold and moves the slice there", async () => {
    const { view, slice } = offlinePage({ view: rocState(SAVED), slice: { tp: 2, tn: 1 } });
    const { root } = mount(renderRoc, view, ".confusionlab-roc");
    expect(root.dataset.staticPositions).toBe("3");
    expect(root.querySelector(".cl-static").textContent).toBe(SAVED.note);
    expect(landing(view, 1)).toEqual({ index: 0, position: 0 });
    const slider = root.querySelector("input.cl-threshold");
    slider.value = "1";
    slider.dispatchEvent(new Event("input"));
    await settle();
    expect([view.get("index"), slider.value, root.dataset.index]).toEqual([0, "0", "0"]);
    expect([slice.get("tp"), slice.get("tn")]).toEqual([0, 2]);
    expect(await walkTo(view, 3)).toBe(true);
    expect([view.get("index"), slice.get("tp"), slice.get("tn")]).toEqual([3, 2, 0]);
    expect(await walkTo(view, 3)).toBe(false); // already there
  });

  it("moves only the point, and says so, when the page was saved without the states", async () => {
    const missing = { links: ["IPY_MODEL_slice"], positions: [], states: null, total: 4, note: null };
    const { view, slice } = offlinePage({ view: rocState(missing), slice: { tp: 2, tn: 1 } });
    const { root } = mount(renderRoc, view, ".confusionlab-roc");
    expect(root.querySelector(".cl-static").textContent).toMatch(/saved without the states/);
    expect(await walkTo(view, 1)).toBe(true);
    expect([view.get("index"), slice.get("tp")]).toEqual([1, 2]);
  });

  it("turns the slider off when Python said the states could not travel", async () => {
    const off = { links: ["IPY_MODEL_slice"], positions: [], states: null, total: 4, note: "too large: the slider is off here" };
    const { view } = offlinePage({ view: rocState(off), slice: {} });
    const { root } = mount(renderRoc, view, ".confusionlab-roc");
    expect(root.querySelector("input.cl-threshold").disabled).toBe(true);
    expect(landing(view, 0)).toBe(null);
    expect(await walkTo(view, 0)).toBe(false);
    expect(view.get("index")).toBe(2);
  });

  it("in Jupyter sends the index to the kernel and applies nothing", async () => {
    const model = new FakeModel(rocState(SAVED));
    const { root } = mount(renderRoc, model, ".confusionlab-roc");
    expect(root.querySelector(".cl-static").textContent).toBe("");
    expect(root.dataset.staticPositions).toBe("");
    expect(landing(model, 1)).toEqual({ index: 1, position: -1 });
    expect(await walkTo(model, 1)).toBe(true);
    expect([model.get("index"), model.saved]).toEqual([1, 1]);
  });
});

// A DecisionView: its own state at p_t 0.1 and 0.2 saved, and its slice's.
function decisionState(statics) {
  const summary = (pt, tp) => ({ index: 0, tp, fn: 1, fp: 2, tn: 3, value: 0.3, confidence: 0.95, cost: [5 * pt, 5 * (1 - pt)], p_t: pt });
  return {
    own: {
      cost: [1, 4],
      confidence: 0.95,
      width: 600,
      generation: 0,
      _fpr: f64([0.5, 0]),
      _tpr: f64([0.9, 0]),
      _thresholds: f64([0.5, Infinity]),
      _values: f64([0.3, 0.8]),
      _lower: f64([0.2, 0.8]),
      _upper: f64([0.4, 0.8]),
      _plausible: f64([1, 0]),
      _summary: summary(0.2, 9),
      _static: statics,
    },
    saved: {
      links: ["IPY_MODEL_view", "IPY_MODEL_slice"],
      positions: [0.1, 0.2],
      states: [
        [{ cost: [0.5, 4.5], _summary: summary(0.1, 10) }, { tp: 10 }],
        [{ cost: [1, 4], _summary: summary(0.2, 9) }, { tp: 9 }],
      ],
      total: 999,
      note: "In this page the slider snaps to the 2 of 999 values of p_t whose linked state was saved with it.",
    },
  };
}

describe("DecisionView offline", () => {
  it("steps the slider through the saved values of p_t, moving the view and its slice", async () => {
    const { own, saved } = decisionState();
    const { view, slice } = offlinePage({ view: { ...own, _static: saved }, slice: { tp: 9 } });
    const { root } = mount(renderDecision, view, ".confusionlab-decision");
    const slider = root.querySelector("input.cl-cost");
    expect(sliderMode(view, readStatic(saved))).toBe("states");
    expect([slider.min, slider.max, slider.step, slider.value, slider.disabled]).toEqual(["0", "1", "1", "1", false]);
    expect(root.querySelector(".cl-static").textContent).toBe(saved.note);
    slider.value = "0";
    slider.dispatchEvent(new Event("change"));
    await settle();
    expect([view.get("cost"), slice.get("tp"), root.dataset.pt, root.dataset.tp, root.dataset.pending]).toEqual([
      [0.5, 4.5],
      10,
      "0.1",
      "10",
      "0",
    ]);
    expect(view.saved).toBe(0);
  });

  it("asks, and says no kernel answers, without states; is off when Python said so", async () => {
    const { own } = decisionState();
    const missing = { links: ["IPY_MODEL_view"], positions: [], states: null, total: 999, note: null };
    const { view } = offlinePage({ view: { ...own, _static: missing } });
    expect(sliderMode(view, readStatic(missing))).toBe("asks");
    const { root } = mount(renderDecision, view, ".confusionlab-decision");
    const slider = root.querySelector("input.cl-cost");
    slider.value = "0.1";
    slider.dispatchEvent(new Event("change"));
    await settle();
    expect(root.dataset.pending).toBe("1");
    const off = { ...missing, note: "could not be saved: the slider is off here" };
    const page = offlinePage({ view: { ...own, _static: off } });
    const { root: offRoot } = mount(renderDecision, page.view, ".confusionlab-decision");
    expect(offRoot.querySelector("input.cl-cost").disabled).toBe(true);
    expect(offRoot.querySelector(".cl-static").textContent).toBe(off.note);
    expect(sliderMode(new FakeModel({}), readStatic(off))).toBe("live");
  });
});
