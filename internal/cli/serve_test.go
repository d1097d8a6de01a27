package cli

import (
	"bytes"
	"context"
	"net/http"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// syncBuffer is a bytes.Buffer safe for a writer and a reader goroutine.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestServe runs `matombo serve` on a free port, checks it answers and
// that cancelling (as Ctrl-C does) stops it cleanly.
func TestServe(t *testing.T) {
	db := filepath.Join(t.TempDir(), "serve.db")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out, errOut syncBuffer
	done := make(chan int, 1)
	go func() {
		done <- Run(ctx, []string{"serve", "--addr", "127.0.0.1:0", "--db", db}, strings.NewReader(""), &out, &errOut)
	}()
	re := regexp.MustCompile(`matombo: serving on (http://127\.0\.0\.1:\d+)\n`)
	var url string
	for deadline := time.Now().Add(10 * time.Second); url == ""; {
		if m := re.FindStringSubmatch(out.String()); m != nil {
			url = m[1]
		} else if time.Now().After(deadline) {
			t.Fatalf("no address printed; stdout %q stderr %q", out.String(), errOut.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	resp, err := http.Get(url + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("healthz: %d", resp.StatusCode)
	}
	cancel()
	select {
	case code := <-done:
		if code != 0 || !strings.Contains(out.String(), "matombo: stopped") {
			t.Fatalf("exit %d; stdout %q stderr %q", code, out.String(), errOut.String())
		}
	case <-time.After(20 * time.Second):
		t.Fatal("serve did not stop")
	}
	if code, _, stderr := run(t, "", "serve", "extra"); code != 2 || !strings.Contains(stderr, "takes no arguments") {
		t.Errorf("serve with an argument: exit %d, stderr %q", code, stderr)
	}
}

// TestServeHostFlag: --host takes names, repeated or as a comma list, and
// refuses what is not a host with a message naming what is allowed.
func TestServeHostFlag(t *testing.T) {
	var h hostList
	if err := h.Set("games.example.com, *.example.org"); err != nil {
		t.Fatal(err)
	}
	if err := h.Set("[::1]:8080"); err != nil {
		t.Fatal(err)
	}
	if got := h.String(); got != "games.example.com,*.example.org,[::1]:8080" {
		t.Errorf("hosts %q", got)
	}
	for _, bad := range []string{"bad host", "http://x.example", ","} {
		if code, _, stderr := run(t, "", "serve", "--addr", "127.0.0.1:0", "--host", bad); code != 2 || !strings.Contains(stderr, "host") {
			t.Errorf("--host %q: exit %d, stderr %q", bad, code, stderr)
		}
	}
	if code, _, stderr := run(t, "", "serve", "--max-sockets", "-1"); code != 2 || !strings.Contains(stderr, "--max-sockets") {
		t.Errorf("--max-sockets -1: exit %d, stderr %q", code, stderr)
	}
}
