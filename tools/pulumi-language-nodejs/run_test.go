package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
)

func fullRequest() *pulumirpc.RunRequest {
	return &pulumirpc.RunRequest{
		MonitorAddress: "127.0.0.1:1001",
		Organization:   "org",
		Project:        "proj",
		Stack:          "dev",
		Pwd:            "/work/app",
		Parallel:       16,
		DryRun:         true,
		Args:           []string{"a1", "--a2"},
		Info: &pulumirpc.ProgramInfo{
			RootDirectory:    "/work",
			ProgramDirectory: "/work/app",
			EntryPoint:       "dist/main.js",
		},
	}
}

func TestRunArgumentsPassEveryRequestFieldTheRunnerReads(t *testing.T) {
	got := runArguments(fullRequest(), runtimeOptions{nodeargs: []string{"--max-old-space-size=4096"}}, "/nm/run/index.js", "127.0.0.1:1002", "http://trace")
	want := []string{
		"--max-old-space-size=4096", "/nm/run/index.js",
		"--monitor=127.0.0.1:1001", "--engine=127.0.0.1:1002", "--organization=org", "--project=proj",
		"--stack=dev", "--root-directory=/work", "--pwd=/work/app", "--parallel=16", "--tracing=http://trace",
		"--dry-run",
		"/work/app/dist/main.js", "a1", "--a2",
	}
	if !slices.Equal(got, want) {
		t.Fatalf("runArguments:\n got %q\nwant %q", got, want)
	}
}

func TestRunArgumentsOmitEmptyValuesAndDryRunWhenUpdating(t *testing.T) {
	req := &pulumirpc.RunRequest{MonitorAddress: "m:1", Pwd: "/p", Program: "index.js"}
	got := runArguments(req, runtimeOptions{}, "run.js", "", "")
	want := []string{"run.js", "--monitor=m:1", "--pwd=/p", "--parallel=0", "/p/index.js"}
	if !slices.Equal(got, want) {
		t.Fatalf("runArguments:\n got %q\nwant %q", got, want)
	}
}

func TestProgramEntryResolvesMainAgainstTheProgramDirectory(t *testing.T) {
	cases := []struct {
		name string
		req  *pulumirpc.RunRequest
		want string
	}{
		{"relative main", fullRequest(), "/work/app/dist/main.js"},
		{"absolute main", &pulumirpc.RunRequest{Info: &pulumirpc.ProgramInfo{EntryPoint: "/abs/x.js"}}, "/abs/x.js"},
		{"no main: package.json decides", &pulumirpc.RunRequest{Info: &pulumirpc.ProgramInfo{EntryPoint: "."}}, "."},
		{"nothing at all", &pulumirpc.RunRequest{}, "."},
		{"info wins over the deprecated program field", &pulumirpc.RunRequest{
			Program: "old.js", Pwd: "/p", Info: &pulumirpc.ProgramInfo{ProgramDirectory: "/q", EntryPoint: "new.js"},
		}, "/q/new.js"},
		{"without info, program is relative to pwd", &pulumirpc.RunRequest{Program: "old.js", Pwd: "/p"}, "/p/old.js"},
	}
	for _, c := range cases {
		if got := programEntry(c.req); got != c.want {
			t.Errorf("%s: programEntry = %q, want %q", c.name, got, c.want)
		}
	}
}

// A project directory laid out as given: file name → contents.
func projectDir(t *testing.T, files ...string) string {
	t.Helper()
	dir := t.TempDir()
	for _, name := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("{}"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestProgramEntryWithoutMainRunsTheProgramDirectoryWhenItHasNoPackageJSON(t *testing.T) {
	noMain := func(dir string) *pulumirpc.RunRequest {
		return &pulumirpc.RunRequest{Pwd: dir, Info: &pulumirpc.ProgramInfo{ProgramDirectory: dir, EntryPoint: "."}}
	}
	// An enclosing package.json (a repository's, a monorepo's) must not decide: its `main` is not this program.
	for _, index := range []string{"index.ts", "index.js"} {
		dir := projectDir(t, "Pulumi.yaml", index)
		if got := programEntry(noMain(dir)); got != dir {
			t.Errorf("directory with %s and no package.json: programEntry = %q, want the directory %q", index, got, dir)
		}
	}
	withPackage := projectDir(t, "Pulumi.yaml", "package.json", "index.ts")
	if got := programEntry(noMain(withPackage)); got != "." {
		t.Errorf("directory with its own package.json: programEntry = %q, want \".\" (its main/exports decide)", got)
	}
	// Nothing to run here: the run script's own search and diagnostics apply.
	empty := projectDir(t, "Pulumi.yaml")
	if got := programEntry(noMain(empty)); got != "." {
		t.Errorf("directory without an index: programEntry = %q, want \".\"", got)
	}
	mainGiven := projectDir(t, "Pulumi.yaml", "main.ts")
	req := noMain(mainGiven)
	req.Info.EntryPoint = "main.ts"
	if got := programEntry(req); got != filepath.Join(mainGiven, "main.ts") {
		t.Errorf("main given: programEntry = %q", got)
	}
}

func envValue(t *testing.T, env []string, name string) string {
	t.Helper()
	value := ""
	for _, kv := range env { // the last definition wins, as for exec.Cmd
		if v, ok := strings.CutPrefix(kv, name+"="); ok {
			value = v
		}
	}
	return value
}

func TestProgramEnvironmentCarriesConfigAndSecretKeysAsJSON(t *testing.T) {
	req := &pulumirpc.RunRequest{
		Config:           map[string]string{"proj:x": "y", "vplatform:apiKey": "k"},
		ConfigSecretKeys: []string{"vplatform:apiKey"},
	}
	env, err := programEnvironment([]string{"HOME=/h", "PULUMI_CONFIG=stale"}, req, runtimeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var config map[string]string
	if err := json.Unmarshal([]byte(envValue(t, env, "PULUMI_CONFIG")), &config); err != nil {
		t.Fatal(err)
	}
	if config["proj:x"] != "y" || config["vplatform:apiKey"] != "k" || len(config) != 2 {
		t.Errorf("PULUMI_CONFIG = %v", config)
	}
	if got := envValue(t, env, "PULUMI_CONFIG_SECRET_KEYS"); got != `["vplatform:apiKey"]` {
		t.Errorf("PULUMI_CONFIG_SECRET_KEYS = %s", got)
	}
	if envValue(t, env, "HOME") != "/h" {
		t.Error("the host's own environment must be inherited")
	}
}

func TestProgramEnvironmentWithoutConfigIsEmptyJSONNotNull(t *testing.T) {
	env, err := programEnvironment(nil, &pulumirpc.RunRequest{}, runtimeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := envValue(t, env, "PULUMI_CONFIG"); got != "{}" {
		t.Errorf("PULUMI_CONFIG = %s", got)
	}
	if got := envValue(t, env, "PULUMI_CONFIG_SECRET_KEYS"); got != "[]" {
		t.Errorf("PULUMI_CONFIG_SECRET_KEYS = %s", got)
	}
}
