// Bundle entry of the MetricPMF widget (esbuild → src/confusionlab/static/metric_pmf.js).
import "../shared/base.css";
import "./metric_pmf.css";
import { render } from "./widget.js";

export default { render };
