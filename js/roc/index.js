// Bundle entry of the RocView and PrecisionRecallView (esbuild → src/confusionlab/static/roc.js).
import "../shared/base.css";
import "./roc.css";
import { render } from "./widget.js";

export default { render };
