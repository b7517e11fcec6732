package main

import (
	"os/exec"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"vplatform.local/tools/languagehost"
)

// InstallDependencies (`pulumi install`) downloads the program's modules (`go mod download`), output streamed to
// the engine.
func (h *languageHost) InstallDependencies(req *pulumirpc.InstallDependenciesRequest,
	server grpc.ServerStreamingServer[pulumirpc.InstallDependenciesResponse],
) error {
	goBin, err := exec.LookPath("go")
	if err != nil {
		return errGoNotFound(err)
	}
	cmd := exec.Command(goBin, "mod", "download")
	cmd.Dir = req.GetInfo().GetProgramDirectory()
	out := languagehost.InstallOutput{Server: server}
	cmd.Stdout = out
	cmd.Stderr = out
	return cmd.Run()
}
