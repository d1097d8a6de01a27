package web

// The offline engine, static/engine.wasm, is built by TestEngineWasmFresh
// (wasmbuild_test.go) when MATOMBO_WRITE_WASM=1, from cmd/matombo-wasm:
//
//	GOOS=js GOARCH=wasm go build -trimpath -buildvcs=false -ldflags='-s -w' -o static/engine.wasm ./cmd/matombo-wasm
//
// Rebuild it after a change to the engine's Go code (mancala, search,
// internal/offline, cmd/matombo-wasm) with go generate ./internal/web.

//go:generate env MATOMBO_WRITE_WASM=1 go test -count=1 -run TestEngineWasmFresh .
