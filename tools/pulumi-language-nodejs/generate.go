package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/hashicorp/hcl/v2"

	"github.com/pulumi/pulumi/pkg/v3/codegen/nodejs"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
	"github.com/pulumi/pulumi/pkg/v3/resource/plugin"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
)

// generatorName is written into every generated file's "do not edit" header.
const generatorName = "pulumi-language-nodejs"

// GeneratePackage writes the Node.js SDK of a package schema into req.Directory (`pulumi package gen-sdk
// --language nodejs`, `pulumi package add`). The engine serves the schemas of referenced packages on
// req.LoaderTarget. Schema problems come back as diagnostics, not as an RPC failure, so the CLI can show
// them with their locations.
func (h *languageHost) GeneratePackage(ctx context.Context, req *pulumirpc.GeneratePackageRequest,
) (*pulumirpc.GeneratePackageResponse, error) {
	loader, err := schema.NewLoaderClient(req.GetLoaderTarget())
	if err != nil {
		return nil, fmt.Errorf("connecting to the engine's schema loader: %w", err)
	}
	defer loader.Close()
	cached := schema.NewCachedLoader(loader)

	files, diags, err := generateNodejsPackage([]byte(req.GetSchema()), cached, req)
	if err != nil {
		return nil, err
	}
	response := &pulumirpc.GeneratePackageResponse{Diagnostics: plugin.HclDiagnosticsToRPCDiagnostics(diags)}
	if diags.HasErrors() {
		return response, nil
	}
	return response, writeFiles(req.GetDirectory(), files)
}

// generateNodejsPackage binds the schema (references to other packages may stay unresolved, as the stock
// host allows) and runs Pulumi's Node.js code generator on it: file name → contents.
func generateNodejsPackage(schemaJSON []byte, loader schema.ReferenceLoader, req *pulumirpc.GeneratePackageRequest,
) (map[string][]byte, hcl.Diagnostics, error) {
	var spec schema.PackageSpec
	if err := json.Unmarshal(schemaJSON, &spec); err != nil {
		return nil, nil, fmt.Errorf("the package schema is not valid JSON: %w", err)
	}
	pkg, diags, err := schema.BindSpec(spec, loader, schema.ValidationOptions{AllowDanglingReferences: true})
	if err != nil {
		return nil, nil, fmt.Errorf("binding the package schema: %w", err)
	}
	if diags.HasErrors() {
		return nil, diags, nil
	}
	files, err := nodejs.GeneratePackage(generatorName, pkg, req.GetExtraFiles(), req.GetLocalDependencies(),
		req.GetLocal(), loader)
	if err != nil {
		return nil, diags, fmt.Errorf("generating the Node.js SDK of %s: %w", pkg.Name, err)
	}
	return files, diags, nil
}

func writeFiles(directory string, files map[string][]byte) error {
	for name, data := range files {
		path := filepath.Join(directory, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return fmt.Errorf("creating %s: %w", filepath.Dir(path), err)
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			return fmt.Errorf("writing %s: %w", path, err)
		}
	}
	return nil
}
