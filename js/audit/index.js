// Bundle entry of the AuditView widget (esbuild → src/confusionlab/static/audit.js).
import "../shared/base.css";
import "./audit.css";
import { render } from "./widget.js";

export default { render };
