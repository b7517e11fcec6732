package languagehost

import (
	"context"
	"runtime/debug"
	"sync"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/protobuf/types/known/emptypb"
)

// sdkModule is the Pulumi Go SDK the hosts are built against; its version is a host's version: the engine's release,
// that of the @pulumi/pulumi npm package, of `pulumi` on PyPI and of the Go SDK the generated SDKs require.
const sdkModule = "github.com/pulumi/pulumi/sdk/v3"

// Base answers the LanguageRuntime RPCs every host of ours answers alike, and keeps what they share: the engine's
// address, the tracing endpoint and the host's lifetime. A host embeds it and adds Run, About,
// InstallDependencies and what else its language does; the rest stays Unimplemented.
type Base struct {
	pulumirpc.UnimplementedLanguageRuntimeServer

	// Tracing is the engine's tracing endpoint (--tracing), for the program's SDK.
	Tracing     string
	lifetime    context.Context
	endLifetime context.CancelFunc

	mu            sync.Mutex
	engineAddress string // from the command line, or from Handshake when the engine attaches to us
}

// NewBase is the shared part of a host: lifetime ends, by endLifetime, when the engine goes away or cancels.
func NewBase(engineAddress, tracing string, lifetime context.Context, endLifetime context.CancelFunc) *Base {
	return &Base{engineAddress: engineAddress, Tracing: tracing, lifetime: lifetime, endLifetime: endLifetime}
}

// Engine is the engine's address, which the program's SDK connects to.
func (b *Base) Engine() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.engineAddress
}

// WithinLifetime is ctx, also cancelled when the host shuts down (Cancel, engine gone): a program or plugin run
// under it stops then, not only when the engine abandons the call. Call stop when done.
func (b *Base) WithinLifetime(ctx context.Context) (_ context.Context, stop func()) {
	ctx, cancel := context.WithCancel(ctx)
	unregister := context.AfterFunc(b.lifetime, cancel)
	return ctx, func() {
		unregister()
		cancel()
	}
}

// Handshake is only sent when the engine attaches to an already running host (PULUMI_DEBUG_LANGUAGES);
// a launched host gets the engine address as its argument instead.
func (b *Base) Handshake(_ context.Context, req *pulumirpc.LanguageHandshakeRequest,
) (*pulumirpc.LanguageHandshakeResponse, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.engineAddress = req.GetEngineAddress()
	return &pulumirpc.LanguageHandshakeResponse{}, nil
}

// GetPluginInfo is the version of the Pulumi Go SDK the host was built with.
func (b *Base) GetPluginInfo(context.Context, *emptypb.Empty) (*pulumirpc.PluginInfo, error) {
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, dep := range info.Deps {
			if dep.Path == sdkModule {
				return &pulumirpc.PluginInfo{Version: dep.Version}, nil
			}
		}
	}
	return &pulumirpc.PluginInfo{}, nil
}

// Required plugins and packages are empty: the engine loads a provider when the program's first registration names
// it (the bundled pulumi-nodejs for dynamic resources; ours from Pulumi.yaml's `plugins:` or the plugin cache). The
// stock hosts list the installed packages' plugins so that the engine can download missing ones; downloads are off here.
func (b *Base) GetRequiredPlugins(context.Context, *pulumirpc.GetRequiredPluginsRequest,
) (*pulumirpc.GetRequiredPluginsResponse, error) {
	return &pulumirpc.GetRequiredPluginsResponse{}, nil
}

func (b *Base) GetRequiredPackages(context.Context, *pulumirpc.GetRequiredPackagesRequest,
) (*pulumirpc.GetRequiredPackagesResponse, error) {
	return &pulumirpc.GetRequiredPackagesResponse{}, nil
}

func (b *Base) GetProgramDependencies(context.Context, *pulumirpc.GetProgramDependenciesRequest,
) (*pulumirpc.GetProgramDependenciesResponse, error) {
	return &pulumirpc.GetProgramDependenciesResponse{}, nil
}

func (b *Base) RuntimeOptionsPrompts(context.Context, *pulumirpc.RuntimeOptionsRequest,
) (*pulumirpc.RuntimeOptionsResponse, error) {
	return &pulumirpc.RuntimeOptionsResponse{}, nil
}

// Cancel is the engine's request to shut down: running programs are stopped and the server exits.
func (b *Base) Cancel(context.Context, *emptypb.Empty) (*emptypb.Empty, error) {
	b.endLifetime()
	return &emptypb.Empty{}, nil
}
