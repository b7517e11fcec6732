package main

import (
	"context"
	"os/exec"
	"strings"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"vplatform.local/tools/languagehost"
)

// languageHost serves the LanguageRuntime RPCs that `pulumi preview/up/refresh/destroy`, `pulumi about`,
// `pulumi install` and the Automation API use: Run (run.go), InstallDependencies, About and the ones every host
// answers alike (languagehost.Base); plus GeneratePackage (generate.go), GenerateProgram (program.go) and RunPlugin
// (plugin.go). Project generation, packing, linking and policy packs are left Unimplemented.
type languageHost struct {
	*languagehost.Base
}

// InstallDependencies (`pulumi install`, `pulumi new`, Automation API set-up) succeeds without doing
// anything: node_modules is shared by the whole repository and installed by its own set-up, never here.
func (h *languageHost) InstallDependencies(*pulumirpc.InstallDependenciesRequest,
	grpc.ServerStreamingServer[pulumirpc.InstallDependenciesResponse],
) error {
	return nil
}

// About reports the node executable and its version (`pulumi about`).
func (h *languageHost) About(ctx context.Context, _ *pulumirpc.AboutRequest) (*pulumirpc.AboutResponse, error) {
	nodeBin, err := exec.LookPath("node")
	if err != nil {
		return nil, errNodeNotFound(err)
	}
	out, err := exec.CommandContext(ctx, nodeBin, "--version").Output()
	if err != nil {
		return nil, err
	}
	return &pulumirpc.AboutResponse{
		Executable: nodeBin,
		Version:    strings.TrimPrefix(strings.TrimSpace(string(out)), "v"),
	}, nil
}
