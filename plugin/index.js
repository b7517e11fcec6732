// Loaded by the Node.js language host's plugin runner (see PulumiPlugin.yaml): the same entry point as
// the package's bin pulumi-resource-vplatform.
require("../dist/plugin/main.js");
