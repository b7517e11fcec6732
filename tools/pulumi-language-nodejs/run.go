package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
)

// The Node.js SDK's program runner; it connects to the engine and loads the user's program.
const runScriptModule = "@pulumi/pulumi/cmd/run"

// The runner exits with this code after it has already reported the failure to the engine (e.g. an
// uncaught exception, logged as a diagnostic): the engine should fail without adding a message of its own.
const exitAfterReportedError = 32

// Run executes one Pulumi program: `node <run script> <flags> <program> [args]`, output passed straight
// through to the engine, which shows it as the program's output.
func (h *languageHost) Run(ctx context.Context, req *pulumirpc.RunRequest) (*pulumirpc.RunResponse, error) {
	nodeBin, err := exec.LookPath("node")
	if err != nil {
		return &pulumirpc.RunResponse{Error: errNodeNotFound(err).Error()}, nil
	}
	runScript, err := resolveModule(ctx, nodeBin, programDirectory(req), runScriptModule)
	if err != nil {
		return &pulumirpc.RunResponse{Error: err.Error()}, nil
	}
	opts, err := parseRuntimeOptions(req.GetInfo().GetOptions().AsMap())
	if err != nil {
		return &pulumirpc.RunResponse{Error: "Pulumi.yaml " + err.Error()}, nil
	}
	env, err := programEnvironment(os.Environ(), req, opts)
	if err != nil {
		return nil, err
	}

	// The program must also stop when the host shuts down (Cancel, engine gone), not only when the
	// engine abandons this call.
	ctx, stop := context.WithCancel(ctx)
	defer stop()
	defer context.AfterFunc(h.lifetime, stop)()

	cmd := exec.CommandContext(ctx, nodeBin, runArguments(req, opts, runScript, h.engine(), h.tracing)...)
	cmd.Dir = req.GetPwd()
	cmd.Env = env
	cmd.Stdout = os.Stdout
	cmd.Stderr = os.Stderr
	return runResponse(cmd.Run()), nil
}

// programDirectory is where the program's package.json and node_modules are looked up from.
func programDirectory(req *pulumirpc.RunRequest) string {
	if dir := req.GetInfo().GetProgramDirectory(); dir != "" {
		return dir
	}
	return req.GetPwd()
}

// resolveModule asks node itself where a module is, so lookup follows Node's rules exactly
// (parent node_modules directories, symlinks, NODE_PATH).
func resolveModule(ctx context.Context, nodeBin, fromDir, module string) (string, error) {
	cmd := exec.CommandContext(ctx, nodeBin, "-e", "process.stdout.write(require.resolve(process.argv[1]))", module)
	cmd.Dir = fromDir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("could not find %s from %s; is @pulumi/pulumi installed in node_modules? (%w)\n%s",
			module, fromDir, err, strings.TrimSpace(stderr.String()))
	}
	return string(out), nil
}

// runArguments is node's command line: the `nodeargs` option, then the SDK's run script and its flags (see
// its usage text in cmd/run/index.ts). Flags use the `--name=value` form so no value can be mistaken for a flag.
func runArguments(req *pulumirpc.RunRequest, opts runtimeOptions, runScript, engineAddress, tracing string) []string {
	args := append(append([]string{}, opts.nodeargs...), runScript)
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
	flag("root-directory", req.GetInfo().GetRootDirectory())
	flag("pwd", req.GetPwd())
	flag("parallel", strconv.Itoa(int(req.GetParallel())))
	flag("tracing", tracing)
	if req.GetDryRun() {
		args = append(args, "--dry-run")
	}
	// The program must be the first positional argument: the runner stops parsing flags there and hands
	// everything after it to the program as its argv.
	args = append(args, programEntry(req))
	return append(args, req.GetArgs()...)
}

// programEntry is what the run script loads: Pulumi.yaml's `main` resolved against the program directory;
// without `main`, the program directory's own package.json decides ("." tells the run script to use its
// `exports`/`main`), and a directory without package.json is the program itself (its index.ts or index.js).
// The run script alone would climb to an enclosing package.json (a repository's, a monorepo's) and run that
// package's `main`: a silent empty preview instead of the user's index.ts.
func programEntry(req *pulumirpc.RunRequest) string {
	entry := req.GetProgram()
	if info := req.GetInfo(); info != nil {
		entry = info.GetEntryPoint()
	}
	dir := programDirectory(req)
	if entry == "" || entry == "." {
		if !fileExists(filepath.Join(dir, "package.json")) && hasIndex(dir) {
			return dir
		}
		return "."
	}
	if filepath.IsAbs(entry) {
		return entry
	}
	return filepath.Join(dir, entry)
}

// hasIndex tells whether node can load dir as a module by itself (with TypeScript compiled on the fly).
func hasIndex(dir string) bool {
	return dir != "" && (fileExists(filepath.Join(dir, "index.ts")) || fileExists(filepath.Join(dir, "index.js")))
}

func fileExists(path string) bool {
	info, err := os.Stat(path)
	return err == nil && !info.IsDir()
}

// programEnvironment is ours plus the stack configuration, which the SDK reads from the environment
// (runtime/config.ts): PULUMI_CONFIG, a JSON object of "namespace:key" → value, and
// PULUMI_CONFIG_SECRET_KEYS, a JSON array of the keys whose values are secrets.
// The runtime options add the run script's TypeScript settings.
func programEnvironment(base []string, req *pulumirpc.RunRequest, opts runtimeOptions) ([]string, error) {
	config := req.GetConfig()
	if config == nil {
		config = map[string]string{}
	}
	configJSON, err := json.Marshal(config)
	if err != nil {
		return nil, fmt.Errorf("serializing stack configuration: %w", err)
	}
	secretKeys := req.GetConfigSecretKeys()
	if secretKeys == nil {
		secretKeys = []string{}
	}
	secretKeysJSON, err := json.Marshal(secretKeys)
	if err != nil {
		return nil, fmt.Errorf("serializing secret configuration keys: %w", err)
	}
	env := append([]string{}, base...)
	env = append(env, opts.environment()...)
	return append(env, "PULUMI_CONFIG="+string(configJSON), "PULUMI_CONFIG_SECRET_KEYS="+string(secretKeysJSON)), nil
}

// runResponse turns how node ended into the engine's terms: Bail = "failed, already explained",
// Error = "failed, show this".
func runResponse(runErr error) *pulumirpc.RunResponse {
	if runErr == nil {
		return &pulumirpc.RunResponse{}
	}
	var exit *exec.ExitError
	if !errors.As(runErr, &exit) {
		return &pulumirpc.RunResponse{Error: "could not start the Node.js program: " + runErr.Error()}
	}
	switch code := exit.ExitCode(); code {
	case exitAfterReportedError:
		return &pulumirpc.RunResponse{Bail: true}
	case -1: // killed by a signal
		return &pulumirpc.RunResponse{Error: "the Node.js program was stopped: " + exit.String()}
	default:
		return &pulumirpc.RunResponse{Error: fmt.Sprintf("the Node.js program exited with code %d", code)}
	}
}

func errNodeNotFound(err error) error {
	return fmt.Errorf("could not find node on PATH: %w", err)
}
