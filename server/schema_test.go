package server

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
)

// The help an invalid call gets is read off each tool's schema.
func TestAcceptedArgs(t *testing.T) {
	tests := map[string]struct{ got, want string }{
		ToolSearch:    {searchArgsAccepted, `query (string, at most 4096 characters), queries (array of strings, at most 5), limit (integer, 1-20), kind ("tool", "skill", "prompt", "resource" or "any"), detail ("full", "compact" or "names"), cursor (string)`},
		CallTool:      {callArgsAccepted, `name (string, required), arguments (object)`},
		ReadSkillFile: {readArgsAccepted, `skill (string, required), path (string, required), offset (integer, at least 0)`},
		RunScript:     {scriptArgsAccepted, `skill (string, required), script (string, required), args (array of strings), stdin (string), timeout_s (number, more than 0)`},
	}
	for name, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s accepts:\n%s\nwant:\n%s", name, tt.got, tt.want)
		}
	}
}

// A misspelt argument is refused with the help text, from the type the
// schema was derived from.
func TestDecodeArgsNamesWhatIsAccepted(t *testing.T) {
	var args SearchArgs
	err := decodeArgs(json.RawMessage(`{"qeury": "weather"}`), &args, searchArgsAccepted)
	if err == nil || !strings.Contains(err.Error(), `unknown argument "qeury"`) || !strings.Contains(err.Error(), searchArgsAccepted) {
		t.Errorf("decodeArgs = %v; want the unknown field named and what is accepted", err)
	}
}

// wireSchema writes the same schema as json.Marshal, with the keywords of
// every object in wireKeys order and property names in field order, less
// the keywords checked on arrival; a property named like one stays.
func TestWireSchema(t *testing.T) {
	type args struct {
		Zeta  string   `json:"zeta" jsonschema:"Last letter."`
		Alpha []string `json:"alpha,omitempty"`
		Max   int      `json:"maximum,omitempty"`
	}
	s := inputSchema[args](func(p map[string]*jsonschema.Schema) {
		p["zeta"].MaxLength = ptr(10)
		p["zeta"].Default = jsonString("z")
	})
	got := string(wireSchema(s))
	want := `{"type":"object","properties":{"zeta":{"type":"string","default":"z","description":"Last letter."},"alpha":{"type":"array","items":{"type":"string"}},"maximum":{"type":"integer"}},"required":["zeta"]}`
	if got != want {
		t.Errorf("wireSchema =\n%s\nwant\n%s", got, want)
	}
	s.AdditionalProperties, s.Properties["zeta"].MaxLength = nil, nil
	plain, _ := json.Marshal(s)
	var a, b any
	json.Unmarshal(plain, &a)
	json.Unmarshal([]byte(got), &b)
	if !reflect.DeepEqual(a, b) {
		t.Errorf("wireSchema changed the schema:\n%s\nfrom\n%s", got, plain)
	}
}
