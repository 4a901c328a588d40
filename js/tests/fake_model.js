// A minimal stand-in for the anywidget model: get/set/on/off/save_changes.
export class FakeModel {
  constructor(state) {
    this.state = { ...state };
    this.listeners = new Map();
    this.saved = 0;
  }
  get(key) {
    return this.state[key];
  }
  set(key, value) {
    this.state[key] = value;
    for (const cb of this.listeners.get(`change:${key}`) ?? []) cb();
  }
  on(event, cb) {
    if (!this.listeners.has(event)) this.listeners.set(event, new Set());
    this.listeners.get(event).add(cb);
  }
  off(event, cb) {
    this.listeners.get(event)?.delete(cb);
  }
  save_changes() {
    this.saved += 1;
  }
  listenerCount() {
    let count = 0;
    for (const set of this.listeners.values()) count += set.size;
    return count;
  }
}

/**
 * Render a widget into a fresh host element with a FakeModel of ``state``.
 * @returns {{model: FakeModel, host: HTMLElement, cleanup: any, root: Element|null}}
 */
export function mountWidget(render, state, rootSelector) {
  const model = new FakeModel(state);
  const host = document.createElement("div");
  document.body.appendChild(host);
  const cleanup = render({ model, el: host });
  return { model, host, cleanup, root: host.querySelector(rootSelector) };
}

const f32 = (values) => new DataView(new Float32Array(values).buffer);
const i32 = (values) => new DataView(new Int32Array(values).buffer);
const u32 = (values) => new DataView(new Uint32Array(values).buffer);

/**
 * Widget state for slice (p, n) as Python would send it. The values are
 * arbitrary numbers (the JS never computes a metric; only the buffer layout matters).
 */
export function sliceState(p, n, extra = {}) {
  const tpAxis = Array.from({ length: p + 1 }, (_, i) => i);
  const tnAxis = Array.from({ length: n + 1 }, (_, j) => j);
  const values = [];
  for (const tp of tpAxis) for (const tn of tnAxis) values.push(tp / p - (n - tn) / n);
  return {
    p,
    n,
    tp: Math.floor(p / 2),
    tn: Math.floor(n / 2),
    metric: "informedness",
    coordinates: "roc",
    extend: false,
    size: 300,
    levels: [0.25],
    _metric_label: "Informedness",
    _slice: [p, n, 1],
    _tp_axis: i32(tpAxis),
    _tn_axis: i32(tnAxis),
    _values: f32(values),
    _colour_domain: [-1, 0, 1],
    _contour_xy: f32([0, 0.25, 0.5, 0.75, 0.75, 1]),
    _contour_offsets: u32([0, 3]),
    _contour_levels: f32([0.25]),
    _observed_value: 0,
    ...extra,
  };
}

export { f32, i32, u32 };
