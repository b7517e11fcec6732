// The SDKs of schema.json that the set-up (scripts/env.sh ensure_language_sdks) makes once per change of their inputs,
// shared by the test files in place of a build in each.
import * as fs from "node:fs";
import * as path from "node:path";

function madeBySetUp(variable: string, what: string): string {
  const dir = process.env[variable];
  if (!dir || !fs.existsSync(path.join(dir, ".complete")))
    throw new Error(`${variable} (${what}) is not set or not complete: run through ./dev test (scripts/env.sh makes it)`);
  return dir;
}

/** The Node.js and Go SDKs, generated and compiled by scripts/gen-sdk.sh --go: nodejs/bin (a package) and go/ (a module). */
export const setUpSdk = () => madeBySetUp("VPLATFORM_SDK", "the Node.js and Go SDKs");

/** The Python SDK: dist/ (its wheel and sdist, scripts/build-python-sdk.sh) and venv/ (a virtualenv pip installed the wheel into). */
export const setUpPythonSdk = () => madeBySetUp("VPLATFORM_PYTHON_SDK", "the Python SDK's wheel and virtualenv");
