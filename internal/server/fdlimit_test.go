//go:build linux

package server

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/coder/websocket"

	"matombo/internal/app"
	"matombo/internal/store/sqlite"
	"matombo/search"
)

// fdChildEnv makes the test binary the child of TestFileLimitHeadroom.
const fdChildEnv = "MATOMBO_TEST_FD_CHILD"

// childNofile is the child's limit of open files.
const childNofile = 200

// TestFileLimitHeadroom runs the real server in a child process whose limit
// of open files is childNofile, with the default total of sockets (and no
// limit per address, as the test's sockets come from one), opens sockets
// until one is refused, and checks that the refusal is a 503 and that
// /healthz, a page and a new game still work: the default total leaves
// descriptors to the rest of the server.
func TestFileLimitHeadroom(t *testing.T) {
	if os.Getenv(fdChildEnv) != "" {
		fdChild(t)
		return
	}
	if testing.Short() {
		t.Skip("opens a hundred sockets to a child process")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestFileLimitHeadroom$", "-test.v")
	cmd.Env = append(os.Environ(), fdChildEnv+"="+t.TempDir())
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { stdin.Close(); cmd.Wait() }()
	var base string
	sc := bufio.NewScanner(stdout)
	for sc.Scan() {
		if u, ok := strings.CutPrefix(sc.Text(), "URL "); ok {
			base = u
			break
		}
	}
	if base == "" {
		t.Fatal("the child did not start its server")
	}
	go func() {
		for sc.Scan() {
		}
	}()
	client := &http.Client{Timeout: 10 * time.Second}
	post := func(out any) int {
		req, _ := http.NewRequest("POST", base+"/api/games", strings.NewReader(`{"ruleset":"nsolo","opponent":"local"}`))
		req.Header.Set("Content-Type", "application/json")
		resp, err := client.Do(req)
		if err != nil {
			t.Fatalf("create: %v", err)
		}
		defer resp.Body.Close()
		if out != nil {
			json.NewDecoder(resp.Body).Decode(out)
		}
		return resp.StatusCode
	}
	var c app.Created
	if st := post(&c); st != http.StatusCreated {
		t.Fatalf("create: %d", st)
	}
	want := DefaultSockets(childNofile)
	opened := 0
	for opened <= want {
		conn, status, body := dialStatus(t, base, c.ID)
		if conn == nil {
			if status != http.StatusServiceUnavailable || body.Code != app.EUnavailable {
				t.Fatalf("socket %d refused with %d %+v, want 503", opened+1, status, body)
			}
			break
		}
		defer conn.Close(websocket.StatusNormalClosure, "")
		opened++
	}
	if opened != want {
		t.Fatalf("%d sockets open before a refusal, want %d (DefaultSockets(%d))", opened, want, childNofile)
	}
	for _, path := range []string{"/healthz", "/", "/api/games"} {
		resp, err := client.Get(base + path)
		if err != nil {
			t.Fatalf("GET %s with %d sockets open: %v", path, opened, err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Errorf("GET %s with %d sockets open: %d", path, opened, resp.StatusCode)
		}
	}
	for range 5 {
		if st := post(nil); st != http.StatusCreated {
			t.Errorf("create with %d sockets open: %d", opened, st)
		}
	}
	t.Logf("limit of open files %d: %d sockets, then 503; /healthz, pages and new games still served", childNofile, opened)
}

// fdChild is the child of TestFileLimitHeadroom: it lowers its limit of
// open files, serves until its standard input closes, and prints its URL.
func fdChild(t *testing.T) {
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &syscall.Rlimit{Cur: childNofile, Max: childNofile}); err != nil {
		t.Fatal(err)
	}
	store, err := sqlite.Open(context.Background(), filepath.Join(os.Getenv(fdChildEnv), "fd.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		buf := make([]byte, 1)
		os.Stdin.Read(buf)
		cancel()
	}()
	err = Run(ctx, Config{Addr: "127.0.0.1:0", Store: store, AI: search.NewGreedyLevels(1), ShutdownTimeout: time.Second,
		Limits: Limits{SocketsPerAddr: 10 * childNofile},
		Ready:  func(u string) { os.Stdout.WriteString("URL " + u + "\n") }})
	if err != nil {
		t.Fatal(err)
	}
}
