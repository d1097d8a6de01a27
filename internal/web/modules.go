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
func Imports(file string) ([]string, error) {
	seen := map[string]bool{file: true}
	var out []string
	queue := []string{file}
	for len(queue) > 0 {
		f := queue[0]
		queue = queue[1:]
		src, err := fs.ReadFile(FS, f)
		if err != nil {
			return nil, fmt.Errorf("web: module %s: %w", f, err)
		}
		for _, m := range staticImport.FindAllSubmatch(src, -1) {
			dep := path.Join(path.Dir(f), string(m[1])+string(m[2]))
			if seen[dep] {
				continue
			}
			if _, err := fs.Stat(FS, dep); err != nil {
				return nil, fmt.Errorf("web: %s imports %s: %w", f, dep, err)
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
func preloaded(html []byte) ([]byte, error) {
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
		deps, err := Imports(string(html[m[2]:m[3]]))
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
