// Entry point of the root Pulumi project (Pulumi.yaml): provisions the
// environment definition named by stack config `vplatform-lab:environment`
// (a path relative to the project directory, or absolute).
import * as fs from "fs";
import * as path from "path";
import * as pulumi from "@pulumi/pulumi";
import { buildEnvironment } from "./build-environment";
import { loadEnvironment } from "./load-environment";

/** The directory of Pulumi.yaml, whatever the working directory the language host chose. */
function projectDir(): string {
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, "Pulumi.yaml"))) return dir;
    if (path.dirname(dir) === dir) return process.cwd();
  }
}

const root = projectDir();
const file = path.resolve(root, new pulumi.Config("vplatform-lab").get("environment") ?? "examples/environments/lab.yaml");
const shown = path.relative(root, file).startsWith("..") ? file : path.relative(root, file);

export = buildEnvironment(loadEnvironment(shown, fs.readFileSync(file, "utf8")));
