#!/usr/bin/env node
// pulumi-resource-vplatform: the resource provider plugin the engine starts
// (one process per provider instance), serving schema.json's resources.
import "./requireSupportedNode"; // first: on an unsupported Node.js, nothing else loads
import { exitWithEngine } from "../client/exitWithEngine";
import { keepYoungGenerationSmall } from "../client/youngGeneration";
import { serve } from "./server";

keepYoungGenerationSmall(); // as the dynamic door does in configure (see youngGeneration.ts)
exitWithEngine(); // a killed engine leaves no plugin process behind (the engine's address is argv[2])
serve(process.argv.slice(2)).catch((err) => {
  console.error(`vplatform: the provider plugin failed to start: ${err instanceof Error ? err.stack : String(err)}`);
  process.exit(1);
});
