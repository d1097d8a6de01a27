package web

import (
	"bytes"
	"fmt"
	"io/fs"
	"path"
	"regexp"
)

var (
	// moduleScript is a shell's page module.
	moduleScript = regexp.MustCompile(`<script type="module" src="/static/(js/[^"]+\.js)"></script>`)
	// staticImport is a module's static import (or re-export) of another.
	staticImport = regexp.MustCompile(`(?m)^(?:import|export)\s[^;"'` + "`" + `]*?from\s*"(\./[^"]+)"|^import\s*"(\./[^"]+)"`)
)

// Imports returns the modules the module file (a path in FS) needs, its
// static imports followed to the end, nearest first, without file itself.
func Imports(file string) ([]string, error) { return newModuleGraph().imports(file) }

// moduleGraph keeps each module's imports once read, for the rendering of
// every shell in every language (each module's source is scanned once).
type moduleGraph struct {
	direct map[string][]string // a module's own static imports
}

func newModuleGraph() *moduleGraph { return &moduleGraph{direct: map[string][]string{}} }

// deps returns the static imports of the module f, read once.
func (g *moduleGraph) deps(f string) ([]string, error) {
	if d, ok := g.direct[f]; ok {
		return d, nil
	}
	src, err := fs.ReadFile(FS, f)
	if err != nil {
		return nil, fmt.Errorf("web: module %s: %w", f, err)
	}
	var out []string
	for _, m := range staticImport.FindAllSubmatch(src, -1) {
		dep := path.Join(path.Dir(f), string(m[1])+string(m[2]))
		if _, err := fs.Stat(FS, dep); err != nil {
			return nil, fmt.Errorf("web: %s imports %s: %w", f, dep, err)
		}
		out = append(out, dep)
	}
	g.direct[f] = out
	return out, nil
}

// imports is Imports on the graph g.
func (g *moduleGraph) imports(file string) ([]string, error) {
	seen := map[string]bool{file: true}
	var out []string
	queue := []string{file}
	for len(queue) > 0 {
		f := queue[0]
		queue = queue[1:]
		deps, err := g.deps(f)
		if err != nil {
			return nil, err
		}
		for _, dep := range deps {
			if seen[dep] {
				continue
			}
			seen[dep] = true
			out = append(out, dep)
			queue = append(queue, dep)
		}
	}
	return out, nil
}

// preloaded returns the rendered shell html with a modulepreload link,
// after its first module script (the page module's, in the head), for
// every module its module scripts import, directly or not: the browser
// fetches the whole graph at once instead of one level of imports per
// round trip.
func preloaded(html []byte) ([]byte, error) { return newModuleGraph().preloaded(html) }

// preloaded is the package's preloaded with the module graph g.
func (g *moduleGraph) preloaded(html []byte) ([]byte, error) {
	scripts := moduleScript.FindAllSubmatchIndex(html, -1)
	if scripts == nil {
		return html, nil
	}
	own := map[string]bool{}
	for _, m := range scripts {
		own[string(html[m[2]:m[3]])] = true
	}
	var links bytes.Buffer
	seen := map[string]bool{}
	for _, m := range scripts {
		deps, err := g.imports(string(html[m[2]:m[3]]))
		if err != nil {
			return nil, err
		}
		for _, d := range deps {
			if !own[d] && !seen[d] {
				seen[d] = true
				fmt.Fprintf(&links, "\n<link rel=\"modulepreload\" href=\"/static/%s\">", d)
			}
		}
	}
	end := scripts[0][1]
	out := make([]byte, 0, len(html)+links.Len())
	out = append(out, html[:end]...)
	out = append(out, links.Bytes()...)
	return append(out, html[end:]...), nil
}
