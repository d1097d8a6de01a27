//go:build js && wasm

// Command matombo-wasm is the offline page's engine compiled to WebAssembly
// (GOOS=js GOARCH=wasm): it sets the global function matomboEngine, which
// takes one JSON request of package offline as a string and returns its
// JSON answer, calls the global function matomboReady (if the worker set
// one) to say so, and then waits for calls. The page runs it in a Web Worker
// (internal/web/static/js/engine-worker.js). The committed build is
// internal/web/static/engine.wasm; see internal/web/engine.go for
// the command that makes it and the test that keeps it fresh.
package main

import (
	"syscall/js"

	"matombo/internal/offline"
)

func main() {
	var e offline.Engine
	js.Global().Set("matomboEngine", js.FuncOf(func(_ js.Value, args []js.Value) any {
		if len(args) != 1 || args[0].Type() != js.TypeString {
			return `{"ok":false,"error":"offline engine: call matomboEngine with one JSON string"}`
		}
		return string(e.Handle([]byte(args[0].String())))
	}))
	if ready := js.Global().Get("matomboReady"); ready.Type() == js.TypeFunction {
		ready.Invoke()
	}
	select {}
}
