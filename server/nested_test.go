package server

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/toolsearch/toolsearch/loader"
	"github.com/toolsearch/toolsearch/loader/catalog"
	"github.com/toolsearch/toolsearch/runner"
)

// nestedServer serves a skill gamma with a skill inner nested in it
// (gamma/sub/inner), each with a script, a skill delta without scripts of
// its own with one, epsilon, that has one, and scripts turned off for the
// skills named in disabled.
func nestedServer(t *testing.T, disabled ...string) *Server {
	t.Helper()
	root := t.TempDir()
	for path, content := range map[string]string{
		"gamma/SKILL.md":                   "---\nname: gamma\ndescription: The enclosing skill.\n---\n# Gamma\n",
		"gamma/scripts/own.sh":             "#!/bin/sh\necho gamma\n",
		"gamma/sub/inner/SKILL.md":         "---\nname: inner\ndescription: The nested skill.\n---\n# Inner\n",
		"gamma/sub/inner/scripts/x.sh":     "#!/bin/sh\necho inner\n",
		"gamma/sub/inner/references/in.md": "inner's reference\n",
		"delta/SKILL.md":                   "---\nname: delta\ndescription: An enclosing skill without scripts.\n---\n# Delta\n",
		"delta/tools/epsilon/SKILL.md":     "---\nname: epsilon\ndescription: A nested skill with a script.\n---\n# Epsilon\n",
		"delta/tools/epsilon/run.py":       "print('epsilon')\n",
	} {
		p := filepath.Join(root, path)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(content), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	c := catalog.New(ReservedNames...)
	loader.NewSkillSource([]string{root}, c, nil).Load()
	scripts := runner.New(runner.Options{SkillDisabled: func(skill string) bool { return slices.Contains(disabled, skill) }})
	s, err := New(c, Options{Scripts: scripts})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

func runText(s *Server, skill, script string) (string, bool) {
	res := s.RunScript(context.Background(), ScriptArgs{Skill: skill, Script: script})
	return resultText(res), res.IsError
}

// TestDisabledNestedSkillNotRunThroughEnclosing: with inner's scripts
// turned off, inner's script cannot be run as gamma's.
func TestDisabledNestedSkillNotRunThroughEnclosing(t *testing.T) {
	s := nestedServer(t, "inner")
	if text, failed := runText(s, "inner", "scripts/x.sh"); !failed || !strings.Contains(text, "turned off") {
		t.Errorf("inner's own script ran: %q", text)
	}
	text, failed := runText(s, "gamma", "sub/inner/scripts/x.sh")
	if !failed || !strings.Contains(text, `belongs to the skill inner, nested in this one in sub/inner: run it as skill "inner", script "scripts/x.sh"`) {
		t.Errorf("inner's script run as gamma's: %v %q", failed, text)
	}
	if text, failed := runText(s, "gamma", "scripts/own.sh"); failed || text != "gamma\n" {
		t.Errorf("gamma's own script: %v %q", failed, text)
	}
}

// TestDisabledEnclosingSkillLeavesNestedAlone: the reverse; with gamma's
// scripts turned off, gamma's are off and inner's, its own, are not.
func TestDisabledEnclosingSkillLeavesNestedAlone(t *testing.T) {
	s := nestedServer(t, "gamma")
	if text, failed := runText(s, "gamma", "scripts/own.sh"); !failed || !strings.Contains(text, "turned off") {
		t.Errorf("gamma's script ran: %q", text)
	}
	if text, failed := runText(s, "gamma", "sub/inner/scripts/x.sh"); !failed || !strings.Contains(text, "turned off") {
		t.Errorf("a script in gamma's folder ran as gamma's: %q", text)
	}
	if text, failed := runText(s, "inner", "scripts/x.sh"); failed || text != "inner\n" {
		t.Errorf("inner's own script: %v %q", failed, text)
	}
}

// TestMissingScriptListsOwnScripts: a call naming a script the skill does
// not have is told the skill's scripts, which are not those of the skills
// nested in it.
func TestMissingScriptListsOwnScripts(t *testing.T) {
	s := nestedServer(t)
	if text, failed := runText(s, "delta", "scripts/nope.sh"); !failed || !strings.Contains(text, "Skill delta has no scripts") || strings.Contains(text, "epsilon") {
		t.Errorf("delta's scripts: %v %q", failed, text)
	}
	if text, failed := runText(s, "gamma", "scripts/nope.sh"); !failed || !strings.Contains(text, "Skill gamma's scripts are: scripts/own.sh") || strings.Contains(text, "sub/inner") {
		t.Errorf("gamma's scripts: %v %q", failed, text)
	}
}

func TestNestedSkillFilesReadAsTheirs(t *testing.T) {
	s := nestedServer(t)
	_, err := s.ReadSkillFile(ReadArgs{Skill: "gamma", Path: "sub/inner/references/in.md"})
	if err == nil || !strings.Contains(err.Error(), `read it as skill "inner", path "references/in.md"`) {
		t.Errorf("inner's file read as gamma's: %v", err)
	}
	if text, err := s.ReadSkillFile(ReadArgs{Skill: "inner", Path: "references/in.md"}); err != nil || text != "inner's reference\n" {
		t.Errorf("inner's own file: %q %v", text, err)
	}
	// gamma's file list, in a search result and in an error, is gamma's own.
	res, err := s.Search(SearchArgs{Query: "select:gamma"})
	if err != nil {
		t.Fatal(err)
	}
	if text := res.Text(); !strings.Contains(text, "scripts/own.sh") || strings.Contains(text, "sub/inner") {
		t.Errorf("gamma's files in a search result:\n%s", text)
	}
	if _, err := s.ReadSkillFile(ReadArgs{Skill: "gamma", Path: "nope.md"}); err == nil || strings.Contains(err.Error(), "sub/inner") {
		t.Errorf("gamma's files in an error: %v", err)
	}
}
