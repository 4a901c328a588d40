// Bundle entry of the PlannerView widget (esbuild → src/confusionlab/static/planner.js).
import "../shared/base.css";
import "./planner.css";
import { render } from "./widget.js";

export default { render };
