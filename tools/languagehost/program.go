package languagehost

import (
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"strconv"

	"github.com/pulumi/pulumi/sdk/v3/go/common/constant"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
)

// ProgramDirectory is the program's directory (Pulumi.yaml's `main` directory), else the working directory.
func ProgramDirectory(req *pulumirpc.RunRequest) string {
	if dir := req.GetInfo().GetProgramDirectory(); dir != "" {
		return dir
	}
	return req.GetPwd()
}

// RunnerFlags are the flags of the SDK's program runner (Node.js's cmd/run, our Python run_program.py), in the
// `--name=value` form so that no value can be taken for a flag: the engine's addresses, the stack's identity, the
// directories, the parallelism, `--tracing` and `--dry-run`. The program and its arguments come after them.
func RunnerFlags(req *pulumirpc.RunRequest, engineAddress, tracing string) []string {
	var args []string
	flag := func(name, value string) {
		if value != "" {
			args = append(args, "--"+name+"="+value)
		}
	}
	flag("monitor", req.GetMonitorAddress())
	flag("engine", engineAddress)
	flag("organization", req.GetOrganization())
	flag("project", req.GetProject())
	flag("stack", req.GetStack())
	flag("root-directory", req.GetInfo().GetRootDirectory())
	flag("pwd", req.GetPwd())
	flag("parallel", strconv.Itoa(int(req.GetParallel())))
	flag("tracing", tracing)
	if req.GetDryRun() {
		args = append(args, "--dry-run")
	}
	return args
}

// ConfigEnvironment is the stack configuration as every SDK reads it from the environment: PULUMI_CONFIG, a JSON
// object of "namespace:key" → value, and PULUMI_CONFIG_SECRET_KEYS, a JSON array of the keys whose values are
// secrets (both empty JSON, not null, when there is none).
func ConfigEnvironment(req *pulumirpc.RunRequest) ([]string, error) {
	config := req.GetConfig()
	if config == nil {
		config = map[string]string{}
	}
	configJSON, err := json.Marshal(config)
	if err != nil {
		return nil, fmt.Errorf("serializing stack configuration: %w", err)
	}
	secretKeys := req.GetConfigSecretKeys()
	if secretKeys == nil {
		secretKeys = []string{}
	}
	secretKeysJSON, err := json.Marshal(secretKeys)
	if err != nil {
		return nil, fmt.Errorf("serializing secret configuration keys: %w", err)
	}
	return []string{"PULUMI_CONFIG=" + string(configJSON), "PULUMI_CONFIG_SECRET_KEYS=" + string(secretKeysJSON)}, nil
}

// RunResponse turns how a program ended into the engine's terms: every SDK's runner exits with
// ExitStatusLoggedError (32) after reporting its error to the engine, which then fails without a message of its own
// (Bail); any other failure is shown (Error). `program` names it: "the Go program".
func RunResponse(program string, runErr error) *pulumirpc.RunResponse {
	if runErr == nil {
		return &pulumirpc.RunResponse{}
	}
	var exit *exec.ExitError
	if !errors.As(runErr, &exit) {
		return &pulumirpc.RunResponse{Error: "could not start " + program + ": " + runErr.Error()}
	}
	switch code := exit.ExitCode(); code {
	case constant.ExitStatusLoggedError:
		return &pulumirpc.RunResponse{Bail: true}
	case -1: // killed by a signal
		return &pulumirpc.RunResponse{Error: program + " was stopped: " + exit.String()}
	default:
		return &pulumirpc.RunResponse{Error: fmt.Sprintf("%s exited with code %d", program, code)}
	}
}

// InstallOutput sends a command's output to the engine, which shows it as `pulumi install`'s.
type InstallOutput struct {
	Server grpc.ServerStreamingServer[pulumirpc.InstallDependenciesResponse]
}

func (w InstallOutput) Write(p []byte) (int, error) {
	if err := w.Server.Send(&pulumirpc.InstallDependenciesResponse{Stdout: append([]byte{}, p...)}); err != nil {
		return 0, err
	}
	return len(p), nil
}
