// CalibrationView geometry: the plot boxes and the scales (pure; every number comes from Python).
import { linearScale } from "../shared/scale.js";

/** Margins of both canvases (CSS pixels). */
export const MARGINS = { top: 10, right: 12, bottom: 34, left: 44 };
/** Height of the forecasts' histogram below the reliability diagram (CSS pixels). */
export const HISTOGRAM_HEIGHT = 70;

/** The reliability diagram's plot box: square, as wide as the canvas allows. */
export function reliabilityBox(width) {
  const side = Math.max(60, width - MARGINS.left - MARGINS.right);
  return { left: MARGINS.left, top: MARGINS.top, width: side, height: side };
}

/** The histogram's plot box, below, with the same x range. */
export function histogramBox(width) {
  const box = reliabilityBox(width);
  return { left: box.left, top: 6, width: box.width, height: HISTOGRAM_HEIGHT };
}

/** Data → pixel scales of a box over [0, 1] × [0, yMax]. */
export function scales(box, yMax = 1) {
  return {
    x: linearScale(0, 1, box.left, box.left + box.width),
    y: linearScale(0, yMax > 0 ? yMax : 1, box.top + box.height, box.top),
  };
}

/** Whether the per-bin buffers agree in length (an inconsistent state draws nothing). */
export function consistentBins(state) {
  const n = state.x.length;
  return [state.observed, state.lower, state.upper, state.counts, state.outside].every((a) => a.length === n);
}
