// Package modelsim is a scripted stand-in for the models behind the MCP
// hosts toolsearch is tested in: a loopback HTTP server that speaks enough
// of each vendor's API for Claude Code, Codex and Gemini CLI to run a turn
// against it, and records every request they send.
//
//	sim := modelsim.Start(func(t modelsim.Turn) modelsim.Reply {
//		if len(t.Results) == 0 && t.Offers("tool_search") != "" {
//			return modelsim.Reply{Call: &modelsim.Call{Name: t.Offers("tool_search"), Args: map[string]any{"query": "weather"}}}
//		}
//		return modelsim.Reply{Text: "done"}
//	})
//	defer sim.Close()
//	// ANTHROPIC_BASE_URL=sim.URL, a Codex provider's base_url=sim.URL+"/v1",
//	// GOOGLE_GEMINI_BASE_URL=sim.URL
//
// # APIs
//
// Anthropic Messages (POST /v1/messages, streamed as server-sent events or
// not, and /v1/messages/count_tokens), OpenAI Responses (POST /v1/responses,
// streamed) and Gemini generateContent (POST
// /v1beta/models/MODEL:streamGenerateContent and :generateContent, and
// :countTokens). Each request is read into a Turn, the API-neutral view of
// the conversation a Script decides on: the tools offered and the results of
// the tools called so far. Anything else is answered 404 and recorded, so
// that a test can see what a host asked for.
//
// The script is stateless by design: hosts send side requests of their own
// (titles, summaries, quota checks) between the turns of the conversation,
// so the next step is read from the conversation each request carries, never
// from a count of requests.
package modelsim

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"time"
)

// A Call is a tool call the model makes.
type Call struct {
	Name string
	Args map[string]any
}

// A Result is what a host sent back for a tool call.
type Result struct {
	Name string // the tool called
	Text string // its result as the host gave it to the model, flattened to text
}

// A Turn is one model request, whatever the API.
type Turn struct {
	API   string   // "anthropic", "openai" or "gemini"
	Tools []string // the names of the tools offered
	// Deferred are tools offered by name alone, to be loaded before they
	// are called (Anthropic's defer_loading, which Claude Code sets on MCP
	// tools when it defers them).
	Deferred []string
	Results  []Result // the tool results in the conversation, oldest first
	Prompt   string   // the first user text
}

// Offers returns the offered tool whose name is base, or ends with
// "_"+base (hosts prefix MCP tools with their server: mcp__toolsearch__base),
// or "".
func (t Turn) Offers(base string) string { return named(t.Tools, base) }

// Defers is Offers for the deferred tools.
func (t Turn) Defers(base string) string { return named(t.Deferred, base) }

// ResultOf is the latest result of the tool named base (as Offers matches
// it), and whether there is one.
func (t Turn) ResultOf(base string) (Result, bool) {
	for _, r := range slices.Backward(t.Results) {
		if named([]string{r.Name}, base) != "" {
			return r, true
		}
	}
	return Result{}, false
}

func named(names []string, base string) string {
	for _, name := range names {
		if name == base || strings.HasSuffix(name, "_"+base) {
			return name
		}
	}
	return ""
}

// Last is the latest tool result, or a zero Result.
func (t Turn) Last() Result {
	if len(t.Results) == 0 {
		return Result{}
	}
	return t.Results[len(t.Results)-1]
}

// A Reply is the model's answer: a tool call, or else a text.
type Reply struct {
	Call *Call
	Text string
}

// A Script decides the model's answer to a turn.
type Script func(Turn) Reply

// A Request is one request a host sent.
type Request struct {
	Time   time.Time
	API    string // "" for a path no API here knows
	Method string
	Path   string // with its query
	Header http.Header
	Body   []byte
	// Tools is the request's tools field as sent (Anthropic and OpenAI:
	// tools; Gemini: tools), nil where it had none.
	Tools json.RawMessage
	// Turn is the request as the script saw it; zero for side endpoints
	// (token counts) and unknown paths.
	Turn Turn
	// Model reports whether the script answered it: a generation request,
	// not a token count.
	Model bool
}

// maxBody bounds a request body: hosts send the whole conversation, which
// stays far below this in a test.
const maxBody = 64 << 20

// A Server is a running scripted model.
type Server struct {
	URL    string // http://127.0.0.1:PORT, no trailing slash
	script Script
	srv    *httptest.Server

	mu   sync.Mutex
	reqs []Request
	ids  int
}

// Start serves script on a loopback port until Close.
func Start(script Script) *Server {
	s := &Server{script: script}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	s.URL = s.srv.URL
	return s
}

// Close stops the server.
func (s *Server) Close() { s.srv.Close() }

// Requests returns every request recorded so far, oldest first.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.reqs)
}

// ModelRequests returns the requests the script answered, oldest first.
func (s *Server) ModelRequests() []Request {
	var out []Request
	for _, r := range s.Requests() {
		if r.Model {
			out = append(out, r)
		}
	}
	return out
}

// nextID numbers the ids the model gives its messages and tool calls.
func (s *Server) nextID(prefix string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ids++
	return fmt.Sprintf("%s_%d", prefix, s.ids)
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(io.LimitReader(r.Body, maxBody))
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	rec := Request{Time: time.Now(), Method: r.Method, Path: r.URL.RequestURI(), Header: redacted(r.Header), Body: body}
	defer func() {
		s.mu.Lock()
		s.reqs = append(s.reqs, rec)
		s.mu.Unlock()
	}()
	path := r.URL.Path
	switch {
	case r.Method != http.MethodPost:
		http.NotFound(w, r)
	case path == "/v1/messages/count_tokens":
		rec.API = "anthropic"
		writeJSON(w, map[string]any{"input_tokens": approxTokens(body)})
	case path == "/v1/messages":
		rec.API = "anthropic"
		s.anthropic(w, body, &rec)
	case path == "/v1/responses":
		rec.API = "openai"
		s.openai(w, body, &rec)
	case strings.HasPrefix(path, "/v1beta/models/") || strings.HasPrefix(path, "/v1/models/"):
		rec.API = "gemini"
		s.gemini(w, r, body, &rec)
	default:
		http.NotFound(w, r)
	}
}

// answer runs the script on a turn and records both.
func (s *Server) answer(turn Turn, rec *Request) Reply {
	rec.Turn, rec.Model = turn, true
	return s.script(turn)
}

// redacted is h without its credentials: recorded requests end up in test
// logs.
func redacted(h http.Header) http.Header {
	h = h.Clone()
	for _, k := range []string{"Authorization", "X-Api-Key", "X-Goog-Api-Key", "Cookie"} {
		if h.Get(k) != "" {
			h.Set(k, "[redacted]")
		}
	}
	return h
}

// approxTokens is a rough token count for the count endpoints: hosts use it
// to decide when to compact, which a short test turn never needs.
func approxTokens(body []byte) int { return len(body)/4 + 1 }

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(v)
}

// sse writes server-sent events, flushing each.
type sse struct {
	w http.ResponseWriter
}

func newSSE(w http.ResponseWriter) sse {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	return sse{w}
}

// event writes one event; an empty name writes a data line alone (Gemini).
func (e sse) event(name string, data any) {
	b, _ := json.Marshal(data)
	if name != "" {
		fmt.Fprintf(e.w, "event: %s\n", name)
	}
	fmt.Fprintf(e.w, "data: %s\n\n", b)
	if f, ok := e.w.(http.Flusher); ok {
		f.Flush()
	}
}

// argsJSON is a call's arguments as a JSON object text.
func argsJSON(c *Call) string {
	if c.Args == nil {
		return "{}"
	}
	b, _ := json.Marshal(c.Args)
	return string(b)
}

// flatten turns a tool result the host sent, whatever its shape (a string,
// content blocks, an object), into text: the strings it holds, in order.
func flatten(raw json.RawMessage) string {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return string(raw)
	}
	var b strings.Builder
	var walk func(any)
	walk = func(v any) {
		switch v := v.(type) {
		case string:
			if b.Len() > 0 {
				b.WriteByte('\n')
			}
			b.WriteString(v)
		case []any:
			for _, e := range v {
				walk(e)
			}
		case map[string]any:
			keys := make([]string, 0, len(v))
			for k := range v {
				keys = append(keys, k)
			}
			slices.Sort(keys)
			for _, k := range keys {
				if k != "type" {
					walk(v[k])
				}
			}
		case nil, bool:
		default:
			walk(fmt.Sprint(v))
		}
	}
	walk(v)
	return b.String()
}
