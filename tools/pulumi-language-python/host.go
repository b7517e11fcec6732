package main

import (
	"context"
	"os/exec"
	"runtime/debug"
	"strings"
	"sync"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/protobuf/types/known/emptypb"
)

// sdkModule is the Pulumi Go SDK this host is built against; its version is the host's version (the engine's
// release, and the release of `pulumi` on PyPI the generated SDK requires).
const sdkModule = "github.com/pulumi/pulumi/sdk/v3"

// languageHost serves the LanguageRuntime RPCs that `pulumi preview/up/refresh/destroy`, `pulumi about`,
// `pulumi install` and the Automation API use for a `runtime: python` project. The others (code generation,
// packing, linking, plugins and policy packs written in Python) are left Unimplemented.
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
	return &languageHost{engineAddress: engineAddress, tracing: tracing, lifetime: lifetime, endLifetime: endLifetime}
}

func (h *languageHost) engine() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.engineAddress
}

// Handshake is only sent when the engine attaches to an already running host (PULUMI_DEBUG_LANGUAGES).
func (h *languageHost) Handshake(_ context.Context, req *pulumirpc.LanguageHandshakeRequest,
) (*pulumirpc.LanguageHandshakeResponse, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.engineAddress = req.GetEngineAddress()
	return &pulumirpc.LanguageHandshakeResponse{}, nil
}

func (h *languageHost) GetPluginInfo(context.Context, *emptypb.Empty) (*pulumirpc.PluginInfo, error) {
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, dep := range info.Deps {
			if dep.Path == sdkModule {
				return &pulumirpc.PluginInfo{Version: dep.Version}, nil
			}
		}
	}
	return &pulumirpc.PluginInfo{}, nil
}

// Required plugins/packages are empty: the engine loads a provider when the program's first registration names
// it, from Pulumi.yaml's `plugins:` or the plugin cache. (The stock host lists the pulumi-plugin.json of every
// installed package, so that the engine can download missing plugins; downloads are off here.)
func (h *languageHost) GetRequiredPlugins(context.Context, *pulumirpc.GetRequiredPluginsRequest,
) (*pulumirpc.GetRequiredPluginsResponse, error) {
	return &pulumirpc.GetRequiredPluginsResponse{}, nil
}

func (h *languageHost) GetRequiredPackages(context.Context, *pulumirpc.GetRequiredPackagesRequest,
) (*pulumirpc.GetRequiredPackagesResponse, error) {
	return &pulumirpc.GetRequiredPackagesResponse{}, nil
}

func (h *languageHost) GetProgramDependencies(context.Context, *pulumirpc.GetProgramDependenciesRequest,
) (*pulumirpc.GetProgramDependenciesResponse, error) {
	return &pulumirpc.GetProgramDependenciesResponse{}, nil
}

func (h *languageHost) RuntimeOptionsPrompts(context.Context, *pulumirpc.RuntimeOptionsRequest,
) (*pulumirpc.RuntimeOptionsResponse, error) {
	return &pulumirpc.RuntimeOptionsResponse{}, nil
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

// Cancel is the engine's request to shut down: running programs are stopped and the server exits.
func (h *languageHost) Cancel(context.Context, *emptypb.Empty) (*emptypb.Empty, error) {
	h.endLifetime()
	return &emptypb.Empty{}, nil
}
