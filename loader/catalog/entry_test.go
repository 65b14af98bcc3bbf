package catalog

import (
	"strings"
	"testing"
)

func TestPolicyStricterThan(t *testing.T) {
	order := []Policy{PolicyCallable, PolicyVisibleOnly, PolicyHidden}
	for i, p := range order {
		for j, q := range order {
			if got := p.StricterThan(q); got != (i > j) {
				t.Errorf("%s.StricterThan(%s) = %v", p, q, got)
			}
		}
	}
	if Policy("").StricterThan(PolicyCallable) || PolicyCallable.StricterThan("") {
		t.Error(`"" is not callable`)
	}
}

func TestToolNameChecks(t *testing.T) {
	own64 := strings.Repeat("n", 64)
	tests := []struct {
		exposed, own    string
		proxied, listed string // what the refusal says, "" when accepted
	}{
		{"srv__echo", "echo", "", ""},
		{"srv__" + own64, own64, "", "over the 64 that model APIs accept"},
		{"srv__dotted.name", "dotted.name", "", "characters outside [A-Za-z0-9_-]"},
		{"srv__" + strings.Repeat("m", 129), strings.Repeat("m", 129), "over the 128 that MCP allows", "over the 64"},
		{"srv__a b", "a b", "the tool's name \"a b\" has characters outside", "characters outside"},
		{"my srv__echo", "echo", "a server name of those characters", "characters outside"},
		{"srv__", "", "the tool's name \"\" has characters outside", ""},
		{own64, own64, "", ""},
		{"srv__café", "café", "characters outside [A-Za-z0-9_.-]", "characters outside"},
		{"srv__a\x00", "a\x00", "characters outside", "characters outside"},
	}
	for _, tt := range tests {
		check := func(what string, err error, want string) {
			switch {
			case want == "" && err != nil:
				t.Errorf("%s %.40s: %v", what, tt.exposed, err)
			case want != "" && (err == nil || !strings.Contains(err.Error(), want)):
				t.Errorf("%s %.40s: %v, want an error with %q", what, tt.exposed, err, want)
			}
		}
		check("CheckProxiedName", CheckProxiedName(tt.exposed, tt.own), tt.proxied)
		check("CheckToolName", CheckToolName(tt.exposed), tt.listed)
	}
}
