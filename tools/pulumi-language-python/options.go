package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// runtimeOptions are the `runtime.options` of Pulumi.yaml that change how a program runs, read as the stock host
// reads them for the pip toolchain (the default): `virtualenv`, a directory relative to the project root.
// `toolchain: poetry|uv` and `typechecker` are refused by name rather than ignored.
type runtimeOptions struct {
	virtualenv string
}

func parseRuntimeOptions(options map[string]any) (runtimeOptions, error) {
	var opts runtimeOptions
	if v, ok := options["virtualenv"]; ok {
		s, ok := v.(string)
		if !ok {
			return opts, fmt.Errorf("runtime.options.virtualenv must be a directory (string), got %v (%T)", v, v)
		}
		opts.virtualenv = s
	}
	if v, ok := options["toolchain"]; ok && v != "pip" {
		return opts, fmt.Errorf("runtime.options.toolchain %v is not supported by this host (only pip)", v)
	}
	if _, ok := options["typechecker"]; ok {
		return opts, fmt.Errorf("runtime.options.typechecker is not supported by this host")
	}
	return opts, nil
}

// virtualenvDir is the virtualenv's absolute directory, or "" when the project names none.
func (o runtimeOptions) virtualenvDir(rootDir string) string {
	if o.virtualenv == "" || filepath.IsAbs(o.virtualenv) {
		return o.virtualenv
	}
	return filepath.Join(rootDir, o.virtualenv)
}

// python is the interpreter a program runs with: the virtualenv's, which must exist, else python3 (or python)
// on PATH, as the stock host chooses.
func (o runtimeOptions) python(rootDir string) (string, error) {
	if venv := o.virtualenvDir(rootDir); venv != "" {
		bin := filepath.Join(venv, "bin", "python")
		if _, err := os.Stat(bin); err != nil {
			return "", fmt.Errorf("the virtualenv %s (runtime.options.virtualenv) has no bin/python: "+
				"run `pulumi install` or `python3 -m venv %s`", venv, o.virtualenv)
		}
		return bin, nil
	}
	for _, name := range []string{"python3", "python"} {
		if bin, err := exec.LookPath(name); err == nil {
			return bin, nil
		}
	}
	return "", fmt.Errorf("could not find python3 or python on PATH")
}

// environment activates the virtualenv for the program and what it starts (VIRTUAL_ENV, its bin/ first on PATH).
func (o runtimeOptions) environment(base []string, rootDir string) []string {
	venv := o.virtualenvDir(rootDir)
	if venv == "" {
		return base
	}
	env := make([]string, 0, len(base)+2)
	path := filepath.Join(venv, "bin")
	for _, kv := range base {
		switch {
		case len(kv) > 5 && kv[:5] == "PATH=":
			path += string(os.PathListSeparator) + kv[5:]
		case len(kv) > 11 && kv[:11] == "PYTHONHOME=":
		default:
			env = append(env, kv)
		}
	}
	return append(env, "PATH="+path, "VIRTUAL_ENV="+venv)
}
