package web

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/base64"
	"io"
	"io/fs"
	"net/http"
	"path"
	"strings"
	"sync"
	"time"
)

// contentTypes maps the extensions of the embedded files to their types.
var contentTypes = map[string]string{
	".html":        "text/html; charset=utf-8",
	".js":          "text/javascript; charset=utf-8",
	".css":         "text/css; charset=utf-8",
	".svg":         "image/svg+xml",
	".json":        "application/json",
	".png":         "image/png",
	".txt":         "text/plain; charset=utf-8",
	".wasm":        "application/wasm",
	".webmanifest": "application/manifest+json",
}

// ContentType returns the type a file is served with, by its extension.
func ContentType(name string) string {
	if t, ok := contentTypes[path.Ext(name)]; ok {
		return t
	}
	return "application/octet-stream"
}

// compressible lists the extensions of the files sent gzip-compressed to
// clients that accept it; the others (PNG) are compressed already.
var compressible = map[string]bool{
	".html": true, ".js": true, ".css": true, ".svg": true, ".json": true,
	".txt": true, ".wasm": true, ".webmanifest": true,
}

// asset is one file as it is served: its content, its gzip encoding and
// their entity tags, made once, on the file's first request.
type asset struct {
	name string // the file's name, for its type
	once sync.Once
	data []byte
	gz   []byte // the gzip encoding; nil when the file is sent as it is
	etag string // the strong entity tag of data: a hash of the content
}

// prepare hashes and compresses the asset (once).
func (a *asset) prepare() {
	a.once.Do(func() {
		sum := sha256.Sum256(a.data)
		a.etag = `"` + base64.RawURLEncoding.EncodeToString(sum[:12]) + `"`
		if !compressible[path.Ext(a.name)] {
			return
		}
		var buf bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression) // a valid level: no error
		_, _ = zw.Write(a.data)                                  // writes to a bytes.Buffer do not fail
		_ = zw.Close()
		if buf.Len() < len(a.data) {
			a.gz = buf.Bytes()
		}
	})
}

// gzipTag returns the entity tag of the gzip encoding of a file whose
// content's tag is etag: another representation, so another strong tag.
func gzipTag(etag string) string { return strings.TrimSuffix(etag, `"`) + `.gz"` }

// assets keeps the files of FS as served, each prepared on first use: a
// Handler is cheap to make, and the large engine is compressed only when a
// client asks for it.
type assets struct {
	mu    sync.Mutex
	files map[string]*asset
}

// static returns the asset of the file name of FS, or nil if there is none.
func (s *assets) static(name string) *asset {
	s.mu.Lock()
	defer s.mu.Unlock()
	if a, ok := s.files[name]; ok {
		return a
	}
	data, err := fs.ReadFile(FS, name)
	if err != nil {
		return nil
	}
	a := &asset{name: name, data: data}
	if s.files == nil {
		s.files = map[string]*asset{}
	}
	s.files[name] = a
	return a
}

// page returns a new asset of a rendered shell.
func page(file string, data []byte) *asset { return &asset{name: file, data: data} }

// serve answers the asset a with status: gzip-compressed when the client
// accepts it and the file compresses, with its entity tag, and 304 Not
// Modified to a GET or HEAD whose If-None-Match names that tag. Every
// answer says to revalidate (no-cache): the names carry no version.
func serve(w http.ResponseWriter, r *http.Request, a *asset, status int) {
	a.prepare()
	hdr := w.Header()
	hdr.Set("Content-Type", ContentType(a.name))
	hdr.Set("Cache-Control", "no-cache")
	data, etag := a.data, a.etag
	if compressible[path.Ext(a.name)] {
		hdr.Add("Vary", "Accept-Encoding")
		if a.gz != nil && acceptsGzip(r) {
			hdr.Set("Content-Encoding", "gzip")
			data, etag = a.gz, gzipTag(a.etag)
		}
	}
	if status != http.StatusOK {
		w.WriteHeader(status)
		if r.Method != http.MethodHead {
			_, _ = w.Write(data)
		}
		return
	}
	hdr.Set("ETag", etag)
	// ServeContent answers If-None-Match (304, for HEAD too), HEAD and
	// ranges; without a modification time it sends no Last-Modified, so
	// the entity tag alone decides.
	http.ServeContent(w, r, a.name, time.Time{}, bytes.NewReader(data))
}

// missingFile answers 404 with a line of text to a request for a missing
// image, script or data (a browser says which with Sec-Fetch-Dest), and
// reports whether it did: the not-found page, which embeds its catalog
// (some 16 KB compressed), is for a person to read.
func missingFile(w http.ResponseWriter, r *http.Request) bool {
	if d := r.Header.Get("Sec-Fetch-Dest"); d == "" || d == "document" || d == "iframe" {
		return false
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusNotFound)
	_, _ = io.WriteString(w, "web: no file at "+r.URL.Path+"\n")
	return true
}

// acceptsGzip reports whether the request's Accept-Encoding allows gzip.
func acceptsGzip(r *http.Request) bool {
	for _, part := range strings.Split(r.Header.Get("Accept-Encoding"), ",") {
		coding, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		if strings.EqualFold(strings.TrimSpace(coding), "gzip") || strings.TrimSpace(coding) == "*" {
			q := strings.ReplaceAll(strings.TrimSpace(params), " ", "")
			return q != "q=0" && q != "q=0.0" && q != "q=0.00" && q != "q=0.000"
		}
	}
	return false
}
