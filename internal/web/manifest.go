package web

import (
	"encoding/json"
	"fmt"
	"io/fs"

	"matombo/internal/i18n"
)

// manifestFile is the web app manifest, whose name and description are
// the English ones; Manifest says them in a catalog's language.
const manifestFile = "manifest.webmanifest"

// Manifest returns the web app manifest in the language of c: its name
// (manifest.name), its description (offline.meta, the offline page's, where
// the installed app starts) and its lang.
func Manifest(c *i18n.Catalog) ([]byte, error) {
	data, err := fs.ReadFile(FS, manifestFile)
	if err != nil {
		return nil, err
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("web: %s: %w", manifestFile, err)
	}
	m["name"] = c.T("manifest.name")
	m["description"] = c.T("offline.meta")
	m["lang"] = c.Lang()
	return json.MarshalIndent(m, "", "  ")
}
