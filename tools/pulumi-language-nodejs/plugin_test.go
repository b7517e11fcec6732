package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/protobuf/types/known/structpb"
	"vplatform.local/tools/languagehost"
)

// recordedStream is the engine's end of a RunPlugin call: what the host sent, in order.
type recordedStream struct {
	grpc.ServerStream
	ctx      context.Context
	mu       sync.Mutex
	stdout   strings.Builder
	stderr   strings.Builder
	exitCode *int32
	afterEnd int // messages sent after the exit code (must be none)
}

func (s *recordedStream) Context() context.Context { return s.ctx }

func (s *recordedStream) Send(resp *pulumirpc.RunPluginResponse) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.exitCode != nil {
		s.afterEnd++
	}
	switch out := resp.Output.(type) {
	case *pulumirpc.RunPluginResponse_Stdout:
		s.stdout.Write(out.Stdout)
	case *pulumirpc.RunPluginResponse_Stderr:
		s.stderr.Write(out.Stderr)
	case *pulumirpc.RunPluginResponse_Exitcode:
		s.exitCode = &out.Exitcode
	}
	return nil
}

func testHost(t *testing.T) *languageHost {
	lifetime, end := context.WithCancel(context.Background())
	t.Cleanup(end)
	return &languageHost{Base: languagehost.NewBase("", "", lifetime, end)}
}

// A plugin directory inside this repository, so node resolves @pulumi/pulumi from its node_modules.
func pluginDir(t *testing.T, index string) string {
	dir, err := os.MkdirTemp(".", "testplugin-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	abs, _ := filepath.Abs(dir)
	for name, text := range map[string]string{"PulumiPlugin.yaml": "runtime: nodejs\n", "index.js": index} {
		if err := os.WriteFile(filepath.Join(abs, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return abs
}

func TestRunPluginRunsThePluginDirectoryWithTheEnginesArgumentsAndStreamsItsOutput(t *testing.T) {
	dir := pluginDir(t, `console.log("4242");
console.log(JSON.stringify({ argv: process.argv.slice(2), cwd: process.cwd(), marker: process.env.PLUGIN_MARKER }));
console.error("a line on stderr");
process.exitCode = 3;
`)
	pwd := t.TempDir()
	stream := &recordedStream{ctx: context.Background()}
	req := &pulumirpc.RunPluginRequest{
		Pwd: pwd,
		// Flags (-v=9, --logtostderr) are the runner's own; the engine's address is what reaches the plugin.
		Args: []string{"127.0.0.1:5555"},
		Env:  append(os.Environ(), "PLUGIN_MARKER=from-the-engine"),
		Kind: "resource",
		Info: &pulumirpc.ProgramInfo{RootDirectory: dir, ProgramDirectory: dir, EntryPoint: "."},
	}
	if err := testHost(t).RunPlugin(req, stream); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(stream.stdout.String()), "\n")
	if lines[0] != "4242" {
		t.Fatalf("the port must be the first line of stdout, got %q", stream.stdout.String())
	}
	var seen struct {
		Argv   []string
		Cwd    string
		Marker string
	}
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &seen); err != nil {
		t.Fatalf("%v in %q (stderr %q)", err, stream.stdout.String(), stream.stderr.String())
	}
	if !slices.Equal(seen.Argv, req.Args) || seen.Cwd != pwd || seen.Marker != "from-the-engine" {
		t.Errorf("the plugin saw %+v", seen)
	}
	if !strings.Contains(stream.stderr.String(), "a line on stderr") {
		t.Errorf("stderr %q", stream.stderr.String())
	}
	if stream.exitCode == nil || *stream.exitCode != 3 || stream.afterEnd != 0 {
		t.Errorf("the exit code must be the last message: %v, %d after it", stream.exitCode, stream.afterEnd)
	}
}

func TestRunPluginStopsThePluginWhenTheEngineClosesIt(t *testing.T) {
	dir := pluginDir(t, `console.log("1"); setInterval(() => {}, 1000);`)
	ctx, closePlugin := context.WithCancel(context.Background())
	stream := &recordedStream{ctx: ctx}
	done := make(chan error, 1)
	go func() {
		done <- testHost(t).RunPlugin(&pulumirpc.RunPluginRequest{Pwd: dir, Info: &pulumirpc.ProgramInfo{ProgramDirectory: dir}}, stream)
	}()
	for {
		stream.mu.Lock()
		started := stream.stdout.Len() > 0
		stream.mu.Unlock()
		if started {
			break
		}
		time.Sleep(10 * time.Millisecond)
		select {
		case err := <-done:
			t.Fatalf("the plugin ended by itself: %v, stderr %q", err, stream.stderr.String())
		default:
		}
	}
	closePlugin()
	if err := <-done; err != nil || stream.exitCode != nil {
		t.Errorf("a plugin the engine closed is no failure and gets no exit message: %v, %v", err, stream.exitCode)
	}
}

func TestPolicyPacksRunThroughThePolicyPackRunnerWithTheEngineAddressFirst(t *testing.T) {
	req := &pulumirpc.RunPluginRequest{Kind: "analyzer", Args: []string{"127.0.0.1:4242"}}
	if runnerModule(req) != "@pulumi/pulumi/cmd/run-policy-pack" {
		t.Errorf("runner %q", runnerModule(req))
	}
	args := pluginArguments(req, "/repo/node_modules/vplatform/policy", runtimeOptions{nodeargs: []string{"--no-warnings"}}, "/r/run-policy-pack")
	want := []string{"--no-warnings", "/r/run-policy-pack", "127.0.0.1:4242", "/repo/node_modules/vplatform/policy"}
	if !slices.Equal(args, want) {
		t.Errorf("policy pack arguments %q, want %q", args, want)
	}
	plugin := pluginArguments(&pulumirpc.RunPluginRequest{Args: []string{"-v=9"}}, "/p", runtimeOptions{}, "/r/run-plugin")
	if !slices.Equal(plugin, []string{"/r/run-plugin", "/p", "-v=9"}) {
		t.Errorf("plugin arguments %q", plugin)
	}
}

func TestRunPluginRefusesBadOptions(t *testing.T) {
	dir := pluginDir(t, "")
	options, _ := structpb.NewStruct(map[string]any{"typescript": "yes"})
	err := testHost(t).RunPlugin(&pulumirpc.RunPluginRequest{Info: &pulumirpc.ProgramInfo{ProgramDirectory: dir, Options: options}}, &recordedStream{ctx: context.Background()})
	if err == nil || !strings.Contains(err.Error(), "PulumiPlugin.yaml") || !strings.Contains(err.Error(), "typescript") {
		t.Errorf("bad option: %v", err)
	}
}
