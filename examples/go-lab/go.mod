module vplatform.local/examples/go-lab

go 1.25.11

require (
	github.com/pulumi/pulumi/sdk/v3 v3.259.0
	github.com/vplatform/pulumi-vplatform/sdk/go v0.1.0
)

// The Go SDK generated from schema.json: scripts/gen-sdk.sh --go (into .tools/sdk/go).
replace github.com/vplatform/pulumi-vplatform/sdk/go => ../../.tools/sdk/go
replace golang.org/x/text => golang.org/x/text v0.39.0
replace github.com/atotto/clipboard => github.com/tgummerer/clipboard v0.0.0-20241001131231-d02d263e614e
