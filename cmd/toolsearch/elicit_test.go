package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// testForm is the schema of the test's elicitations: every kind of field the
// protocol allows, one of them required.
var testForm = map[string]any{
	"type": "object",
	"properties": map[string]any{
		"name":     map[string]any{"type": "string", "title": "Your name", "default": "Ada"},
		"age":      map[string]any{"type": "integer", "default": 36},
		"score":    map[string]any{"type": "number", "default": 95.5},
		"status":   map[string]any{"type": "string", "enum": []any{"active", "inactive"}, "default": "active"},
		"verified": map[string]any{"type": "boolean", "default": true},
		"tags":     map[string]any{"type": "array", "items": map[string]any{"type": "string", "enum": []any{"a", "b", "c"}}},
		"city":     map[string]any{"type": "string", "description": "Where you live"},
	},
	"required": []any{"name"},
}

func TestTerminalCallerElicit(t *testing.T) {
	defaults := map[string]any{"name": "Ada", "age": float64(36), "score": 95.5, "status": "active", "verified": true}
	tests := []struct {
		name, mode, input string
		schema            any
		want              *mcp.ElicitResult
		wantOut           []string // in what the terminal shows
	}{
		{name: "defaults", mode: elicitDefaults, schema: testForm,
			want: &mcp.ElicitResult{Action: "accept", Content: defaults}},
		{name: "defaults without one for a required field", mode: elicitDefaults,
			schema:  map[string]any{"type": "object", "properties": map[string]any{"token": map[string]any{"type": "string"}}, "required": []any{"token"}},
			want:    &mcp.ElicitResult{Action: "decline"},
			wantOut: []string{"no default for token", "--elicit ask"}},
		{name: "decline", mode: elicitDecline, schema: testForm,
			want: &mcp.ElicitResult{Action: "decline"}, wantOut: []string{"declined the server's request"}},
		// Fields are asked required first, then by name: name, age, city,
		// score, status, tags, verified.
		{name: "ask: answers and defaults", mode: elicitAsk, schema: testForm,
			input: "Grace\n\nParis\n7\ninactive\na, c\nn\n",
			want: &mcp.ElicitResult{Action: "accept", Content: map[string]any{
				"name": "Grace", "age": float64(36), "city": "Paris", "score": float64(7), "status": "inactive", "tags": []any{"a", "c"}, "verified": false}},
			wantOut: []string{"The server asks: Fill in", "Your name (string; required) [Ada]:", "city (Where you live; string):", "status (one of active, inactive) [active]:", "verified (y/n) [true]:"}},
		{name: "ask: a wrong answer is asked again", mode: elicitAsk, schema: testForm,
			input:   "\nforty\n40\n\n\n\n\n\n",
			want:    &mcp.ElicitResult{Action: "accept", Content: map[string]any{"name": "Ada", "age": int64(40), "score": 95.5, "status": "active", "verified": true}},
			wantOut: []string{"want a whole number"}},
		{name: "ask: three wrong answers cancel", mode: elicitAsk, schema: testForm,
			input: "\nx\ny\nz\n", want: &mcp.ElicitResult{Action: "cancel"}},
		{name: "ask: - declines", mode: elicitAsk, schema: testForm,
			input: "-\n", want: &mcp.ElicitResult{Action: "decline"}},
		{name: "ask: end of input cancels", mode: elicitAsk, schema: testForm,
			input: "Grace\n", want: &mcp.ElicitResult{Action: "cancel"}},
		{name: "ask: an escape sequence is not shown", mode: elicitAsk,
			schema: map[string]any{"type": "object", "properties": map[string]any{"x": map[string]any{"type": "string", "title": "\x1b[2Jx"}}},
			input:  "1\n", want: &mcp.ElicitResult{Action: "accept", Content: map[string]any{"x": "1"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out strings.Builder
			c := &terminalCaller{mode: tt.mode, in: bufio.NewReader(strings.NewReader(tt.input)), out: &out}
			got, err := c.Elicit(context.Background(), &mcp.ElicitParams{Message: "Fill in the form", RequestedSchema: tt.schema})
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Elicit = %+v, want %+v\nshown:\n%s", got, tt.want, out.String())
			}
			for _, w := range tt.wantOut {
				if !strings.Contains(out.String(), w) {
					t.Errorf("shown %q, want it to contain %q", out.String(), w)
				}
			}
			if strings.ContainsRune(out.String(), '\x1b') {
				t.Errorf("an escape character reached the terminal: %q", out.String())
			}
		})
	}
}

// A form the protocol does not allow (nested objects, a default of the
// wrong type) is refused with the field named, not answered.
func TestTerminalCallerRefusesBadForms(t *testing.T) {
	for _, schema := range []any{
		map[string]any{"type": "object", "properties": map[string]any{"deep": map[string]any{"type": "object"}}},
		map[string]any{"type": "object", "properties": map[string]any{"n": map[string]any{"type": "integer", "default": "x"}}},
		map[string]any{"type": "array"},
	} {
		c := &terminalCaller{mode: elicitDefaults, in: bufio.NewReader(strings.NewReader("")), out: &strings.Builder{}}
		if res, err := c.Elicit(context.Background(), &mcp.ElicitParams{RequestedSchema: schema}); err == nil {
			t.Errorf("Elicit(%v) = %+v, want an error", schema, res)
		}
	}
}

// TestCallAnswersElicitation: `toolsearch call` answers a server that asks
// a question during the call, as --elicit says, through the real binary.
func TestCallAnswersElicitation(t *testing.T) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "asker", Version: "1"}, nil)
	mcp.AddTool(srv, &mcp.Tool{Name: "greet", Description: "Greets whoever answers."},
		func(ctx context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
			res, err := req.Session.Elicit(ctx, &mcp.ElicitParams{Message: "Who are you?", RequestedSchema: testForm})
			if err != nil {
				return nil, nil, err
			}
			content, _ := json.Marshal(res.Content)
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: fmt.Sprintf("%s %s", res.Action, content)}}}, nil, nil
		})
	hs := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil))
	defer hs.Close()
	cfg := mcpConfigFile(t, map[string]any{"up": map[string]any{"type": "http", "url": hs.URL}})
	dir := t.TempDir()
	// A remote server's first listing waits for a person.
	approve := toolsearch(t.Context(), "approve", "up", "--connect", "--mcp-config", cfg)
	approve.Dir = dir
	approve.Env = append(approve.Env, "XDG_CACHE_HOME="+filepath.Join(dir, "cache"))
	if out, err := approve.CombinedOutput(); err != nil {
		t.Fatalf("approve: %v\n%s", err, out)
	}
	for _, tt := range []struct {
		mode, input, want string
	}{
		{"defaults", "", `accept {"age":36,"name":"Ada","score":95.5,"status":"active","verified":true}`},
		{"ask", "Grace\n\n\n\n\n\n\n", `accept {"age":36,"name":"Grace","score":95.5,"status":"active","verified":true}`},
		{"decline", "", "decline null"},
	} {
		cmd := toolsearch(t.Context(), "call", "up__greet", "--mcp-config", cfg, "--elicit", tt.mode)
		cmd.Dir = dir
		cmd.Env = append(cmd.Env, "XDG_CACHE_HOME="+filepath.Join(dir, "cache"))
		cmd.Stdin = strings.NewReader(tt.input)
		var stderr strings.Builder
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil || strings.TrimSpace(string(out)) != tt.want {
			t.Errorf("call --elicit %s: %v: %q, want %q\nstderr:\n%s", tt.mode, err, out, tt.want, stderr.String())
		}
	}
}
