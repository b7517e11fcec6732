package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
)

func TestVirtualenvIsRelativeToTheProjectRootAndMustExist(t *testing.T) {
	root := t.TempDir()
	opts, err := parseRuntimeOptions(map[string]any{"virtualenv": "venv"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := opts.python(root); err == nil || !strings.Contains(err.Error(), "pulumi install") {
		t.Fatalf("a missing virtualenv must say how to make it, got %v", err)
	}
	bin := filepath.Join(root, "venv", "bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(bin, "python"), nil, 0o755); err != nil {
		t.Fatal(err)
	}
	if got, err := opts.python(root); err != nil || got != filepath.Join(bin, "python") {
		t.Fatalf("python = %q, %v", got, err)
	}
	env := opts.environment([]string{"PATH=/usr/bin", "PYTHONHOME=/x", "HOME=/h"}, root)
	want := []string{"HOME=/h", "PATH=" + bin + ":/usr/bin", "VIRTUAL_ENV=" + filepath.Join(root, "venv")}
	if !slices.Equal(env, want) {
		t.Fatalf("environment = %v, want %v", env, want)
	}
}

func TestOptionsThisHostCannotHonourAreRefusedByName(t *testing.T) {
	for _, options := range []map[string]any{{"virtualenv": 3}, {"toolchain": "poetry"}, {"typechecker": "mypy"}} {
		if _, err := parseRuntimeOptions(options); err == nil {
			t.Errorf("%v: accepted", options)
		}
	}
	if _, err := parseRuntimeOptions(map[string]any{"toolchain": "pip"}); err != nil {
		t.Errorf("toolchain pip: %v", err)
	}
}

func TestRunArgumentsEndWithTheProgramDirectoryAndItsArguments(t *testing.T) {
	req := &pulumirpc.RunRequest{
		MonitorAddress: "127.0.0.1:1", Project: "p", Stack: "s", Pwd: "/w", Parallel: 4, DryRun: true, Args: []string{"a"},
		Info: &pulumirpc.ProgramInfo{RootDirectory: "/w", ProgramDirectory: "/w", EntryPoint: "."},
	}
	got := runArguments(req, "127.0.0.1:2", "")
	want := []string{"--monitor=127.0.0.1:1", "--engine=127.0.0.1:2", "--project=p", "--stack=s", "--root-directory=/w",
		"--pwd=/w", "--parallel=4", "--dry-run", "/w", "a"}
	if !slices.Equal(got, want) {
		t.Fatalf("runArguments = %v\nwant %v", got, want)
	}
}
