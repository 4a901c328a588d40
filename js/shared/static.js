// Linked states that travel with a static page (see src/confusionlab/widgets/_static.py).
//
// In Jupyter a slider asks the kernel, which moves the linked views. A page written by
// confusionlab.export has no kernel: its renderer marks each model `offline`, and a view built for
// export carries `_static` = {links, positions, states, total, note}: for each precomputed slider
// position (ascending), per linked model, the traits the kernel would set. Nothing here computes a
// state; these functions pick one and hand it to the linked models.

/**
 * The precomputed states of a view, checked: {links, positions, states, total, note, usable}.
 * `usable` is true when there are states for at least two positions, one per link each.
 * @param {object|null|undefined} value the model's `_static`
 */
export function readStatic(value) {
  const links = Array.isArray(value?.links) ? value.links.filter((id) => typeof id === "string") : [];
  const positions = Array.isArray(value?.positions) ? value.positions.map(Number) : [];
  const states = Array.isArray(value?.states) ? value.states : null;
  const usable =
    states !== null &&
    positions.length >= 2 &&
    states.length === positions.length &&
    states.every((s) => Array.isArray(s) && s.length === links.length);
  return {
    links,
    positions: usable ? positions : [],
    states: usable ? states : null,
    total: Number.isFinite(value?.total) ? value.total : 0,
    note: typeof value?.note === "string" ? value.note : "",
    usable,
  };
}

/** Whether the model belongs to a page without a kernel (the static export's renderer says so). */
export function isOffline(model) {
  return model?.offline === true;
}

/**
 * Index of the position nearest to `value` (ascending positions; the lower of two equally near);
 * −1 when there are none.
 */
export function nearestPosition(positions, value) {
  if (!positions.length || !Number.isFinite(value)) return -1;
  let lo = 0;
  let hi = positions.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (positions[mid] < value) lo = mid + 1;
    else hi = mid;
  }
  if (lo > 0 && value - positions[lo - 1] <= positions[lo] - value) return lo - 1;
  return lo;
}

/**
 * Set position `k`'s states on the linked models, each resolved by the model's widget manager
 * (`IPY_MODEL_<id>`). Returns the number of traits set.
 */
export async function applyStatic(model, info, k) {
  if (!info.usable || !(k >= 0 && k < info.states.length)) return 0;
  let count = 0;
  for (let j = 0; j < info.links.length; j++) {
    const target = await model.widget_manager.get_model(info.links[j].replace(/^IPY_MODEL_/, ""));
    for (const [key, value] of Object.entries(info.states[k][j] ?? {})) {
      target.set(key, value);
      count += 1;
    }
  }
  return count;
}

/**
 * What the page says of its slider offline: the note from Python (thinned, or off and why), or,
 * for a view with links but no states (saved without them), that the links stay put.
 * @param {ReturnType<typeof readStatic>} info
 * @param {string} linked what the linked views are, in words ("the linked slice")
 */
export function staticNote(info, linked) {
  if (info.note) return info.note;
  if (!info.usable && info.links.length) {
    return (
      `This page was saved without the states of ${linked}: here the slider does not move ${linked}. ` +
      "Export the notebook with confusionlab-export to make it follow, or open it in Jupyter."
    );
  }
  return "";
}

/** Whether the slider is off in the page: Python said the states could not travel (a note, no states). */
export function sliderOff(info) {
  return !info.usable && Boolean(info.note);
}
