// The state every slice widget shares (RocSlice, MetricPMF): the observed matrix on a
// slice, the metric and the generation stamped by a controller.

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
