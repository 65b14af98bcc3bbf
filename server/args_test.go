package server

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolsearch/toolsearch/loader/catalog"
)

func TestDecodeArgsReportsEveryProblem(t *testing.T) {
	var args SearchArgs
	err := decodeArgs(json.RawMessage(`{"query": 5, "limit": "ten", "max_results": 3, "detail": "full"}`), &args, "query, limit, kind, detail, cursor")
	if err == nil {
		t.Fatal("no error")
	}
	msg := err.Error()
	for _, want := range []string{`limit must be an integer, got a string`, `unknown argument "max_results"`, `query must be a string, got a number`, "(accepted: query,"} {
		if !strings.Contains(msg, want) {
			t.Errorf("error lacks %q: %s", want, msg)
		}
	}
	for _, leak := range []string{"cannot unmarshal", "Go struct field", "SearchArgs"} {
		if strings.Contains(msg, leak) {
			t.Errorf("error leaks %q: %s", leak, msg)
		}
	}
	if err := decodeArgs(json.RawMessage(`["query"]`), &args, "query"); err == nil || !strings.Contains(err.Error(), "must be a JSON object, got an array") {
		t.Errorf("an array: %v", err)
	}
	if err := decodeArgs(json.RawMessage(`{"query": "pdf", "limit": 3}`), &args, ""); err != nil || args.Query != "pdf" || args.Limit != 3 {
		t.Errorf("good arguments: %v %+v", err, args)
	}
}

// A call with wrong arguments lists every problem, then the schema.
func TestCallArgumentProblems(t *testing.T) {
	c := catalog.New(ReservedNames...)
	schema := json.RawMessage(`{"type": "object", "properties": {
		"city": {"type": "string"}, "units": {"type": "string", "enum": ["metric", "imperial"]}, "days": {"type": "integer", "minimum": 1}},
		"required": ["city", "days"], "additionalProperties": false}`)
	open := json.RawMessage(`{"type": "object", "properties": {"message": {"type": "string"}}, "required": ["message"]}`)
	c.Put(&catalog.Source{Name: "wx", Kind: catalog.SourceServer, State: catalog.StateActive, Entries: []*catalog.Entry{
		catalog.NewToolEntry("wx", "wx__forecast", &mcp.Tool{Name: "forecast", InputSchema: schema}),
		catalog.NewToolEntry("wx", "wx__echo", &mcp.Tool{Name: "echo", InputSchema: open}),
	}})
	up := &fakeUpstreams{}
	s, err := New(c, Options{Upstreams: up})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	tests := []struct {
		name string
		args string
		want []string
	}{
		{"wx__forecast", `{"citty": "Lisbon", "units": "kelvin", "days": 0}`, []string{
			`missing required argument "city"`, `argument "units": must be one of "metric", "imperial", got the string "kelvin"`,
			`argument "days": must be at least 1, got 0`, `unexpected argument "citty"`, "The tool's input schema is:"}},
		{"wx__forecast", `{"city": 7}`, []string{`missing required argument "days"`, `argument "city": must be a string, got the number 7`}},
		// A value too long to show is named by its kind, with its article.
		{"wx__forecast", `{"city": "Lisbon", "days": "a string too long to be shown in the message"}`, []string{`argument "days": must be an integer, got a string`}},
		// Extra arguments are allowed by this schema: named only when
		// something else is wrong (a typo, usually).
		{"wx__echo", `{"mesage": "hi"}`, []string{`missing required argument "message"`, `unexpected argument "mesage"`}},
	}
	for _, tt := range tests {
		res := s.Call(context.Background(), CallArgs{Name: tt.name, Arguments: json.RawMessage(tt.args)})
		text := res.Content[0].(*mcp.TextContent).Text
		if !res.IsError {
			t.Errorf("%s %s: not an error: %s", tt.name, tt.args, text)
		}
		for _, w := range tt.want {
			if !strings.Contains(text, w) {
				t.Errorf("%s %s: lacks %q:\n%s", tt.name, tt.args, w, text)
			}
		}
	}
	if res := s.Call(context.Background(), CallArgs{Name: "wx__echo", Arguments: json.RawMessage(`{"message": "hi", "extra": 1}`)}); res.IsError {
		t.Errorf("extra arguments the schema allows were refused: %v", res.Content)
	}
	if len(up.calls) != 1 {
		t.Errorf("calls upstream: %v", up.calls)
	}
}
