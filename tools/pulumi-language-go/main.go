// Command pulumi-language-go is the Pulumi engine's language host for `runtime: go` projects: it builds the program
// with `go build` and runs it (run.go). Its start and the RPCs all our hosts answer alike: tools/languagehost.
package main

import (
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"vplatform.local/tools/languagehost"
)

func main() {
	languagehost.Serve("pulumi-language-go", func(base *languagehost.Base) pulumirpc.LanguageRuntimeServer {
		return &languageHost{Base: base}
	})
}
