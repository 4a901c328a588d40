// Bundle entry of the one canvas chart (esbuild → src/confusionlab/static/chart.js), the
// front-end of BiasView's and StabilityView's plots: each chart names its root class.
import "../shared/base.css";
import "./chart.css";
import { render } from "./chart.js";

export default { render };
