// Bundle entry of StabilityView's charts (esbuild → src/confusionlab/static/stability_view.js);
// the canvas chart itself lives in ../bias_view/chart.js.
import "../shared/base.css";
import "../bias_view/chart.css";
import { chartRender } from "../bias_view/chart.js";

export const render = chartRender("confusionlab-stability-plot");
export default { render };
