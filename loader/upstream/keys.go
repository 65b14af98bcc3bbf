package upstream

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolsearch/toolsearch/internal/atomicfile"
)

// serverKeys are how toolsearch recognizes a server across runs, in two
// ways that answer two questions.
//
// Whom the approvals belong to: the server's name in the configuration.
// Trust follows the name across every edit of how the server is started
// (one more argument, pkg@1.2.3 becoming pkg@1.2.4, a moved URL) and
// across the folders hosts start toolsearch in: what differs from the
// definitions last trusted under that name waits for approval, and no
// configuration change releases a held definition. Starting a server's
// trust afresh is an operator's act (`toolsearch trust reset NAME`).
//
// Which last known catalog to publish before the server answers: the one
// listed under the same configuration (name, transport, command,
// arguments, working directory, the names of its environment variables
// and headers, URL), whatever folder toolsearch runs in, so that a host
// starting toolsearch in a new project gets the complete listing at once.
// The folder toolsearch runs in joins the key only when the configuration
// names something relative to it: a relative command (./bin/server) or an
// argument that is an existing file or folder there (node dist/index.js),
// since the same entry then starts another program elsewhere. A bare
// command (npx, uvx) is looked up on PATH and needs no folder. Values of
// the environment and headers are left out: they hold secrets that rotate.
type serverKeys struct {
	// trust is the server's key in the approvals store.
	trust string
	// file is the server's last known catalog; legacy is where a
	// toolsearch before server keys kept it (keyed by the folder too),
	// read when file does not exist yet.
	file, legacy string
}

// trustKeyPrefix starts the approvals key of every server, keeping them
// apart from the skills' (skill.ApprovalKey).
const trustKeyPrefix = "server:"

// trustKey is the approvals key of the server of that name.
func trustKey(name string) string { return trustKeyPrefix + name }

// keysOf returns the keys of the server configured as cfg, with its
// catalog files in dir ("" keeps none).
func keysOf(dir string, cfg ServerConfig) serverKeys {
	id := serverKeys{trust: trustKey(cfg.Name)}
	if dir == "" {
		return id
	}
	wd, _ := os.Getwd()
	folder := ""
	if folderBound(cfg, wd) {
		folder = wd
	}
	key, _ := json.Marshal([]any{cfg.Name, cfg.Type, cfg.Command, cfg.Args, cfg.Cwd, folder,
		slices.Sorted(maps.Keys(cfg.Env)), headerNames(cfg.Headers), cfg.URL})
	id.file = catalogFile(dir, cfg.Name, key)
	// Before server keys, a stdio server without cwd was keyed by the
	// folder, and nothing but the entry's fields below counted.
	cwd := cfg.Cwd
	if cfg.Type == TypeStdio && cwd == "" {
		cwd = wd
	}
	old, _ := json.Marshal([]any{cfg.Name, cfg.Type, cfg.Command, cfg.Args, cwd, cfg.URL})
	id.legacy = catalogFile(dir, cfg.Name, old)
	return id
}

// catalogFile names a last known catalog in dir by its key's hash, after
// the server's name so that the folder stays readable.
func catalogFile(dir, name string, key []byte) string {
	sum := sha256.Sum256(key)
	return filepath.Join(dir, atomicfile.NamePart(name)+"-"+hex.EncodeToString(sum[:8])+".json")
}

// folderBound reports whether the stdio server cfg starts another program
// when toolsearch runs in another folder than wd: its command is a
// relative path, or an argument names a file or folder relative to where
// it runs. A configured cwd is absolute (LoadConfig resolves it), and
// relative arguments then mean the same wherever toolsearch runs.
func folderBound(cfg ServerConfig, wd string) bool {
	if cfg.Type != TypeStdio || cfg.Cwd != "" {
		return false
	}
	if strings.ContainsAny(cfg.Command, `/\`) && !filepath.IsAbs(cfg.Command) {
		return true
	}
	for _, a := range cfg.Args {
		if a == "" || strings.HasPrefix(a, "-") || filepath.IsAbs(a) || len(a) > 4096 {
			continue
		}
		if _, err := os.Stat(filepath.Join(wd, a)); err == nil {
			return true
		}
	}
	return false
}

// headerNames are the names of an HTTP server's headers, sorted and in
// one case: their values are secrets.
func headerNames(h map[string]string) []string {
	names := make([]string, 0, len(h))
	for k := range h {
		names = append(names, strings.ToLower(k))
	}
	slices.Sort(names)
	return names
}

// adoptApprovals moves the server's approvals from the keys a toolsearch
// before server keys used (its catalog file's name: the name, then a hash
// of the entry and, for stdio, the folder) to its name, merging those of
// every configuration and folder it was trusted under (see
// trust.Store.Adopt for what is kept).
func (u *upstream) adoptApprovals() {
	legacy := func(key string) bool { return legacyKey(u.cfg.Name, key) }
	if err := u.m.approvals.Adopt(u.m.ctx, u.id.trust, u.cfg.Name, legacy); err != nil {
		u.log.Warn("could not move the server's approvals to its name; its tools are decided without them", "err", err)
	}
}

// legacyKey reports whether key is one that a toolsearch before
// server keys gave the server (and its catalog file): its safe name, a dash
// and 16 hex digits.
func legacyKey(name, key string) bool {
	h, ok := strings.CutPrefix(key, atomicfile.NamePart(name)+"-")
	return ok && len(h) == 16 && strings.Trim(h, "0123456789abcdef") == ""
}

// inheritTrusted returns the definitions of the server's most recent last
// known catalog under any configuration (another than its own, which does
// not exist yet), as they were trusted: listed, or for the held ones, the
// definition trusted before. Nil when there is none.
func (u *upstream) inheritTrusted() map[string]*mcp.Tool {
	dir := u.m.opts.CacheDir
	if dir == "" {
		return nil
	}
	// atomicfile.NamePart leaves no character that a pattern reads as special.
	files, _ := filepath.Glob(filepath.Join(dir, atomicfile.NamePart(u.cfg.Name)+"-*.json"))
	var newest string
	var at time.Time
	for _, f := range files {
		key, ok := strings.CutSuffix(filepath.Base(f), ".json")
		if f == u.id.file || !ok || !legacyKey(u.cfg.Name, key) {
			continue
		}
		if info, err := os.Stat(f); err == nil && info.Mode().IsRegular() && info.ModTime().After(at) {
			newest, at = f, info.ModTime()
		}
	}
	if newest == "" {
		return nil
	}
	p, err := loadCache(newest, u.cfg.Name)
	if p == nil || err != nil {
		return nil
	}
	out := make(map[string]*mcp.Tool, len(p.Tools))
	for _, t := range p.Tools {
		if t != nil {
			out[t.Name] = t
		}
	}
	maps.Copy(out, p.Trusted)
	return out
}
