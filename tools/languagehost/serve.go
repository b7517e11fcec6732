// Package languagehost is what our language hosts (tools/pulumi-language-nodejs, -python, -go) share.
//
// Plugin protocol (what the engine expects of any language host):
//   - the engine starts it as `pulumi-language-<lang> [--logtostderr] [-v=N] [--tracing URL] <engine-address>`;
//   - the host serves the pulumirpc.LanguageRuntime gRPC service on 127.0.0.1 and prints the port as the
//     first line of stdout;
//   - every later stdout/stderr line (the host's and the program's) is shown by the engine as program output.
package languagehost

import (
	"context"
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/pulumi/pulumi/sdk/v3/go/common/util/cmdutil"
	"github.com/pulumi/pulumi/sdk/v3/go/common/util/logging"
	"github.com/pulumi/pulumi/sdk/v3/go/common/util/rpcutil"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
)

// How often to check that the engine is still alive; if it is gone the host exits rather than linger as an orphan.
const engineHealthInterval = time.Minute

// Serve is a host's main: it reads the engine's command line, serves the host that newHost makes around the
// shared Base until the engine goes away or asks it to Cancel, and prints the port the engine reads.
func Serve(name string, newHost func(*Base) pulumirpc.LanguageRuntimeServer) {
	// --logtostderr and -v are registered by the logging package (glog flags); the engine forwards them.
	tracing := flag.String("tracing", "", "Zipkin-compatible tracing endpoint, passed to the program where its SDK takes it")
	// Accepted for compatibility with engines that pass it; every request carries its own root directory.
	flag.String("root", "", "project root directory (unused)")
	flag.Parse()
	logging.InitLogging(false, 0, false)
	cmdutil.InitTracing(name, name, *tracing)

	engineAddress := flag.Arg(0)

	// lifetime ends when the engine disappears or asks us to Cancel; it stops the server and any running program.
	lifetime, endLifetime := context.WithCancel(context.Background())
	defer endLifetime()
	if engineAddress != "" {
		if err := rpcutil.Healthcheck(lifetime, engineAddress, engineHealthInterval, endLifetime); err != nil {
			cmdutil.Exit(fmt.Errorf("could not start health check against the engine: %w", err))
		}
	}

	stopServing := make(chan bool)
	go func() {
		<-lifetime.Done()
		close(stopServing)
	}()

	host := newHost(NewBase(engineAddress, *tracing, lifetime, endLifetime))
	handle, err := rpcutil.ServeWithOptions(rpcutil.ServeOptions{
		Init: func(srv *grpc.Server) error {
			pulumirpc.RegisterLanguageRuntimeServer(srv, host)
			return nil
		},
		Cancel:  stopServing,
		Options: rpcutil.TracingServerInterceptorOptions(nil),
	})
	if err != nil {
		cmdutil.Exit(fmt.Errorf("could not start the language host gRPC server: %w", err))
	}

	// The engine reads exactly this line to learn where to connect.
	fmt.Fprintf(os.Stdout, "%d\n", handle.Port)

	if err := <-handle.Done; err != nil {
		cmdutil.Exit(fmt.Errorf("language host stopped serving: %w", err))
	}
}
