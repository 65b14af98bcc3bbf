package modelsim

import (
	"bufio"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"
)

// post sends body to path and returns the status and, for an event stream,
// the data of each event (else the body as one).
func post(t *testing.T, s *Server, path, body string) (int, []string) {
	t.Helper()
	resp, err := http.Post(s.URL+path, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var data []string
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(nil, 1<<20)
	stream := strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream")
	for sc.Scan() {
		line := sc.Text()
		if !stream {
			data = append(data, line)
		} else if d, ok := strings.CutPrefix(line, "data: "); ok {
			data = append(data, d)
		}
	}
	return resp.StatusCode, data
}

// echoScript calls "lookup" until it has a result, then answers with the
// result's text.
func echoScript(t Turn) Reply {
	if r, ok := t.ResultOf("lookup"); ok {
		return Reply{Text: "got " + r.Text}
	}
	if name := t.Offers("lookup"); name != "" {
		return Reply{Call: &Call{Name: name, Args: map[string]any{"q": "x"}}}
	}
	return Reply{Text: "no lookup"}
}

func TestTurns(t *testing.T) {
	tests := []struct {
		name, path, body string
		want             Turn
		wantInReply      []string // substrings of the reply's events
	}{{
		name: "anthropic first turn, streamed",
		path: "/v1/messages?beta=true",
		body: `{"model":"m","stream":true,"messages":[{"role":"user","content":"weather?"}],
			"tools":[{"name":"mcp__srv__lookup","input_schema":{}},{"name":"Later","defer_loading":true}]}`,
		want:        Turn{API: "anthropic", Tools: []string{"mcp__srv__lookup"}, Deferred: []string{"Later"}, Prompt: "weather?"},
		wantInReply: []string{`"type":"tool_use"`, `"name":"mcp__srv__lookup"`, `"partial_json":"{\"q\":\"x\"}"`, `"stop_reason":"tool_use"`, `message_stop`},
	}, {
		name: "anthropic tool result in blocks, not streamed",
		path: "/v1/messages",
		body: `{"model":"m","messages":[{"role":"user","content":[{"type":"text","text":"weather?"}]},
			{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"mcp__srv__lookup","input":{}}]},
			{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":[{"type":"text","text":"sunny"}]}]}],
			"tools":[{"name":"mcp__srv__lookup"}]}`,
		want:        Turn{API: "anthropic", Tools: []string{"mcp__srv__lookup"}, Prompt: "weather?", Results: []Result{{Name: "mcp__srv__lookup", Text: "sunny"}}},
		wantInReply: []string{`"text":"got sunny"`, `"stop_reason":"end_turn"`},
	}, {
		name: "openai namespaced tool, first turn",
		path: "/v1/responses",
		body: `{"model":"m","stream":true,"input":[{"type":"message","role":"user","content":[{"type":"input_text","text":"weather?"}]}],
			"tools":[{"type":"function","name":"exec"},{"type":"namespace","name":"mcp__srv","tools":[{"type":"function","name":"lookup"}]}]}`,
		want:        Turn{API: "openai", Tools: []string{"exec", "mcp__srv__lookup"}, Prompt: "weather?"},
		wantInReply: []string{`"type":"function_call"`, `"name":"lookup"`, `"namespace":"mcp__srv"`, `response.completed`},
	}, {
		name: "openai function output",
		path: "/v1/responses",
		body: `{"model":"m","stream":true,"input":[{"type":"message","role":"user","content":[{"type":"input_text","text":"weather?"}]},
			{"type":"function_call","name":"lookup","namespace":"mcp__srv","call_id":"c1","arguments":"{}"},
			{"type":"function_call_output","call_id":"c1","output":"Wall time: 0.1 seconds\nOutput: rain"}],
			"tools":[{"type":"namespace","name":"mcp__srv","tools":[{"type":"function","name":"lookup"}]}]}`,
		want:        Turn{API: "openai", Tools: []string{"mcp__srv__lookup"}, Prompt: "weather?", Results: []Result{{Name: "mcp__srv__lookup", Text: "Wall time: 0.1 seconds\nOutput: rain"}}},
		wantInReply: []string{`"type":"output_text"`, `got Wall time`, `response.output_text.delta`},
	}, {
		name: "gemini function response, streamed",
		path: "/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse",
		body: `{"contents":[{"role":"user","parts":[{"text":"weather?"}]},
			{"role":"model","parts":[{"functionCall":{"name":"mcp_srv_lookup","args":{}}}]},
			{"role":"user","parts":[{"functionResponse":{"name":"mcp_srv_lookup","response":{"output":"fog"}}}]}],
			"tools":[{"functionDeclarations":[{"name":"mcp_srv_lookup"}]}]}`,
		want:        Turn{API: "gemini", Tools: []string{"mcp_srv_lookup"}, Prompt: "weather?", Results: []Result{{Name: "mcp_srv_lookup", Text: "fog"}}},
		wantInReply: []string{`"text":"got fog"`, `"finishReason":"STOP"`},
	}, {
		name:        "gemini side request without tools",
		path:        "/v1beta/models/gemini-2.5-flash:generateContent",
		body:        `{"contents":[{"role":"user","parts":[{"text":"title this"}]}]}`,
		want:        Turn{API: "gemini", Prompt: "title this"},
		wantInReply: []string{`"text":"no lookup"`},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := Start(echoScript)
			defer s.Close()
			status, events := post(t, s, tt.path, tt.body)
			if status != http.StatusOK {
				t.Fatalf("status %d: %v", status, events)
			}
			reqs := s.ModelRequests()
			if len(reqs) != 1 {
				t.Fatalf("%d model requests recorded, want 1", len(reqs))
			}
			got := reqs[0].Turn
			if got.API != tt.want.API || got.Prompt != tt.want.Prompt || !slices.Equal(got.Tools, tt.want.Tools) ||
				!slices.Equal(got.Deferred, tt.want.Deferred) || !slices.Equal(got.Results, tt.want.Results) {
				t.Errorf("turn:\n got %+v\nwant %+v", got, tt.want)
			}
			all := strings.Join(events, "\n")
			for _, w := range tt.wantInReply {
				if !strings.Contains(all, w) {
					t.Errorf("reply lacks %s:\n%s", w, all)
				}
			}
			for _, e := range events {
				if !json.Valid([]byte(e)) {
					t.Errorf("event is not JSON: %s", e)
				}
			}
		})
	}
}

func TestSideEndpoints(t *testing.T) {
	s := Start(echoScript)
	defer s.Close()
	for _, tt := range []struct{ path, want string }{
		{"/v1/messages/count_tokens", `"input_tokens"`},
		{"/v1beta/models/gemini-2.5-flash:countTokens", `"totalTokens"`},
	} {
		status, body := post(t, s, tt.path, `{"messages":[]}`)
		if status != http.StatusOK || !strings.Contains(strings.Join(body, ""), tt.want) {
			t.Errorf("%s: %d %v, want 200 with %s", tt.path, status, body, tt.want)
		}
	}
	if status, _ := post(t, s, "/api/unknown", `{}`); status != http.StatusNotFound {
		t.Errorf("an unknown path answered %d, want 404", status)
	}
	reqs := s.Requests()
	if len(reqs) != 3 || len(s.ModelRequests()) != 0 {
		t.Errorf("recorded %d requests (%d answered by the script), want 3 and 0", len(reqs), len(s.ModelRequests()))
	}
	if reqs[2].Path != "/api/unknown" || reqs[2].API != "" {
		t.Errorf("the unknown path was recorded as %+v", reqs[2])
	}
}

func TestCredentialsAreNotRecorded(t *testing.T) {
	s := Start(echoScript)
	defer s.Close()
	req, _ := http.NewRequest(http.MethodPost, s.URL+"/v1/messages", strings.NewReader(`{"messages":[]}`))
	req.Header.Set("X-Api-Key", "secret-key")
	req.Header.Set("Authorization", "Bearer secret-token")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	h := s.Requests()[0].Header
	for _, k := range []string{"X-Api-Key", "Authorization"} {
		if strings.Contains(h.Get(k), "secret") {
			t.Errorf("%s recorded: %q", k, h.Get(k))
		}
	}
}

func TestFlatten(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{`"plain"`, "plain"},
		{`[{"type":"text","text":"a"},{"type":"text","text":"b"}]`, "a\nb"},
		{`{"output":"o","isError":false}`, "o"},
		{`{"content":[{"type":"text","text":"x"}],"n":3}`, "x\n3"},
		{`not json`, "not json"},
	} {
		if got := flatten(json.RawMessage(tt.in)); got != tt.want {
			t.Errorf("flatten(%s) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
