package main

import (
	"slices"
	"strings"
	"testing"
)

func TestRuntimeOptionsDefaultToTypeScriptLikeThePulumiNewTemplate(t *testing.T) {
	for _, options := range []map[string]any{nil, {}} {
		opts, err := parseRuntimeOptions(options)
		if err != nil {
			t.Fatal(err)
		}
		if !opts.typescript || opts.tsconfig != "" || opts.nodeargs != nil {
			t.Errorf("options %v: got %+v, want TypeScript on and nothing else", options, opts)
		}
		if !slices.Contains(opts.environment(), "PULUMI_NODEJS_TYPESCRIPT=true") {
			t.Errorf("the run script must be told to compile TypeScript: %q", opts.environment())
		}
	}
}

func TestRuntimeOptionsAreReadAsWritten(t *testing.T) {
	opts, err := parseRuntimeOptions(map[string]any{
		"typescript": false, "tsconfig": "tsconfig.pulumi.json", "nodeargs": `--max-old-space-size=4096 --title "my lab"`,
		"packagemanager": "npm", // only matters to installing: accepted, ignored
	})
	if err != nil {
		t.Fatal(err)
	}
	if opts.typescript || opts.tsconfig != "tsconfig.pulumi.json" {
		t.Errorf("got %+v", opts)
	}
	if want := []string{"--max-old-space-size=4096", "--title", "my lab"}; !slices.Equal(opts.nodeargs, want) {
		t.Errorf("nodeargs = %q, want %q (shell words)", opts.nodeargs, want)
	}
	want := []string{"PULUMI_NODEJS_TYPESCRIPT=false", "PULUMI_NODEJS_TSCONFIG_PATH=tsconfig.pulumi.json"}
	if got := opts.environment(); !slices.Equal(got, want) {
		t.Errorf("environment = %q, want %q", got, want)
	}
}

func TestRuntimeOptionsOfTheWrongTypeNameTheFieldAndTheExpectedType(t *testing.T) {
	cases := []struct {
		options map[string]any
		want    string
	}{
		{map[string]any{"typescript": "yes"}, "runtime.options.typescript must be true or false, got yes"},
		{map[string]any{"tsconfig": 3.0}, "runtime.options.tsconfig must be a path"},
		{map[string]any{"nodeargs": []any{"--inspect"}}, "runtime.options.nodeargs must be a string"},
		{map[string]any{"nodeargs": `--title "open`}, "runtime.options.nodeargs"},
	}
	for _, c := range cases {
		if _, err := parseRuntimeOptions(c.options); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: error %v, want one containing %q", c.options, err, c.want)
		}
	}
}

func TestProgramEnvironmentTurnsTypeScriptOffEvenWhenInheritedOn(t *testing.T) {
	env, err := programEnvironment([]string{"PULUMI_NODEJS_TYPESCRIPT=true"}, nil, runtimeOptions{typescript: false})
	if err != nil {
		t.Fatal(err)
	}
	if got := envValue(t, env, "PULUMI_NODEJS_TYPESCRIPT"); got != "false" {
		t.Errorf("PULUMI_NODEJS_TYPESCRIPT = %q, want false (typescript: false in Pulumi.yaml)", got)
	}
}
