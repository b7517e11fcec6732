package main

import (
	"context"
	"os/exec"
	"runtime/debug"
	"strings"
	"sync"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/protobuf/types/known/emptypb"
)

// sdkModule is the Pulumi Go SDK this host is built against; its version is the host's version, so the
// host and the @pulumi/pulumi npm package (same release) report the same number.
const sdkModule = "github.com/pulumi/pulumi/sdk/v3"

// languageHost serves the LanguageRuntime RPCs that `pulumi preview/up/refresh/destroy`, `pulumi about`,
// `pulumi install` and the Automation API use, plus GeneratePackage (generate.go),
// GenerateProgram (program.go) and RunPlugin (plugin.go).
// Project generation, packing, linking and policy packs are left Unimplemented (the embedded type answers them).
type languageHost struct {
	pulumirpc.UnimplementedLanguageRuntimeServer

	tracing     string
	lifetime    context.Context
	endLifetime context.CancelFunc

	mu            sync.Mutex
	engineAddress string // from the command line, or from Handshake when the engine attaches to us
}

func newLanguageHost(engineAddress, tracing string, lifetime context.Context, endLifetime context.CancelFunc,
) *languageHost {
	return &languageHost{
		engineAddress: engineAddress,
		tracing:       tracing,
		lifetime:      lifetime,
		endLifetime:   endLifetime,
	}
}

func (h *languageHost) engine() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.engineAddress
}

// Handshake is only sent when the engine attaches to an already running host (PULUMI_DEBUG_LANGUAGES);
// a launched host gets the engine address as its argument instead.
func (h *languageHost) Handshake(_ context.Context, req *pulumirpc.LanguageHandshakeRequest,
) (*pulumirpc.LanguageHandshakeResponse, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.engineAddress = req.GetEngineAddress()
	return &pulumirpc.LanguageHandshakeResponse{}, nil
}

func (h *languageHost) GetPluginInfo(context.Context, *emptypb.Empty) (*pulumirpc.PluginInfo, error) {
	return &pulumirpc.PluginInfo{Version: sdkVersion()}, nil
}

func sdkVersion() string {
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, dep := range info.Deps {
			if dep.Path == sdkModule {
				return dep.Version
			}
		}
	}
	return ""
}

// Required plugins/packages are empty on purpose: our resources are dynamic, served by the bundled
// `pulumi-nodejs` provider, which the engine loads when the first registration names it. Scanning
// node_modules for provider packages (what upstream does) would only find nothing, slowly.
func (h *languageHost) GetRequiredPlugins(context.Context, *pulumirpc.GetRequiredPluginsRequest,
) (*pulumirpc.GetRequiredPluginsResponse, error) {
	return &pulumirpc.GetRequiredPluginsResponse{}, nil
}

func (h *languageHost) GetRequiredPackages(context.Context, *pulumirpc.GetRequiredPackagesRequest,
) (*pulumirpc.GetRequiredPackagesResponse, error) {
	return &pulumirpc.GetRequiredPackagesResponse{}, nil
}

// InstallDependencies (`pulumi install`, `pulumi new`, Automation API set-up) succeeds without doing
// anything: node_modules is shared by the whole repository and installed by its own set-up, never here.
func (h *languageHost) InstallDependencies(*pulumirpc.InstallDependenciesRequest,
	grpc.ServerStreamingServer[pulumirpc.InstallDependenciesResponse],
) error {
	return nil
}

func (h *languageHost) GetProgramDependencies(context.Context, *pulumirpc.GetProgramDependenciesRequest,
) (*pulumirpc.GetProgramDependenciesResponse, error) {
	return &pulumirpc.GetProgramDependenciesResponse{}, nil
}

func (h *languageHost) RuntimeOptionsPrompts(context.Context, *pulumirpc.RuntimeOptionsRequest,
) (*pulumirpc.RuntimeOptionsResponse, error) {
	return &pulumirpc.RuntimeOptionsResponse{}, nil
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

// Cancel is the engine's request to shut down: running programs are stopped and the server exits.
func (h *languageHost) Cancel(context.Context, *emptypb.Empty) (*emptypb.Empty, error) {
	h.endLifetime()
	return &emptypb.Empty{}, nil
}
