#!/usr/bin/env node
// pulumi-resource-vplatform: the resource provider plugin the engine starts (one process per provider instance),
// serving schema.json's resources and constructing its component, vp.Lab. Its composition root, above every layer:
// the provider's plugin door (provider/plugin) with the SDK's lab declaration (sdk/labComponent.ts).
import "../provider/plugin/requireSupportedNode"; // first: on an unsupported Node.js, nothing else loads
import { exitWithEngine } from "../provider/client/exitWithEngine";
import { keepYoungGenerationSmall } from "../provider/client/youngGeneration";
import { serve } from "../provider/plugin/server";
import type { constructLab } from "../sdk/labComponent";

/** vp.Lab, loaded at its first Construct only: a plugin serving resources alone starts as fast as before. */
const lab: typeof constructLab = (...args) => require("../sdk/labComponent").constructLab(...args);

keepYoungGenerationSmall(); // as the dynamic door does in configure (see youngGeneration.ts)
exitWithEngine(); // a killed engine leaves no plugin process behind (the engine's address is argv[2])
serve(process.argv.slice(2), { "vplatform:index:Lab": lab }).catch((err) => {
  console.error(`vplatform: the provider plugin failed to start: ${err instanceof Error ? err.stack : String(err)}`);
  process.exit(1);
});
