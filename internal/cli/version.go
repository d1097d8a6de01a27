package cli

import (
	"context"
	"fmt"
	"runtime"
	"runtime/debug"
)

func versionCommand() command {
	return command{
		name:    "version",
		summary: "print the version, the source revision and the Go version",
		usage: `usage: matombo version

Prints the module version, the source revision (when built from a git
checkout) and the Go toolchain, platform and GOMAXPROCS.

example:
  matombo version
`,
		run: runVersion,
	}
}

func runVersion(_ context.Context, e *env, args []string) int {
	if len(args) > 0 {
		return e.usageError("version", "takes no arguments, got %q", args[0])
	}
	version, revision, modified := "(devel)", "unknown", ""
	if info, ok := debug.ReadBuildInfo(); ok {
		if info.Main.Version != "" {
			version = info.Main.Version
		}
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				revision = s.Value
			case "vcs.modified":
				if s.Value == "true" {
					modified = " (modified)"
				}
			}
		}
	}
	fmt.Fprintf(e.stdout, "matombo %s, revision %s%s\n%s %s/%s, GOMAXPROCS=%d\n",
		version, revision, modified, runtime.Version(), runtime.GOOS, runtime.GOARCH, runtime.GOMAXPROCS(0))
	return exitOK
}
