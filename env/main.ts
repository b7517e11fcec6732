// The program of a Pulumi project that provisions an environment file: the
// root project here (Pulumi.yaml), and a team's own project with
// `main: node_modules/vplatform/dist/env/main.js`. The file is the project's
// config `environment` (`<project>:environment`, relative to the project
// directory, or absolute), else `environments/<stack>.yaml`; the stack's
// overlay in it, if any, is applied.
import * as fs from "node:fs";
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { environmentProgram } from "./program";
import { loadEnvironmentSource } from "./load-environment";

/**
 * The directory of Pulumi.yaml, as the language host reports it: the working
 * directory is main's (inside node_modules/vplatform when a team's project runs it).
 */
function projectDir(): string {
  if (pulumi.runtime.getRootDirectory()) return pulumi.runtime.getRootDirectory();
  for (let dir = process.cwd(); ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, "Pulumi.yaml"))) return dir;
    if (path.dirname(dir) === dir) return process.cwd();
  }
}

const root = projectDir();
const stack = pulumi.getStack();
const file = path.resolve(root, new pulumi.Config().get("environment") ?? path.join("environments", `${stack}.yaml`));
const shown = path.relative(root, file).startsWith("..") ? file : path.relative(root, file);

export = environmentProgram(loadEnvironmentSource(shown, fs.readFileSync(file, "utf8"), stack));
