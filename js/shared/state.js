// The state every slice widget shares (RocSlice, MetricPMF): the observed matrix on a
// slice, the metric and the generation stamped by a controller.

/** The model keys of that state (a change of any redraws). */
export const COMMON_KEYS = ["p", "n", "tp", "tn", "metric", "generation", "_metric_label"];

/** `{p, n, tp, tn, metric, label, generation}` read from the model. */
export function readCommonState(model) {
  const get = (k) => model.get(k);
  return {
    p: get("p"),
    n: get("n"),
    tp: get("tp"),
    tn: get("tn"),
    metric: get("metric"),
    label: get("_metric_label") || get("metric"),
    generation: get("generation") ?? 0,
  };
}

/** Mirror the common state in data attributes of `root`: data-p, -n, -tp, -tn, -metric, -generation. */
export function setCommonData(root, state) {
  const d = root.dataset;
  for (const key of ["p", "n", "tp", "tn", "metric", "generation"]) d[key] = String(state[key]);
}
