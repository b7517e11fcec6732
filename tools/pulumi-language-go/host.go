package main

import (
	"context"
	"os/exec"
	"strings"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"vplatform.local/tools/languagehost"
)

// languageHost serves the LanguageRuntime RPCs that `pulumi preview/up/refresh/destroy`, `pulumi about`,
// `pulumi install` and the Automation API use for a `runtime: go` project: Run (run.go), InstallDependencies
// (install.go), About, and the ones every host answers alike (languagehost.Base). The others (code generation,
// packing, linking, plugins and policy packs written in Go) are left Unimplemented.
type languageHost struct {
	*languagehost.Base
}

// About reports the go toolchain that builds the program (`go version`).
func (h *languageHost) About(ctx context.Context, _ *pulumirpc.AboutRequest) (*pulumirpc.AboutResponse, error) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		return nil, errGoNotFound(err)
	}
	out, err := exec.CommandContext(ctx, goBin, "env", "GOVERSION").Output()
	if err != nil {
		return nil, err
	}
	return &pulumirpc.AboutResponse{Executable: goBin, Version: strings.TrimPrefix(strings.TrimSpace(string(out)), "go")}, nil
}
