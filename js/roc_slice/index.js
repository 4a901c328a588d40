// Bundle entry of the RocSlice widget (esbuild → src/confusionlab/static/roc_slice.js).
import "../shared/base.css";
import "./roc_slice.css";
import { render } from "./widget.js";

export default { render };
