package main

import (
	"context"
	"os/exec"
	"strings"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"vplatform.local/tools/languagehost"
)

// languageHost serves the LanguageRuntime RPCs that `pulumi preview/up/refresh/destroy`, `pulumi about`,
// `pulumi install` and the Automation API use for a `runtime: python` project: Run (run.go), InstallDependencies
// (install.go), About, and the ones every host answers alike (languagehost.Base). The others (code generation,
// packing, linking, plugins and policy packs written in Python) are left Unimplemented.
type languageHost struct {
	*languagehost.Base
}

// About reports the Python the project runs with (its virtualenv's, or python3 on PATH) and its version.
func (h *languageHost) About(ctx context.Context, req *pulumirpc.AboutRequest) (*pulumirpc.AboutResponse, error) {
	opts, err := parseRuntimeOptions(req.GetInfo().GetOptions().AsMap())
	if err != nil {
		return nil, err
	}
	python, err := opts.python(req.GetInfo().GetRootDirectory())
	if err != nil {
		return nil, err
	}
	out, err := exec.CommandContext(ctx, python, "--version").Output()
	if err != nil {
		return nil, err
	}
	return &pulumirpc.AboutResponse{
		Executable: python,
		Version:    strings.TrimPrefix(strings.TrimSpace(string(out)), "Python "),
	}, nil
}
