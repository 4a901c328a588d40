// Bundle entry of the EvaluationView (esbuild → src/confusionlab/static/evaluation.js).
import "../shared/base.css";
import "./evaluation.css";
import { render } from "./widget.js";

export default { render };
