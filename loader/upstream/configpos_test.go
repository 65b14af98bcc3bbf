package upstream

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestLoadConfigSyntaxPositions: a .mcp.json that is not JSON is reported
// at the line and column where it goes wrong, with what is wrong in words.
func TestLoadConfigSyntaxPositions(t *testing.T) {
	tests := []struct {
		name, text string
		line, col  int
		want       string
	}{
		{"missing comma", "{\"mcpServers\": {\n  \"a\": {\"command\": \"x\"}\n  \"b\": {\"command\": \"y\"}\n}}\n", 3, 3, "a comma is missing"},
		{"trailing comma in an object", "{\"mcpServers\": {\n  \"a\": {\"command\": \"x\"},\n}}\n", 2, 24, "trailing comma"},
		{"trailing comma in an array", "{\"mcpServers\": {\"a\": {\"command\": \"x\",\n  \"args\": [\"1\", \"2\",]}}}", 2, 20, "trailing comma"},
		{"missing colon", "{\"mcpServers\" {}}", 1, 15, "where a colon belongs"},
		{"unquoted key", "{\n\tmcpServers: {}}", 2, 2, "keys are strings in double quotes"},
		{"cut short", "{\"mcpServers\": {\n  \"a\": {", 2, 9, "ends before every { and ["},
		{"wide characters before", "{\"mcpServers\": {\"été\": {\"command\": \"x\"} \"b\": 1}}", 1, 41, "a comma is missing"},
		{"not an object", "[1, 2]", 1, 1, `want a JSON object with "mcpServers"`},
		{"servers not an object", "{\n  \"mcpServers\": [\"a\"]\n}", 2, 17, "mcpServers: want an object of servers, got array"},
	}
	dir := t.TempDir()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(dir, "mcp.json")
			if err := os.WriteFile(path, []byte(tt.text), 0o644); err != nil {
				t.Fatal(err)
			}
			_, _, err := LoadConfig(path)
			var fe *FileError
			if !errors.As(err, &fe) {
				t.Fatalf("LoadConfig: %v (%T), want a *FileError", err, err)
			}
			if fe.Problem.Line != tt.line || fe.Problem.Column != tt.col || !strings.Contains(fe.Problem.Message, tt.want) {
				t.Errorf("got %d:%d %q, want %d:%d and %q", fe.Problem.Line, fe.Problem.Column, fe.Problem.Message, tt.line, tt.col, tt.want)
			}
			if prefix := path + ":" + strconv.Itoa(tt.line) + ":" + strconv.Itoa(tt.col) + ": "; !strings.HasPrefix(err.Error(), prefix) {
				t.Errorf("error %q, want it to start %q", err, prefix)
			}
		})
	}
}

// TestLoadConfigProblemPositions: a problem with an entry names its line
// and column (the value's, or the key's for an unknown key), and a key one
// typo away from one toolsearch reads is named with the key meant.
func TestLoadConfigProblemPositions(t *testing.T) {
	tests := []struct {
		name, text string
		field      string
		line, col  int
		want       string
	}{
		{"wrong type", "{\"mcpServers\": {\n  \"a\": {\n    \"command\": \"x\",\n    \"args\": \"--flag\"\n  }\n}}", "mcpServers.a.args", 4, 13, "want an array of strings, got string"},
		{"wrong type in an array", "{\"mcpServers\": {\"a\": {\"command\": \"x\",\n  \"args\": [\"ok\", 3]}}}", "mcpServers.a.args[1]", 2, 18, "want a string, got number"},
		{"unknown key", "{\"mcpServers\": {\n  \"a\": {\n    \"comand\": \"x\"\n  }\n}}", "mcpServers.a.comand", 3, 5, `unknown key, ignored (did you mean "command"?)`},
		{"a missing key at its entry", "{\"mcpServers\": {\n  \"a\": {\n    \"comand\": \"x\"\n  }\n}}", "mcpServers.a.command", 2, 8, "missing"},
		{"misspelt servers key", "{\n  \"mcpServer\": {\"a\": {\"command\": \"x\"}}\n}", "mcpServer", 2, 3, `servers go in "mcpServers" (did you mean "mcpServers"?)`},
		{"entry not an object", "{\"mcpServers\": {\n\"a\": 1}}", "mcpServers.a", 2, 6, "want an object, got number"},
	}
	dir := t.TempDir()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(dir, "mcp.json")
			if err := os.WriteFile(path, []byte(tt.text), 0o644); err != nil {
				t.Fatal(err)
			}
			_, probs, err := LoadConfig(path)
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range probs {
				if p.Field != tt.field {
					continue
				}
				if p.Line != tt.line || p.Column != tt.col || !strings.Contains(p.Message, tt.want) {
					t.Errorf("got %s, want %d:%d and %q", p, tt.line, tt.col, tt.want)
				}
				if prefix := path + ":" + strconv.Itoa(tt.line) + ":" + strconv.Itoa(tt.col) + ": "; !strings.HasPrefix(p.String(), prefix) {
					t.Errorf("%q, want it to start %q", p, prefix)
				}
				return
			}
			t.Errorf("no problem about %s among %v", tt.field, probs)
		})
	}
}

// TestLoadConfigForeignKeysQuiet: keys other hosts write in an entry, far
// from any toolsearch reads, are no problem.
func TestLoadConfigForeignKeysQuiet(t *testing.T) {
	path := filepath.Join(t.TempDir(), "mcp.json")
	text := `{"mcpServers": {"a": {"command": "x", "disabled": false, "timeout": 5000, "alwaysAllow": [], "autoApprove": [], "description": "d"}}}`
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, probs, err := LoadConfig(path); err != nil || len(probs) != 0 {
		t.Errorf("LoadConfig: %v, problems %v; want none", err, probs)
	}
}
