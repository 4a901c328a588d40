// Bundle entry of the CalibrationView (esbuild → src/confusionlab/static/calibration.js).
import "../shared/base.css";
import "./calibration.css";
import { render } from "./widget.js";

export default { render };
