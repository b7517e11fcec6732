package main

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
)

// runProgramScript connects the Python SDK to the engine and runs the user's program (the stock host's
// pulumi-language-python-exec does this; it ships with the CLI, which we build from Go modules without it).
//
//go:embed run_program.py
var runProgramScript []byte

// The runner exits with this code after it has reported the failure to the engine itself.
const exitAfterReportedError = 32

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
	env, err := programEnvironment(opts.environment(os.Environ(), rootDir), req)
	if err != nil {
		return nil, err
	}

	// The program must also stop when the host shuts down (Cancel, engine gone).
	ctx, stop := context.WithCancel(ctx)
	defer stop()
	defer context.AfterFunc(h.lifetime, stop)()

	cmd := exec.CommandContext(ctx, python, append([]string{"-u", runner}, runArguments(req, h.engine(), h.tracing)...)...)
	cmd.Dir = req.GetPwd()
	cmd.Env = env
	cmd.Stdout = os.Stdout
	cmd.Stderr = os.Stderr
	return runResponse(cmd.Run()), nil
}

func writeRunner() (string, error) {
	dir, err := os.MkdirTemp("", "pulumi-language-python-")
	if err != nil {
		return "", err
	}
	path := filepath.Join(dir, "run_program.py")
	return path, os.WriteFile(path, runProgramScript, 0o600)
}

// runArguments are the runner's flags (`--name=value`, so no value is taken for a flag), then the program.
func runArguments(req *pulumirpc.RunRequest, engineAddress, tracing string) []string {
	var args []string
	flag := func(name, value string) {
		if value != "" {
			args = append(args, "--"+name+"="+value)
		}
	}
	flag("monitor", req.GetMonitorAddress())
	flag("engine", engineAddress)
	flag("organization", req.GetOrganization())
	flag("project", req.GetProject())
	flag("stack", req.GetStack())
	flag("root_directory", req.GetInfo().GetRootDirectory())
	flag("pwd", req.GetPwd())
	flag("parallel", strconv.Itoa(int(req.GetParallel())))
	flag("tracing", tracing)
	if req.GetDryRun() {
		args = append(args, "--dry_run=true")
	}
	return append(append(args, programEntry(req)), req.GetArgs()...)
}

// programEntry is Pulumi.yaml's `main` (default: the program directory, whose __main__.py runs).
func programEntry(req *pulumirpc.RunRequest) string {
	dir := req.GetInfo().GetProgramDirectory()
	if dir == "" {
		dir = req.GetPwd()
	}
	entry := req.GetInfo().GetEntryPoint()
	if entry == "" {
		entry = "."
	}
	if filepath.IsAbs(entry) {
		return entry
	}
	return filepath.Join(dir, entry)
}

// programEnvironment adds the stack configuration, which the SDK reads from the environment: PULUMI_CONFIG, a
// JSON object of "namespace:key" → value, and PULUMI_CONFIG_SECRET_KEYS, a JSON array of the secret keys.
func programEnvironment(base []string, req *pulumirpc.RunRequest) ([]string, error) {
	config := req.GetConfig()
	if config == nil {
		config = map[string]string{}
	}
	secretKeys := req.GetConfigSecretKeys()
	if secretKeys == nil {
		secretKeys = []string{}
	}
	configJSON, err := json.Marshal(config)
	if err != nil {
		return nil, err
	}
	secretKeysJSON, err := json.Marshal(secretKeys)
	if err != nil {
		return nil, err
	}
	return append(append([]string{}, base...),
		"PULUMI_CONFIG="+string(configJSON), "PULUMI_CONFIG_SECRET_KEYS="+string(secretKeysJSON)), nil
}

// runResponse turns how python ended into the engine's terms: Bail = "failed, already explained".
func runResponse(runErr error) *pulumirpc.RunResponse {
	if runErr == nil {
		return &pulumirpc.RunResponse{}
	}
	var exit *exec.ExitError
	if !errors.As(runErr, &exit) {
		return &pulumirpc.RunResponse{Error: "could not start the Python program: " + runErr.Error()}
	}
	switch code := exit.ExitCode(); code {
	case exitAfterReportedError:
		return &pulumirpc.RunResponse{Bail: true}
	case -1:
		return &pulumirpc.RunResponse{Error: "the Python program was stopped: " + exit.String()}
	default:
		return &pulumirpc.RunResponse{Error: fmt.Sprintf("the Python program exited with code %d", code)}
	}
}
