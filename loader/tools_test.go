package loader

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestDecodeTools(t *testing.T) {
	tests := []struct {
		name, in string
		want     []string // each tool's name and input schema
		err      string
	}{
		{name: "array", in: `[{"name":"a","inputSchema":{"type": "object", "properties":
		 {"z":{},"y":{}}}},{"name":"b"}]`,
			want: []string{`a {"type":"object","properties":{"z":{},"y":{}}}`, `b {"type":"object"}`}},
		{name: "tools/list result", in: `{"nextCursor":"x","tools":[{"name":"a","inputSchema":{"type":"object"}}]}`,
			want: []string{`a {"type":"object"}`}},
		{name: "empty array", in: ` [ ] `, want: []string{}},
		{name: "object without tools", in: `{"x":1}`, err: `"tools" array`},
		{name: "tools not an array", in: `{"tools":{}}`, err: `"tools" is not an array`},
		{name: "not JSON", in: `tools`, err: "want a JSON array"},
		{name: "a string", in: `"x"`, err: "want a JSON array"},
		{name: "bad element", in: `[{"name":"a"},{"name":3}]`, err: "tools[1]"},
		{name: "truncated", in: `[{"name":"a"}`, err: "tools[1]: want another tool"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tools, err := DecodeTools([]byte(tt.in))
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err = %v, want one containing %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got := []string{}
			for _, tl := range tools {
				got = append(got, tl.Name+" "+string(tl.InputSchema.(json.RawMessage)))
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}
