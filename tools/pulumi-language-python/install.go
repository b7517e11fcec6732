package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"vplatform.local/tools/languagehost"
)

// InstallDependencies (`pulumi install`, Automation API set-up) does what the stock host does for pip: makes the
// virtualenv Pulumi.yaml names when it is missing, then `pip install -r requirements.txt` into it (or into the
// python on PATH when there is no virtualenv), pip's output streamed to the engine.
func (h *languageHost) InstallDependencies(req *pulumirpc.InstallDependenciesRequest,
	server grpc.ServerStreamingServer[pulumirpc.InstallDependenciesResponse],
) error {
	opts, err := parseRuntimeOptions(req.GetInfo().GetOptions().AsMap())
	if err != nil {
		return fmt.Errorf("Pulumi.yaml %w", err)
	}
	rootDir := req.GetInfo().GetRootDirectory()
	out := languagehost.InstallOutput{Server: server}
	if venv := opts.virtualenvDir(rootDir); venv != "" {
		if _, err := os.Stat(filepath.Join(venv, "bin", "python")); err != nil {
			system, err := runtimeOptions{}.python(rootDir)
			if err != nil {
				return err
			}
			if err := runTo(out, rootDir, system, "-m", "venv", venv); err != nil {
				return fmt.Errorf("creating the virtualenv %s: %w", venv, err)
			}
		}
	}
	requirements := filepath.Join(req.GetInfo().GetProgramDirectory(), "requirements.txt")
	if _, err := os.Stat(requirements); err != nil {
		return nil
	}
	python, err := opts.python(rootDir)
	if err != nil {
		return err
	}
	if err := runTo(out, filepath.Dir(requirements), python, "-m", "pip", "install", "-r", requirements); err != nil {
		return fmt.Errorf("pip install -r %s: %w", requirements, err)
	}
	return nil
}

func runTo(out languagehost.InstallOutput, dir, name string, args ...string) error {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Stdout = out
	cmd.Stderr = out
	return cmd.Run()
}
