// Command pulumi-language-python is the Pulumi engine's language host for `runtime: python` projects: it runs the
// program with the project's virtualenv (run.go). Its start and the RPCs all our hosts answer alike:
// tools/languagehost.
package main

import (
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"vplatform.local/tools/languagehost"
)

func main() {
	languagehost.Serve("pulumi-language-python", func(base *languagehost.Base) pulumirpc.LanguageRuntimeServer {
		return &languageHost{Base: base}
	})
}
