// Bundle entry of the DecisionCurveView (esbuild → src/confusionlab/static/decision_curve.js).
import "../shared/base.css";
import "./decision_curve.css";
import { render } from "./widget.js";

export default { render };
