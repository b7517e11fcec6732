package main

import "fmt"

// runtimeOptions are the `runtime.options` of Pulumi.yaml the stock Go host reads: `binary`, a prebuilt program
// to run instead of building one (relative to the program directory), and `buildTarget`, the package to build.
type runtimeOptions struct {
	binary      string
	buildTarget string
}

func parseRuntimeOptions(options map[string]any) (runtimeOptions, error) {
	var opts runtimeOptions
	for name, field := range map[string]*string{"binary": &opts.binary, "buildTarget": &opts.buildTarget} {
		if v, ok := options[name]; ok {
			s, ok := v.(string)
			if !ok {
				return opts, fmt.Errorf("runtime.options.%s must be a path (string), got %v (%T)", name, v, v)
			}
			*field = s
		}
	}
	return opts, nil
}
