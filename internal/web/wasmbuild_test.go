package web

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
)

// The offline engine, static/engine.wasm, is cmd/matombo-wasm built with
//
//	GOOS=js GOARCH=wasm go build -trimpath -buildvcs=false -ldflags='-s -w' -o static/engine.wasm ./cmd/matombo-wasm
//
// and committed, so that the app needs no build step. Rebuild it, and its
// record engine-wasm.txt (the toolchain and a hash of the Go sources it was
// built from), with go generate ./internal/web (see engine.go).
//
// -trimpath takes the paths of this machine out of the binary and
// -buildvcs=false the commit, so the same sources and toolchain give the
// same bytes in any checkout. TestEngineWasmFresh checks that the committed
// file is that build: with the toolchain of the record it rebuilds and
// compares the bytes; with any toolchain it compares the hash of the
// sources, so a change to the engine's Go code without a rebuild fails
// everywhere.

const (
	wasmFile   = "static/engine.wasm"
	wasmRecord = "engine-wasm.txt"
	// maxWasmGzip is the most bytes engine.wasm may take gzip-compressed.
	maxWasmGzip = 1_500_000
)

// buildWasm builds cmd/matombo-wasm into out.
func buildWasm(t *testing.T, out string) {
	t.Helper()
	cmd := exec.Command("go", "build", "-trimpath", "-buildvcs=false", "-ldflags=-s -w", "-o", out, "./cmd/matombo-wasm")
	cmd.Dir = moduleRoot(t)
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm", "GOWASM=", "CGO_ENABLED=0", "GOFLAGS=")
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("building the engine: %v\n%s", err, msg)
	}
}

// moduleRoot is the directory of go.mod, two levels up.
func moduleRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("no go.mod at %s: %v", root, err)
	}
	return root
}

// sourceHash hashes go.mod and the Go files of the module's packages that
// cmd/matombo-wasm is built from (for js/wasm), by module path and content.
func sourceHash(t *testing.T) string {
	t.Helper()
	root := moduleRoot(t)
	cmd := exec.Command("go", "list", "-deps", "-f", "{{if not .Standard}}{{.Dir}}{{range .GoFiles}} {{.}}{{end}}{{end}}", "./cmd/matombo-wasm")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm", "GOFLAGS=")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	files := []string{filepath.Join(root, "go.mod")}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		if len(fields) == 0 {
			continue
		}
		for _, f := range fields[1:] {
			files = append(files, filepath.Join(fields[0], f))
		}
	}
	sort.Strings(files)
	h := sha256.New()
	for _, f := range files {
		rel, err := filepath.Rel(root, f)
		if err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(h, "%s %d\n", filepath.ToSlash(rel), len(data))
		h.Write(data)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// record is the text of engine-wasm.txt for a build by this toolchain.
func record(t *testing.T) string {
	return fmt.Sprintf("toolchain %s\nsources %s\n", runtime.Version(), sourceHash(t))
}

func gzipSize(t *testing.T, data []byte) int {
	t.Helper()
	var buf bytes.Buffer
	zw, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := zw.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Len()
}

func TestEngineWasmFresh(t *testing.T) {
	if os.Getenv("MATOMBO_WRITE_WASM") == "1" {
		out := filepath.Join(moduleRoot(t), "internal/web", wasmFile)
		buildWasm(t, out)
		if err := os.Chmod(out, 0o644); err != nil { // a served file, not a program
			t.Fatal(err)
		}
		if err := os.WriteFile(wasmRecord, []byte(record(t)), 0o644); err != nil {
			t.Fatal(err)
		}
		// This test binary embeds the file as it was; the next run checks
		// the new one.
		return
	}
	committed, err := fs.ReadFile(FS, "engine.wasm")
	if err != nil {
		t.Fatalf("engine.wasm is not embedded: %v", err)
	}
	if ondisk, err := os.ReadFile(wasmFile); err != nil || !bytes.Equal(ondisk, committed) {
		t.Fatalf("%s differs from the embedded file (rebuild the test binary): %v", wasmFile, err)
	}
	rec, err := os.ReadFile(wasmRecord)
	if err != nil {
		t.Fatal(err)
	}
	var toolchain, sources string
	if _, err := fmt.Sscanf(string(rec), "toolchain %s\nsources %s\n", &toolchain, &sources); err != nil {
		t.Fatalf("%s: %v", wasmRecord, err)
	}
	if got := sourceHash(t); got != sources {
		t.Fatalf("engine.wasm is stale: the engine's Go sources changed since it was built (hash %s, built from %s); run go generate ./internal/web", got, sources)
	}
	gz := gzipSize(t, committed)
	t.Logf("engine.wasm: %d bytes, %d gzip-compressed (limit %d)", len(committed), gz, maxWasmGzip)
	if gz > maxWasmGzip {
		t.Errorf("engine.wasm takes %d bytes gzip-compressed; the limit is %d", gz, maxWasmGzip)
	}
	if toolchain != runtime.Version() {
		// Another toolchain builds other bytes from the same sources; the
		// hash above has checked the sources.
		t.Logf("engine.wasm was built by %s, this is %s: its bytes are compared only with %s; its sources match", toolchain, runtime.Version(), toolchain)
		return
	}
	fresh := filepath.Join(t.TempDir(), "engine.wasm")
	buildWasm(t, fresh)
	built, err := os.ReadFile(fresh)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(built, committed) {
		t.Fatalf("engine.wasm is stale: a fresh build (%d bytes) differs from the committed file (%d bytes); run go generate ./internal/web", len(built), len(committed))
	}
}
