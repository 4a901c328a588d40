// Bundle entry of the PairedView widget (esbuild → src/confusionlab/static/paired.js).
import "../shared/base.css";
import "./paired.css";
import { render } from "./widget.js";

export default { render };
