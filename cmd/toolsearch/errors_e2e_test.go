package main

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// runIn runs toolsearch with args in dir and returns its stdout, stderr
// and exit status.
func runIn(t *testing.T, dir string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := toolsearch(t.Context(), args...)
	cmd.Dir = dir
	var out, errOut strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errOut.String(), code
}

// TestCatalogMalformedMCPConfig: catalog on a .mcp.json that is not JSON
// says where and what is wrong, once, and exits non-zero; so do the other
// one-shot commands.
func TestCatalogMalformedMCPConfig(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, ".mcp.json", "{\"mcpServers\": {\n  \"a\": {\"command\": \"x\"}\n  \"b\": {\"command\": \"y\"}\n}}\n")
	const where = ".mcp.json:3:3: invalid JSON: found '\"' where a comma or } belongs: a comma is missing"
	for _, args := range [][]string{{"catalog"}, {"search", "weather"}, {"scan"}} {
		stdout, stderr, code := runIn(t, dir, append(args, "--mcp-config", ".mcp.json")...)
		if code == 0 {
			t.Errorf("%s: exit 0, want non-zero; stdout:\n%s", args[0], stdout)
		}
		if n := strings.Count(stdout+stderr, "invalid JSON"); n != 1 || !strings.Contains(stderr, where) {
			t.Errorf("%s: the error is shown %d times, want once, as %q; stderr:\n%s\nstdout:\n%s", args[0], n, where, stderr, stdout)
		}
	}
}

// TestOneShotCountsConfigProblems: a one-shot command says in one line
// how many problems the configuration has and which command lists them;
// catalog lists them, each once, with its line and column.
func TestOneShotCountsConfigProblems(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, ".mcp.json", "{\"mcpServers\": {\n  \"a\": {\"comand\": \"x\"},\n  \"b\": {\"type\": \"http\", \"url\": \"http://127.0.0.1:1/${TS_UNSET_FOR_TEST}\"}\n}}\n")
	mcp := filepath.Join(dir, ".mcp.json")
	_, stderr, code := runIn(t, dir, "search", "weather", "--offline", "--mcp-config", ".mcp.json")
	if code != 0 {
		t.Fatalf("search: exit %d:\n%s", code, stderr)
	}
	want := "3 configuration problems (toolsearch.yaml, .mcp.json, skills or tool files) not repeated here: toolsearch catalog --mcp-config " + mcp + " lists them"
	if !strings.Contains(stderr, want) || strings.Contains(stderr, "comand") {
		t.Errorf("search's stderr:\n%s\nwant one line %q and no problem repeated", stderr, want)
	}
	stdout, stderr, _ := runIn(t, dir, "catalog", "--offline", "--mcp-config", ".mcp.json")
	for _, w := range []string{
		`.mcp.json:2:9: warning: mcpServers.a.comand: unknown key, ignored (did you mean "command"?)`,
		".mcp.json:2:8: error: mcpServers.a.command: missing",
		"mcpServers.b.url: ${TS_UNSET_FOR_TEST} is not set",
	} {
		if strings.Count(stdout, w) != 1 {
			t.Errorf("catalog lists %q %d times, want once:\n%s", w, strings.Count(stdout, w), stdout)
		}
	}
	if strings.Contains(stderr, "problem") {
		t.Errorf("catalog repeats the problems on stderr:\n%s", stderr)
	}
}
