package main

import (
	"os/exec"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
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
	out := streamWriter{server}
	cmd.Stdout = out
	cmd.Stderr = out
	return cmd.Run()
}

// streamWriter sends a command's output to the engine, which shows it as `pulumi install`'s.
type streamWriter struct {
	server grpc.ServerStreamingServer[pulumirpc.InstallDependenciesResponse]
}

func (w streamWriter) Write(p []byte) (int, error) {
	if err := w.server.Send(&pulumirpc.InstallDependenciesResponse{Stdout: append([]byte{}, p...)}); err != nil {
		return 0, err
	}
	return len(p), nil
}
