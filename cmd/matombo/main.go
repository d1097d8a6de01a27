// Command matombo plays the four-row mancala games of Southern and East
// Africa: Tsoro, Misoro and Musoro Tsoro, Nsolo and Choro. It only wires the
// process to package internal/cli, where the subcommands live.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"matombo/internal/cli"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := cli.Run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
