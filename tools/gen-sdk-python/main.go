// Command gen-sdk-python writes the Python SDK of a package schema with Pulumi's Python code generator
// (pkg/v3/codegen/python): what `pulumi package gen-sdk --language python` does through the Python language
// host, whose module this machine's module proxy refuses to serve.
//
//	gen-sdk-python SCHEMA_JSON OUT_DIR [VERSION]
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/blang/semver"
	pygen "github.com/pulumi/pulumi/pkg/v3/codegen/python"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
)

func main() {
	if len(os.Args) < 3 || len(os.Args) > 4 {
		fmt.Fprintln(os.Stderr, "usage: gen-sdk-python SCHEMA_JSON OUT_DIR [VERSION]")
		os.Exit(2)
	}
	version := ""
	if len(os.Args) == 4 {
		version = os.Args[3]
	}
	if err := generate(os.Args[1], os.Args[2], version); err != nil {
		fmt.Fprintln(os.Stderr, "gen-sdk-python:", err)
		os.Exit(1)
	}
}

func generate(schemaPath, outDir, version string) error {
	raw, err := os.ReadFile(schemaPath)
	if err != nil {
		return err
	}
	var spec schema.PackageSpec
	if err := json.Unmarshal(raw, &spec); err != nil {
		return fmt.Errorf("%s is not valid JSON: %w", schemaPath, err)
	}
	if version != "" {
		spec.Version = version
	}
	pkg, diags, err := schema.BindSpec(spec, selfContained{}, schema.ValidationOptions{})
	if err != nil {
		return err
	}
	if diags.HasErrors() {
		return fmt.Errorf("%s: %w", schemaPath, diags)
	}
	files, err := pygen.GeneratePackage("gen-sdk-python", pkg, nil, selfContained{})
	if err != nil {
		return err
	}
	for name, data := range files {
		path := filepath.Join(outDir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// selfContained is the schema loader for a schema that references no other package.
type selfContained struct{}

var errSelfContained = errors.New("the schema references another package; only self-contained schemas are supported")

func (selfContained) LoadPackage(string, *semver.Version) (*schema.Package, error) {
	return nil, errSelfContained
}

func (selfContained) LoadPackageV2(context.Context, *schema.PackageDescriptor) (*schema.Package, error) {
	return nil, errSelfContained
}

func (selfContained) LoadPackageReference(string, *semver.Version) (schema.PackageReference, error) {
	return nil, errSelfContained
}

func (selfContained) LoadPackageReferenceV2(context.Context, *schema.PackageDescriptor) (schema.PackageReference, error) {
	return nil, errSelfContained
}
