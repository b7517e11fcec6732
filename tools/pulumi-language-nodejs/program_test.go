package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/blang/semver"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
)

// projectSchema is the engine's schema loader when only this project's plugin (schema.json) is installed.
type projectSchema struct{ pkg *schema.Package }

func loadProjectSchema(t *testing.T) projectSchema {
	text, err := os.ReadFile(filepath.Join("..", "..", "schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	var spec schema.PackageSpec
	if err := json.Unmarshal(text, &spec); err != nil {
		t.Fatal(err)
	}
	pkg, diags, err := schema.BindSpec(spec, noOtherPackages{t}, schema.ValidationOptions{})
	if err != nil || diags.HasErrors() {
		t.Fatalf("schema.json: %v %v", err, diags)
	}
	return projectSchema{pkg}
}

func (l projectSchema) find(name string) (*schema.Package, error) {
	if name != l.pkg.Name {
		return nil, fmt.Errorf("no package %s here", name)
	}
	return l.pkg, nil
}

func (l projectSchema) LoadPackage(name string, _ *semver.Version) (*schema.Package, error) {
	return l.find(name)
}

func (l projectSchema) LoadPackageV2(_ context.Context, d *schema.PackageDescriptor) (*schema.Package, error) {
	return l.find(d.Name)
}

func (l projectSchema) LoadPackageReference(name string, _ *semver.Version) (schema.PackageReference, error) {
	pkg, err := l.find(name)
	if err != nil {
		return nil, err
	}
	return pkg.Reference(), nil
}

func (l projectSchema) LoadPackageReferenceV2(_ context.Context, d *schema.PackageDescriptor) (schema.PackageReference, error) {
	return l.LoadPackageReference(d.Name, nil)
}

// What `pulumi import vplatform:index:VirtualMachine web 42` hands the language host. The code imports the package's
// one SDK: schema.json names it (nodejs packageName), so the stock host writes the same import.
const importedVM = `resource web "vplatform:index:VirtualMachine" {
    __logicalName = "web"
    name = "imp-web"
    cpuCores = 2
    ram = 2048
    options {
        protect = true
    }
}
`

func TestGenerateProgramWritesTypeScriptThatDeclaresTheImportedResource(t *testing.T) {
	files, diags, err := generateTypeScriptProgram(context.Background(), map[string]string{"main.pp": importedVM}, loadProjectSchema(t), false)
	if err != nil || diags.HasErrors() {
		t.Fatalf("err %v, diagnostics %v", err, diags)
	}
	code := string(files["index.ts"])
	for _, want := range []string{`import * as vplatform from "vplatform";`, `new vplatform.VirtualMachine("web", {`, `name: "imp-web"`, "cpuCores: 2", "ram: 2048", "protect: true"} {
		if !strings.Contains(code, want) {
			t.Errorf("want %s in:\n%s", want, code)
		}
	}
}

func TestGenerateProgramReportsUnknownTypesAndSyntaxErrorsAsDiagnostics(t *testing.T) {
	loader := loadProjectSchema(t)
	unknown := strings.Replace(importedVM, "VirtualMachine", "NoSuchThing", 1)
	files, diags, err := generateTypeScriptProgram(context.Background(), map[string]string{"main.pp": unknown}, loader, true)
	if err != nil || !diags.HasErrors() || !strings.Contains(diags.Error(), "NoSuchThing") || files != nil {
		t.Errorf("unknown type: err %v, diagnostics %v, %d files", err, diags, len(files))
	}
	files, diags, err = generateTypeScriptProgram(context.Background(), map[string]string{"main.pp": "resource web {"}, loader, false)
	if err != nil || !diags.HasErrors() || files != nil {
		t.Errorf("syntax error: err %v, diagnostics %v, %d files", err, diags, len(files))
	}
}
