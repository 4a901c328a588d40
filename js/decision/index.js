// Bundle entry of the DecisionView (esbuild → src/confusionlab/static/decision.js).
import "../shared/base.css";
import "./decision.css";
import { render } from "./widget.js";

export default { render };
