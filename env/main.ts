// Entry point of the root Pulumi project (Pulumi.yaml): provisions the
// environment definition named by stack config `vplatform-lab:environment`.
import * as path from "path";
import * as pulumi from "@pulumi/pulumi";
import { buildEnvironment } from "./build-environment";
import { loadEnvironment } from "./load-environment";

const config = new pulumi.Config("vplatform-lab");
const file = path.resolve(config.get("environment") ?? "examples/environments/lab.yaml");

export = buildEnvironment(loadEnvironment(path.relative(process.cwd(), file) || file));
