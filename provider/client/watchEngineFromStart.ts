// Preloaded (`node --require`, through NODE_OPTIONS) into every node process an engine started by this package
// runs. A dynamic-provider process otherwise loads this package's code at its first call only: an engine killed
// between the process's start and that call left it serving forever. Preloaded, it watches its engine from its
// first instant (any other process, e.g. a language host, is no provider process and watches nothing).
import { watchEngineOnce } from "./exitWithEngine";

watchEngineOnce();
