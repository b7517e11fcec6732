package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"vplatform.local/tools/languagehost"
)

// The Node.js SDK's program runner; it connects to the engine and loads the user's program.
const runScriptModule = "@pulumi/pulumi/cmd/run"

// Run executes one Pulumi program: `node <run script> <flags> <program> [args]`, output passed straight
// through to the engine, which shows it as the program's output.
func (h *languageHost) Run(ctx context.Context, req *pulumirpc.RunRequest) (*pulumirpc.RunResponse, error) {
	nodeBin, err := exec.LookPath("node")
	if err != nil {
		return &pulumirpc.RunResponse{Error: errNodeNotFound(err).Error()}, nil
	}
	runScript, err := resolveModule(ctx, nodeBin, languagehost.ProgramDirectory(req), runScriptModule)
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

	ctx, stop := h.WithinLifetime(ctx)
	defer stop()

	cmd := exec.CommandContext(ctx, nodeBin, runArguments(req, opts, runScript, h.Engine(), h.Tracing)...)
	cmd.Dir = req.GetPwd()
	cmd.Env = env
	cmd.Stdout = os.Stdout
	cmd.Stderr = os.Stderr
	return languagehost.RunResponse("the Node.js program", cmd.Run()), nil
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
// its usage text in cmd/run/index.ts).
func runArguments(req *pulumirpc.RunRequest, opts runtimeOptions, runScript, engineAddress, tracing string) []string {
	args := append(append(append([]string{}, opts.nodeargs...), runScript), languagehost.RunnerFlags(req, engineAddress, tracing)...)
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
	dir := languagehost.ProgramDirectory(req)
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

// programEnvironment is ours, the runtime options' TypeScript settings for the run script, and the stack
// configuration (languagehost.ConfigEnvironment).
func programEnvironment(base []string, req *pulumirpc.RunRequest, opts runtimeOptions) ([]string, error) {
	config, err := languagehost.ConfigEnvironment(req)
	if err != nil {
		return nil, err
	}
	env := append(append([]string{}, base...), opts.environment()...)
	return append(env, config...), nil
}

func errNodeNotFound(err error) error {
	return fmt.Errorf("could not find node on PATH: %w", err)
}
