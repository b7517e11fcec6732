// Loaded by the policy pack runner (see PulumiPolicy.yaml): the compiled pack.
require("../dist/policy/pack.js");
