package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"

	"github.com/pulumi/pulumi/sdk/v3/go/common/apitype"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
)

// The Node.js SDK's plugin runner: it loads the plugin directory as a module (package.json `main`, or
// index.js), which starts the plugin's gRPC server and prints its port.
const runPluginModule = "@pulumi/pulumi/cmd/run-plugin"

// The Node.js SDK's policy pack runner (`pulumi preview --policy-pack <dir>`, PulumiPolicy.yaml with
// runtime nodejs): `run-policy-pack <engine address> <pack directory>`; the pack (@pulumi/policy) starts
// the analyzer's gRPC server and prints its port.
const runPolicyPackModule = "@pulumi/pulumi/cmd/run-policy-pack"

// RunPlugin starts a plugin written in Node.js: a directory whose PulumiPlugin.yaml says `runtime: nodejs`,
// e.g. a resource provider named by `plugins: providers: - path:` in Pulumi.yaml, or a policy pack. The
// engine reads the plugin's port from the first line of the stdout streamed back here, exactly as from a
// plugin binary.
func (h *languageHost) RunPlugin(req *pulumirpc.RunPluginRequest, server pulumirpc.LanguageRuntime_RunPluginServer,
) error {
	pluginDir := req.GetInfo().GetProgramDirectory()
	if !filepath.IsAbs(pluginDir) {
		pluginDir = filepath.Join(req.GetPwd(), pluginDir)
	}
	nodeBin, err := exec.LookPath("node")
	if err != nil {
		// A Python or Go program's engine comes here too: say why its user needs node.
		return fmt.Errorf("could not find node on PATH: install Node.js 22 LTS or 24 LTS (https://nodejs.org): the "+
			"plugin %s runs on it (PulumiPlugin.yaml: runtime nodejs), whatever the program's language (%w)", pluginDir, err)
	}
	opts, err := parseRuntimeOptions(req.GetInfo().GetOptions().AsMap())
	if err != nil {
		return fmt.Errorf("PulumiPlugin.yaml of %s: %w", pluginDir, err)
	}
	ctx, stop := h.WithinLifetime(server.Context())
	defer stop()
	runner, err := resolveModule(ctx, nodeBin, pluginDir, runnerModule(req))
	if err != nil {
		return err
	}

	out := &pluginOutput{server: server}
	cmd := exec.CommandContext(ctx, nodeBin, pluginArguments(req, pluginDir, opts, runner)...)
	cmd.Dir = req.GetPwd()
	if isPolicyPack(req) {
		// @pulumi/policy reads the pack's version from ./package.json.
		cmd.Dir = pluginDir
	}
	cmd.Env = pluginEnvironment(req, opts)
	cmd.Stdout = out.writer(func(b []byte) *pulumirpc.RunPluginResponse {
		return &pulumirpc.RunPluginResponse{Output: &pulumirpc.RunPluginResponse_Stdout{Stdout: b}}
	})
	cmd.Stderr = out.writer(func(b []byte) *pulumirpc.RunPluginResponse {
		return &pulumirpc.RunPluginResponse{Output: &pulumirpc.RunPluginResponse_Stderr{Stderr: b}}
	})
	runErr := cmd.Run()
	if ctx.Err() != nil {
		// The engine closed the plugin (or the host is shutting down): nobody is listening any more.
		return nil
	}
	code := 0
	var exit *exec.ExitError
	if errors.As(runErr, &exit) {
		code = exit.ExitCode()
	} else if runErr != nil {
		return fmt.Errorf("could not start the Node.js plugin in %s: %w", pluginDir, runErr)
	}
	// The last message: the engine reports a plugin that ended by itself with this code.
	return out.send(&pulumirpc.RunPluginResponse{Output: &pulumirpc.RunPluginResponse_Exitcode{Exitcode: int32(code)}})
}

func isPolicyPack(req *pulumirpc.RunPluginRequest) bool {
	return req.GetKind() == string(apitype.AnalyzerPlugin)
}

func runnerModule(req *pulumirpc.RunPluginRequest) string {
	if isPolicyPack(req) {
		return runPolicyPackModule
	}
	return runPluginModule
}

// pluginArguments is node's command line: `nodeargs`, the runner, the plugin directory (the module it
// loads), then the engine's arguments for the plugin (its address, logging flags), which the runner
// hands to the plugin as its process.argv. The policy pack runner takes the engine's address first.
func pluginArguments(req *pulumirpc.RunPluginRequest, pluginDir string, opts runtimeOptions, runner string) []string {
	args := append(append([]string{}, opts.nodeargs...), runner)
	if isPolicyPack(req) {
		return append(append(args, req.GetArgs()...), pluginDir)
	}
	return append(append(args, pluginDir), req.GetArgs()...)
}

// pluginEnvironment is the one the engine chose for the plugin (its own, plus any it adds), or ours when
// the engine sent none, plus the runtime options' TypeScript settings.
func pluginEnvironment(req *pulumirpc.RunPluginRequest, opts runtimeOptions) []string {
	env := req.GetEnv()
	if len(env) == 0 {
		env = os.Environ()
	}
	return append(append([]string{}, env...), opts.environment()...)
}

// pluginOutput streams the plugin's stdout and stderr to the engine. exec copies each of them on its own
// goroutine, and a gRPC stream takes one Send at a time.
type pluginOutput struct {
	mu     sync.Mutex
	server pulumirpc.LanguageRuntime_RunPluginServer
}

func (o *pluginOutput) send(resp *pulumirpc.RunPluginResponse) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.server.Send(resp)
}

func (o *pluginOutput) writer(message func([]byte) *pulumirpc.RunPluginResponse) *streamWriter {
	return &streamWriter{out: o, message: message}
}

type streamWriter struct {
	out     *pluginOutput
	message func([]byte) *pulumirpc.RunPluginResponse
}

func (w *streamWriter) Write(p []byte) (int, error) {
	if err := w.out.send(w.message(append([]byte(nil), p...))); err != nil {
		return 0, err
	}
	return len(p), nil
}
