// Bundle entry of BiasView's ROC chart (esbuild → src/confusionlab/static/bias_view.js).
import "../shared/base.css";
import "./chart.css";
import { chartRender } from "./chart.js";

export const render = chartRender("confusionlab-bias-plot");
export default { render };
