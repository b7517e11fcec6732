package main

import (
	"context"
	_ "embed"
	"os"
	"os/exec"
	"path/filepath"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"vplatform.local/tools/languagehost"
)

// runProgramScript connects the Python SDK to the engine and runs the user's program (the stock host's
// pulumi-language-python-exec does this; it ships with the CLI, which we build from Go modules without it).
//
//go:embed run_program.py
var runProgramScript []byte

// Run executes one Pulumi program: `python -u <runner> <flags> <main> [args]`, with the project's virtualenv
// when Pulumi.yaml names one; output passes straight through to the engine.
func (h *languageHost) Run(ctx context.Context, req *pulumirpc.RunRequest) (*pulumirpc.RunResponse, error) {
	opts, err := parseRuntimeOptions(req.GetInfo().GetOptions().AsMap())
	if err != nil {
		return &pulumirpc.RunResponse{Error: "Pulumi.yaml " + err.Error()}, nil
	}
	rootDir := req.GetInfo().GetRootDirectory()
	python, err := opts.python(rootDir)
	if err != nil {
		return &pulumirpc.RunResponse{Error: err.Error()}, nil
	}
	runner, err := writeRunner()
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(filepath.Dir(runner))
	config, err := languagehost.ConfigEnvironment(req)
	if err != nil {
		return nil, err
	}

	ctx, stop := h.WithinLifetime(ctx)
	defer stop()

	cmd := exec.CommandContext(ctx, python, append([]string{"-u", runner}, runArguments(req, h.Engine(), h.Tracing)...)...)
	cmd.Dir = req.GetPwd()
	cmd.Env = append(opts.environment(os.Environ(), rootDir), config...)
	cmd.Stdout = os.Stdout
	cmd.Stderr = os.Stderr
	return languagehost.RunResponse("the Python program", cmd.Run()), nil
}

func writeRunner() (string, error) {
	dir, err := os.MkdirTemp("", "pulumi-language-python-")
	if err != nil {
		return "", err
	}
	path := filepath.Join(dir, "run_program.py")
	return path, os.WriteFile(path, runProgramScript, 0o600)
}

// runArguments are the runner's flags, then the program and its arguments.
func runArguments(req *pulumirpc.RunRequest, engineAddress, tracing string) []string {
	return append(append(languagehost.RunnerFlags(req, engineAddress, tracing), programEntry(req)), req.GetArgs()...)
}

// programEntry is Pulumi.yaml's `main` (default: the program directory, whose __main__.py runs).
func programEntry(req *pulumirpc.RunRequest) string {
	dir := languagehost.ProgramDirectory(req)
	entry := req.GetInfo().GetEntryPoint()
	if entry == "" {
		entry = "."
	}
	if filepath.IsAbs(entry) {
		return entry
	}
	return filepath.Join(dir, entry)
}
