// Command gen-sdk writes the Go or Python SDK of a package schema with Pulumi's code generator for that language
// (pkg/v3/codegen/go, pkg/v3/codegen/python): what `pulumi package gen-sdk --language go|python` does through the
// language's host, whose module this machine's module proxy refuses to serve.
//
//	gen-sdk go|python SCHEMA_JSON OUT_DIR [VERSION]
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/blang/semver"
	gogen "github.com/pulumi/pulumi/pkg/v3/codegen/go"
	pygen "github.com/pulumi/pulumi/pkg/v3/codegen/python"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
)

// generators are Pulumi's, by language; each names itself gen-sdk-<language> in the files it writes.
var generators = map[string]func(tool string, pkg *schema.Package) (map[string][]byte, error){
	"go": func(tool string, pkg *schema.Package) (map[string][]byte, error) {
		return gogen.GeneratePackage(tool, pkg, nil)
	},
	"python": func(tool string, pkg *schema.Package) (map[string][]byte, error) {
		return pygen.GeneratePackage(tool, pkg, nil, selfContained{})
	},
}

func main() {
	generate, ok := generators[argument(1)]
	if !ok || len(os.Args) < 4 || len(os.Args) > 5 {
		fmt.Fprintln(os.Stderr, "usage: gen-sdk go|python SCHEMA_JSON OUT_DIR [VERSION]")
		os.Exit(2)
	}
	pkg, err := bind(os.Args[2], argument(4))
	if err == nil {
		err = write(generate, "gen-sdk-"+os.Args[1], pkg, os.Args[3])
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "gen-sdk %s: %v\n", os.Args[1], err)
		os.Exit(1)
	}
}

func argument(i int) string {
	if i < len(os.Args) {
		return os.Args[i]
	}
	return ""
}

// bind reads and binds the schema, at `version` when one is given.
func bind(schemaPath, version string) (*schema.Package, error) {
	raw, err := os.ReadFile(schemaPath)
	if err != nil {
		return nil, err
	}
	var spec schema.PackageSpec
	if err := json.Unmarshal(raw, &spec); err != nil {
		return nil, fmt.Errorf("%s is not valid JSON: %w", schemaPath, err)
	}
	if version != "" {
		spec.Version = version
	}
	pkg, diags, err := schema.BindSpec(spec, selfContained{}, schema.ValidationOptions{})
	if err != nil {
		return nil, err
	}
	if diags.HasErrors() {
		return nil, fmt.Errorf("%s: %w", schemaPath, diags)
	}
	return pkg, nil
}

func write(generate func(string, *schema.Package) (map[string][]byte, error), tool string, pkg *schema.Package,
	outDir string,
) error {
	files, err := generate(tool, pkg)
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
