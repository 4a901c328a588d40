// Bundle entry of the ConfusionSimplex widget (esbuild → src/confusionlab/static/confusion_simplex.js).
import "../shared/base.css";
import "./confusion_simplex.css";
import { render } from "./widget.js";

export default { render };
