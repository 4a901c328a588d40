// Bundle entry of the CostCurveView (esbuild → src/confusionlab/static/cost_curve.js).
import "../shared/base.css";
import "./cost_curve.css";
import { render } from "./widget.js";

export default { render };
