package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"vplatform.local/tools/languagehost"
)

// Run builds the program (`go build` in the program directory, as the stock host does, unless Pulumi.yaml's
// `binary` option names a prebuilt one), then runs the binary with the engine's settings in its environment, which
// pulumi.Run reads (sdk/go/pulumi/run.go). Build errors and the program's output pass straight to the engine.
func (h *languageHost) Run(ctx context.Context, req *pulumirpc.RunRequest) (*pulumirpc.RunResponse, error) {
	opts, err := parseRuntimeOptions(req.GetInfo().GetOptions().AsMap())
	if err != nil {
		return &pulumirpc.RunResponse{Error: "Pulumi.yaml " + err.Error()}, nil
	}
	ctx, stop := h.WithinLifetime(ctx)
	defer stop()

	dir := languagehost.ProgramDirectory(req)
	binary := opts.binary
	if binary == "" {
		tmp, err := os.MkdirTemp("", "pulumi-go-program-")
		if err != nil {
			return nil, err
		}
		defer os.RemoveAll(tmp)
		binary = filepath.Join(tmp, "program")
		if err := build(ctx, dir, binary, opts.buildTarget); err != nil {
			return &pulumirpc.RunResponse{Error: err.Error()}, nil
		}
	} else if !filepath.IsAbs(binary) {
		binary = filepath.Join(dir, binary)
	}
	env, err := programEnvironment(os.Environ(), req, h.Engine())
	if err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, binary, req.GetArgs()...)
	cmd.Dir = req.GetPwd()
	cmd.Env = env
	cmd.Stdout = os.Stdout
	cmd.Stderr = os.Stderr
	return languagehost.RunResponse("the Go program", cmd.Run()), nil
}

// build compiles the program's main package (the directory, or `buildTarget`) with the flags the stock host uses.
// GOFLAGS and the rest of Go's environment are the user's: e.g. -mod=mod, or the tags of a shared build cache.
func build(ctx context.Context, dir, out, target string) error {
	goBin, err := exec.LookPath("go")
	if err != nil {
		return errGoNotFound(err)
	}
	if target == "" {
		target = "."
	}
	cmd := exec.CommandContext(ctx, goBin, "build", "-buildvcs=false", "-o", out, target)
	cmd.Dir = dir
	cmd.Stdout = os.Stderr
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("go build of the program in %s failed (its errors are above): %w", dir, err)
	}
	return nil
}

// programEnvironment is ours plus what pulumi.Run reads: the stack's identity, the engine's addresses and the
// configuration (languagehost.ConfigEnvironment).
func programEnvironment(base []string, req *pulumirpc.RunRequest, engineAddress string) ([]string, error) {
	config, err := languagehost.ConfigEnvironment(req)
	if err != nil {
		return nil, err
	}
	return append(append(append([]string{}, base...),
		"PULUMI_ORGANIZATION="+req.GetOrganization(),
		"PULUMI_PROJECT="+req.GetProject(),
		"PULUMI_STACK="+req.GetStack(),
		"PULUMI_ROOT_DIRECTORY="+req.GetInfo().GetRootDirectory()),
		append(config,
			"PULUMI_DRY_RUN="+strconv.FormatBool(req.GetDryRun()),
			"PULUMI_PARALLEL="+strconv.Itoa(int(req.GetParallel())),
			"PULUMI_MONITOR="+req.GetMonitorAddress(),
			"PULUMI_ENGINE="+engineAddress,
		)...), nil
}

func errGoNotFound(err error) error {
	return fmt.Errorf("could not find go on PATH (a Go program is built with it): %w", err)
}
