package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"

	"github.com/toolsearch/toolsearch/cmd/toolsearch/internal/hosts"
)

// TestClientConfigUnknownHost checks that a host toolsearch does not know
// is answered with the hosts it knows.
func TestClientConfigUnknownHost(t *testing.T) {
	err := runClientConfig(t.Context(), []string{"zed"}, io.Discard)
	if err == nil {
		t.Fatal("client-config zed: no error")
	}
	for _, want := range append([]string{`unknown host "zed"`}, hosts.Names()...) {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("client-config zed: %v; want it to name %s", err, want)
		}
	}
}

// shellWords splits a command line as ShellJoin quotes it: words parted by
// spaces, single-quoted where they need it, '\” for a quote.
func shellWords(t *testing.T, line string) []string {
	t.Helper()
	var words []string
	var w strings.Builder
	inWord, quoted := false, false
	for _, r := range line {
		switch {
		case quoted && r == '\'':
			quoted = false
		case quoted:
			w.WriteRune(r)
		case r == '\'':
			quoted, inWord = true, true
		case r == ' ':
			if inWord {
				words = append(words, w.String())
				w.Reset()
				inWord = false
			}
		default:
			w.WriteRune(r)
			inWord = true
		}
	}
	if quoted {
		t.Fatalf("unterminated quote in %s", line)
	}
	if inWord {
		words = append(words, w.String())
	}
	return words
}

// TestClientConfigSnippetsByHost checks what client-config prints for the hosts
// with caveats, taking each command and file apart as the host would: the
// "add --scope user" hint, followed, gave claude a --scope after "--",
// which went to toolsearch; serve runs with --log-level warn (hosts show
// stderr as errors); Codex approves the read proxy, for codex exec.
func TestClientConfigSnippetsByHost(t *testing.T) {
	dir := t.TempDir()
	if out, err := toolsearchAt(t, dir, t.TempDir(), "init", "."); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	run := func(host string) (snippet, notes string) {
		t.Helper()
		var out, errOut strings.Builder
		if err := clientConfig([]string{"--dir", dir, host}, &out, &errOut); err != nil {
			t.Fatalf("client-config %s: %v", host, err)
		}
		return out.String(), errOut.String()
	}
	exe, _ := toolsearchPath()
	serveArgs, _, err := serveArgsFor(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(serveArgs[len(serveArgs)-2:], []string{"--log-level", "warn"}) {
		t.Errorf("serve arguments %q lack --log-level warn", serveArgs)
	}

	t.Run("claude-code", func(t *testing.T) {
		// A configuration that includes none registers for every project:
		// claude's options come before the name, then the server's entry,
		// which Claude Code waits for before a turn (alwaysLoad).
		snippet, where := run("claude-code")
		got := shellWords(t, strings.TrimSpace(snippet))
		want := []string{"claude", "mcp", "add-json", "--scope", "user", "toolsearch"}
		if len(got) != len(want)+1 || !slices.Equal(got[:len(want)], want) || !strings.Contains(where, "every project") {
			t.Fatalf("command %q, want %q and an entry; %s", got, want, where)
		}
		var entry struct {
			Type, Command string
			Args          []string
			AlwaysLoad    bool
		}
		if err := json.Unmarshal([]byte(got[len(want)]), &entry); err != nil || entry.Type != "stdio" || entry.Command != exe || !slices.Equal(entry.Args, serveArgs) || !entry.AlwaysLoad {
			t.Errorf("entry %s (%v), want stdio %s %q with alwaysLoad", got[len(want)], err, exe, serveArgs)
		}
	})

	t.Run("codex", func(t *testing.T) {
		snippet, notes := run("codex")
		var doc struct {
			Servers map[string]struct {
				Command  string
				Args     []string
				Required bool
				Tools    map[string]struct {
					ApprovalMode string `toml:"approval_mode"`
				}
			} `toml:"mcp_servers"`
		}
		md, err := toml.Decode(snippet, &doc)
		if err != nil {
			t.Fatalf("not TOML: %v\n%s", err, snippet)
		}
		ts := doc.Servers["toolsearch"]
		if ts.Command != exe || !slices.Equal(ts.Args, serveArgs) || !ts.Required || len(md.Undecoded()) > 0 {
			t.Errorf("server %+v, undecoded %v:\n%s", ts, md.Undecoded(), snippet)
		}
		if len(ts.Tools) != 1 || ts.Tools["call_tool_read"].ApprovalMode != "approve" {
			t.Errorf("tool approvals %+v, want call_tool_read approved only:\n%s", ts.Tools, snippet)
		}
		// The commented table, uncommented, approves the write proxy.
		uncommented := strings.ReplaceAll(snippet, "# [mcp_servers", "[mcp_servers")
		uncommented = strings.ReplaceAll(uncommented, "# approval_mode", "approval_mode")
		doc.Servers = nil
		if _, err := toml.Decode(uncommented, &doc); err != nil || doc.Servers["toolsearch"].Tools["call_tool_write"].ApprovalMode != "approve" {
			t.Errorf("uncommented: %v %+v\n%s", err, doc.Servers["toolsearch"].Tools, uncommented)
		}
		if !strings.Contains(notes, "codex exec") || !strings.Contains(notes, "approval policy is never") {
			t.Errorf("notes:\n%s", notes)
		}
	})

	t.Run("gemini", func(t *testing.T) {
		if _, notes := run("gemini"); !strings.Contains(notes, "trustedFolders.json") || !strings.Contains(notes, "folderTrust") {
			t.Errorf("notes:\n%s", notes)
		}
	})

	// serve takes the arguments printed.
	if out, err := toolsearchAt(t, dir, t.TempDir(), serveArgs...); err != nil {
		t.Errorf("serve %q: %v\n%s", serveArgs, err, out)
	}
}

// TestClientConfigKeepsLogLevel: a logLevel in toolsearch.yaml is the
// user's, and the snippet does not override it.
func TestClientConfigKeepsLogLevel(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, DefaultConfigFile), []byte("logLevel: debug\n"), 0o644)
	args, _, err := serveArgsFor(dir)
	if err != nil || slices.Contains(args, "--log-level") {
		t.Errorf("serve arguments %q, %v", args, err)
	}
}

// TestClientConfigPermissions: hosts that decide per tool name and refuse
// unallowed MCP tools in their non-interactive mode get a permission
// snippet, pointed to by the registration's notes, that allows exactly
// toolsearch's read-only tools; Codex's registration carries its own.
func TestClientConfigPermissions(t *testing.T) {
	dir := t.TempDir()
	if out, err := toolsearchAt(t, dir, t.TempDir(), "init", "."); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for _, tc := range []struct {
		host, file string
		parse      func(string) ([]string, error)
	}{
		{"claude-code", "~/.claude/settings.json", func(s string) ([]string, error) {
			var v struct {
				Permissions struct{ Allow []string } `json:"permissions"`
			}
			err := json.Unmarshal([]byte(s), &v)
			return v.Permissions.Allow, err
		}},
		{"gemini", "~/.gemini/policies/toolsearch.toml", func(s string) ([]string, error) {
			var v struct {
				Rule []struct {
					ToolName, MCPName, Decision string
					ToolAnnotations             map[string]bool
				}
			}
			if _, err := toml.Decode(s, &v); err != nil {
				return nil, err
			}
			if len(v.Rule) != 1 || v.Rule[0].MCPName != "toolsearch" || v.Rule[0].Decision != "allow" || !v.Rule[0].ToolAnnotations["readOnlyHint"] {
				return nil, fmt.Errorf("want one rule allowing toolsearch's read-only tools, got %+v", v.Rule)
			}
			return []string{"readOnlyHint"}, nil
		}},
	} {
		t.Run(tc.host, func(t *testing.T) {
			var out, errOut strings.Builder
			if err := clientConfig([]string{"--dir", dir, tc.host}, &out, &errOut); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(errOut.String(), "client-config "+tc.host+" --permissions") {
				t.Errorf("the registration's notes do not point to the permissions:\n%s", errOut.String())
			}
			out.Reset()
			errOut.Reset()
			if err := clientConfig([]string{"--dir", dir, "--permissions", tc.host}, &out, &errOut); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(errOut.String(), tc.file) {
				t.Errorf("where it goes: %q, want %s", errOut.String(), tc.file)
			}
			allowed, err := tc.parse(out.String())
			if err != nil {
				t.Fatalf("%v\n%s", err, out.String())
			}
			for _, name := range allowed {
				if strings.Contains(name, "call_tool_write") || strings.HasSuffix(name, "__call_tool") || strings.Contains(name, "run_skill_script") {
					t.Errorf("%s is allowed: only read-only tools may be", name)
				}
			}
		})
	}
	var out, errOut strings.Builder
	err := clientConfig([]string{"--dir", dir, "--permissions", "codex"}, &out, &errOut)
	if err == nil || !strings.Contains(err.Error(), "approval_mode") {
		t.Errorf("codex --permissions: %v, want the pointer to the registration's approval_mode", err)
	}
}

// TestClientConfigCodeModePermissions: with codeMode on in toolsearch.yaml,
// the permissions and Codex's registration let run_code_read run unasked
// where they let call_tool_read; with it off, they do not name it (the
// tool is not there).
func TestClientConfigCodeModePermissions(t *testing.T) {
	for _, on := range []bool{false, true} {
		t.Run(fmt.Sprintf("codeMode %v", on), func(t *testing.T) {
			dir := t.TempDir()
			if out, err := toolsearchAt(t, dir, t.TempDir(), "init", "."); err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			if on {
				f, err := os.OpenFile(filepath.Join(dir, DefaultConfigFile), os.O_APPEND|os.O_WRONLY, 0)
				if err != nil {
					t.Fatal(err)
				}
				f.WriteString("\ncodeMode: true\n")
				f.Close()
			}
			printed := func(args ...string) string {
				t.Helper()
				var out strings.Builder
				if err := clientConfig(append([]string{"--dir", dir}, args...), &out, io.Discard); err != nil {
					t.Fatal(err)
				}
				return out.String()
			}

			var claude struct {
				Permissions struct{ Allow []string } `json:"permissions"`
			}
			if err := json.Unmarshal([]byte(printed("--permissions", "claude-code")), &claude); err != nil {
				t.Fatal(err)
			}
			allow := claude.Permissions.Allow
			if !slices.Contains(allow, "mcp__toolsearch__call_tool_read") || slices.Contains(allow, "mcp__toolsearch__run_code_read") != on {
				t.Errorf("Claude Code's allow list with codeMode %v: %q", on, allow)
			}
			if slices.Contains(allow, "mcp__toolsearch__run_code") {
				t.Errorf("run_code, whose scripts may call any tool, is allowed: %q", allow)
			}

			var codex struct {
				Servers map[string]struct {
					Tools map[string]struct {
						ApprovalMode string `toml:"approval_mode"`
					}
				} `toml:"mcp_servers"`
			}
			snippet := printed("codex")
			if _, err := toml.Decode(snippet, &codex); err != nil {
				t.Fatalf("%v\n%s", err, snippet)
			}
			tools := codex.Servers["toolsearch"].Tools
			if tools["call_tool_read"].ApprovalMode != "approve" || (tools["run_code_read"].ApprovalMode == "approve") != on {
				t.Errorf("Codex's approvals with codeMode %v: %+v\n%s", on, tools, snippet)
			}
			if _, ok := tools["run_code"]; ok {
				t.Errorf("run_code is approved:\n%s", snippet)
			}

			if policy := printed("--permissions", "gemini"); strings.Contains(policy, "run_code_read") != on {
				t.Errorf("Gemini CLI's policy names run_code_read: %v, want %v:\n%s", !on, on, policy)
			}
		})
	}
}
