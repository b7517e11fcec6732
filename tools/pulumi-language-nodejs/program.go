package main

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/pulumi/pulumi/pkg/v3/codegen/hcl2/syntax"
	"github.com/pulumi/pulumi/pkg/v3/codegen/nodejs"
	"github.com/pulumi/pulumi/pkg/v3/codegen/pcl"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
	"github.com/pulumi/pulumi/pkg/v3/resource/plugin"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
)

// GenerateProgram turns a PCL program into TypeScript: what `pulumi import` prints for the user to paste
// (and `pulumi convert --language typescript` writes). Resource types are bound against the schemas the
// engine serves on req.LoaderTarget (e.g. the provider plugin's). Binding problems come back as diagnostics.
func (h *languageHost) GenerateProgram(ctx context.Context, req *pulumirpc.GenerateProgramRequest,
) (*pulumirpc.GenerateProgramResponse, error) {
	loader, err := schema.NewLoaderClient(req.GetLoaderTarget())
	if err != nil {
		return nil, fmt.Errorf("connecting to the engine's schema loader: %w", err)
	}
	defer loader.Close()

	files, diags, err := generateTypeScriptProgram(ctx, req.GetSource(), schema.NewCachedLoader(loader), req.GetStrict())
	if err != nil {
		return nil, err
	}
	return &pulumirpc.GenerateProgramResponse{Source: files, Diagnostics: plugin.HclDiagnosticsToRPCDiagnostics(diags)}, nil
}

// generateTypeScriptProgram parses and binds the PCL files (file name → source) and runs Pulumi's Node.js
// program generator on them: file name → contents (index.ts). Files come back only when binding succeeds.
func generateTypeScriptProgram(ctx context.Context, source map[string]string, loader schema.ReferenceLoader, strict bool,
) (map[string][]byte, hcl.Diagnostics, error) {
	parser := syntax.NewParser()
	// In name order, so diagnostics and the generated code do not depend on map order.
	names := make([]string, 0, len(source))
	for name := range source {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if err := parser.ParseFile(strings.NewReader(source[name]), name); err != nil {
			return nil, nil, fmt.Errorf("reading %s: %w", name, err)
		}
	}
	if parser.Diagnostics.HasErrors() {
		return nil, parser.Diagnostics, nil
	}

	// Invokes in their output form (getVnetOutput), as the stock host prefers for Node.js.
	options := []pcl.BindOption{pcl.PreferOutputVersionedInvokes}
	if !strict {
		options = append(options, pcl.NonStrictBindOptions()...)
	}
	program, diags, err := pcl.BindProgramWithContext(ctx, parser.Files, loader, options...)
	if diags.HasErrors() {
		// The binder also returns them as its error: they are the user's to read, with their locations.
		return nil, diags, nil
	}
	if err != nil {
		return nil, diags, fmt.Errorf("binding the program: %w", err)
	}
	if program == nil {
		return nil, diags, errors.New("binding the program gave no program and no error")
	}
	files, genDiags, err := nodejs.GenerateProgram(program)
	if err != nil {
		return nil, diags, fmt.Errorf("generating TypeScript: %w", err)
	}
	return files, append(diags, genDiags...), nil
}
