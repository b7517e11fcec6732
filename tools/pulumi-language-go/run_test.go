package main

import (
	"slices"
	"testing"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
)

func TestTheProgramGetsWhatPulumiRunReads(t *testing.T) {
	req := &pulumirpc.RunRequest{
		MonitorAddress: "127.0.0.1:1", Organization: "o", Project: "p", Stack: "s", Parallel: 8, DryRun: true,
		Config: map[string]string{"vplatform:endpoint": "https://x"}, ConfigSecretKeys: []string{"vplatform:apiKey"},
		Info: &pulumirpc.ProgramInfo{RootDirectory: "/w"},
	}
	env, err := programEnvironment([]string{"HOME=/h"}, req, "127.0.0.1:2")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"HOME=/h", "PULUMI_ORGANIZATION=o", "PULUMI_PROJECT=p", "PULUMI_STACK=s", "PULUMI_ROOT_DIRECTORY=/w",
		`PULUMI_CONFIG={"vplatform:endpoint":"https://x"}`, `PULUMI_CONFIG_SECRET_KEYS=["vplatform:apiKey"]`,
		"PULUMI_DRY_RUN=true", "PULUMI_PARALLEL=8", "PULUMI_MONITOR=127.0.0.1:1", "PULUMI_ENGINE=127.0.0.1:2"}
	if !slices.Equal(env, want) {
		t.Fatalf("environment = %v\nwant %v", env, want)
	}
}

func TestOptionsMustBePaths(t *testing.T) {
	if _, err := parseRuntimeOptions(map[string]any{"binary": true}); err == nil {
		t.Error("binary: true accepted")
	}
	opts, err := parseRuntimeOptions(map[string]any{"binary": "bin/lab", "buildTarget": "./cmd/lab"})
	if err != nil || opts != (runtimeOptions{binary: "bin/lab", buildTarget: "./cmd/lab"}) {
		t.Fatalf("%+v, %v", opts, err)
	}
}
