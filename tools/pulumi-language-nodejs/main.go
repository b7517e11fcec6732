// Command pulumi-language-nodejs is the Pulumi engine's language host for `runtime: nodejs` projects: it runs the
// program with node (run.go) and plugin directories written in Node.js (plugin.go), and generates SDKs and programs
// (generate.go, program.go). Its start and the RPCs all our hosts answer alike: tools/languagehost.
package main

import (
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"vplatform.local/tools/languagehost"
)

func main() {
	languagehost.Serve("pulumi-language-nodejs", func(base *languagehost.Base) pulumirpc.LanguageRuntimeServer {
		return &languageHost{Base: base}
	})
}
