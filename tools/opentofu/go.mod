// Builds OpenTofu's CLI from Go modules, for the bench's side-by-side run (scripts/build-opentofu.sh).
module vplatform.local/tools/opentofu

go 1.22

require github.com/opentofu/opentofu v1.8.8

// OpenTofu's own go.mod replaces hcl with its fork; a replace applies only in the main module, so it is repeated here.
replace github.com/hashicorp/hcl/v2 v2.20.1 => github.com/opentofu/hcl/v2 v2.0.0-20240416130056-03228b26f391
