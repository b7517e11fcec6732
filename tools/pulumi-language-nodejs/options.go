package main

import (
	"fmt"
	"strconv"

	"github.com/google/shlex"
)

// runtimeOptions are the `runtime.options` of Pulumi.yaml (or PulumiPlugin.yaml) that change how a program runs, read as the stock
// host reads them (packagemanager and production only matter to installing, which we leave to npm).
type runtimeOptions struct {
	// typescript: the run script compiles .ts files on the fly (ts-node). Defaults to true, so a project made
	// by `pulumi new typescript` (`runtime: nodejs`, no options) runs its index.ts.
	typescript bool
	// tsconfig: the tsconfig file handed to the run script instead of ./tsconfig.json.
	tsconfig string
	// nodeargs: extra arguments for node itself, before the run script (e.g. --max-old-space-size=4096).
	nodeargs []string
}

func parseRuntimeOptions(options map[string]any) (runtimeOptions, error) {
	opts := runtimeOptions{typescript: true}
	if v, ok := options["typescript"]; ok {
		b, ok := v.(bool)
		if !ok {
			return opts, optionError("typescript", "true or false", v)
		}
		opts.typescript = b
	}
	if v, ok := options["tsconfig"]; ok {
		s, ok := v.(string)
		if !ok {
			return opts, optionError("tsconfig", "a path (string)", v)
		}
		opts.tsconfig = s
	}
	if v, ok := options["nodeargs"]; ok {
		s, ok := v.(string)
		if !ok {
			return opts, optionError("nodeargs", "a string of node arguments", v)
		}
		args, err := shlex.Split(s)
		if err != nil {
			return opts, fmt.Errorf("runtime.options.nodeargs %q: %w", s, err)
		}
		opts.nodeargs = args
	}
	return opts, nil
}

func optionError(name, want string, got any) error {
	return fmt.Errorf("runtime.options.%s must be %s, got %v (%T)", name, want, got, got)
}

// environment is what the run script reads to compile TypeScript (cmd/run/run.ts of @pulumi/pulumi).
// "false" is explicit so that a value inherited from our own environment cannot turn it on.
func (o runtimeOptions) environment() []string {
	env := []string{"PULUMI_NODEJS_TYPESCRIPT=" + strconv.FormatBool(o.typescript)}
	if o.tsconfig != "" {
		env = append(env, "PULUMI_NODEJS_TSCONFIG_PATH="+o.tsconfig)
	}
	return env
}
