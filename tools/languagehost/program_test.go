package languagehost

import (
	"errors"
	"os/exec"
	"slices"
	"strings"
	"testing"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
)

func TestConfigEnvironmentCarriesConfigAndSecretKeysAsJSON(t *testing.T) {
	env, err := ConfigEnvironment(&pulumirpc.RunRequest{
		Config:           map[string]string{"proj:x": "y", "vplatform:apiKey": "k"},
		ConfigSecretKeys: []string{"vplatform:apiKey"},
	})
	want := []string{`PULUMI_CONFIG={"proj:x":"y","vplatform:apiKey":"k"}`, `PULUMI_CONFIG_SECRET_KEYS=["vplatform:apiKey"]`}
	if err != nil || !slices.Equal(env, want) {
		t.Fatalf("environment = %v, %v\nwant %v", env, err, want)
	}
}

func TestConfigEnvironmentWithoutConfigIsEmptyJSONNotNull(t *testing.T) {
	env, err := ConfigEnvironment(&pulumirpc.RunRequest{})
	if want := []string{"PULUMI_CONFIG={}", "PULUMI_CONFIG_SECRET_KEYS=[]"}; err != nil || !slices.Equal(env, want) {
		t.Fatalf("environment = %v, %v\nwant %v", env, err, want)
	}
}

func TestProgramDirectoryIsTheProgramsElseTheWorkingDirectory(t *testing.T) {
	if dir := ProgramDirectory(&pulumirpc.RunRequest{Pwd: "/w", Info: &pulumirpc.ProgramInfo{ProgramDirectory: "/w/app"}}); dir != "/w/app" {
		t.Errorf("with a program directory: %s", dir)
	}
	if dir := ProgramDirectory(&pulumirpc.RunRequest{Pwd: "/w"}); dir != "/w" {
		t.Errorf("without: %s", dir)
	}
}

func exitWith(t *testing.T, script string) error {
	t.Helper()
	err := exec.Command("sh", "-c", script).Run()
	if err == nil && script != "exit 0" {
		t.Fatalf("sh -c %q unexpectedly succeeded", script)
	}
	return err
}

func TestRunResponseMapsHowTheProgramEnded(t *testing.T) {
	const program = "the Go program"
	if r := RunResponse(program, exitWith(t, "exit 0")); r.Error != "" || r.Bail {
		t.Errorf("success: %v", r)
	}
	if r := RunResponse(program, exitWith(t, "exit 32")); !r.Bail || r.Error != "" {
		t.Errorf("exit 32 (error already reported) must bail silently: %v", r)
	}
	if r := RunResponse(program, exitWith(t, "exit 3")); r.Bail || r.Error != "the Go program exited with code 3" {
		t.Errorf("other exit codes must be reported: %v", r)
	}
	if r := RunResponse(program, exitWith(t, "kill -9 $$")); r.Bail || !strings.Contains(r.Error, "killed") {
		t.Errorf("a signal must be reported: %v", r)
	}
	if r := RunResponse(program, errors.New("exec: no such file")); !strings.HasPrefix(r.Error, "could not start the Go program") {
		t.Errorf("a failure to start must be reported: %v", r)
	}
}
