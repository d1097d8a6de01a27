// Command matombo plays the four-row mancala games of Southern and East
// Africa: Tsoro, Misoro and Musoro Tsoro, Nsolo and Choro.
package main

import (
	"fmt"
	"os"
)

func main() {
	fmt.Fprintln(os.Stderr, "usage: matombo <command> [arguments]")
	os.Exit(2)
}
