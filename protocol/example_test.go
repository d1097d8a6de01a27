package protocol_test

import (
	"context"
	"fmt"
	"os"
	"strings"

	"matombo/protocol"
)

func ExampleEngine_Handle() {
	e := protocol.New(protocol.Config{Seed: 1})
	for _, line := range []string{"legal", "new tsoro size=6", "play a1", "legal", "play d1", "play stop", "result"} {
		answer, _ := e.Handle(line)
		fmt.Println(answer)
	}
	// Output:
	// error no game yet; start one with new <ruleset>, such as new tsoro size=8
	// ok
	// ok
	// legal a6 stop
	// error illegal action d1: the last stone is in your head a6: relay from it or stop; legal actions are a6 stop
	// ok
	// result none
}

func ExampleEngine_Run() {
	in := strings.NewReader("new nsolo\r\nshow\r\ngo depth 1\r\nquit\r\nshow\r\n")
	if err := protocol.New(protocol.Config{Seed: 7}).Run(context.Background(), in, os.Stdout); err != nil {
		fmt.Println(err)
	}
	// Output:
	// ok
	// position 2,2,2,2,2,2,2,2/0,2,2,2,2,2,2,2/2,2,2,2,2,2,2,0/2,2,2,2,2,2,2,2 S
	// bestmove a4
}
