package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// httpServe is a toolsearch serving Streamable HTTP, started by a test.
type httpServe struct {
	base string // http://host:port as the test reaches it
	port string
}

// freePort finds a TCP port nothing listens on.
func freePort(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	return port
}

// serveHTTP starts toolsearch serve --http on addr (a host; the port is
// chosen) in the project, with env added, and waits until it answers.
func (e *trustEnv) serveHTTP(host string, env ...string) *httpServe {
	t := e.t
	t.Helper()
	port := freePort(t)
	cmd := e.command("serve", "--http", net.JoinHostPort(host, port), "--config", filepath.Join(e.dir, "toolsearch.yaml"), "--mcp-config", e.cfg, "--skills", filepath.Join(e.dir, "skills"))
	cmd.Env = append(cmd.Env, env...)
	cmd.Stderr = &testLog{t: t}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Signal(os.Interrupt)
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			cmd.Process.Kill()
			<-done
		}
	})
	s := &httpServe{base: "http://127.0.0.1:" + port, port: port}
	deadline := time.Now().Add(20 * time.Second)
	for {
		res, err := http.Get(s.base + "/healthz")
		if err == nil {
			res.Body.Close()
			return s
		}
		if time.Now().After(deadline) {
			t.Fatalf("toolsearch never answered on %s: %v", s.base, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// client connects an MCP client to path with token, in the given protocol
// version.
func (s *httpServe) client(t *testing.T, path, token, version string) *mcp.ClientSession {
	t.Helper()
	hc := &http.Client{Transport: bearerRT{token, http.DefaultTransport}}
	c := mcp.NewClient(&mcp.Implementation{Name: "e2e-http"}, nil)
	cs, err := c.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: s.base + path, HTTPClient: hc}, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatalf("connect %s (%s): %v", path, version, err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

type bearerRT struct {
	token string
	base  http.RoundTripper
}

func (b bearerRT) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	if b.token != "" {
		r.Header.Set("Authorization", "Bearer "+b.token)
	}
	return b.base.RoundTrip(r)
}

// rpc sends one JSON-RPC request of protocol 2026-07-28 to /mcp, as a
// client of the Skills extension would, and returns the result or the
// error message.
func (s *httpServe) rpc(t *testing.T, token, method string, params map[string]any) (json.RawMessage, string) {
	t.Helper()
	params["_meta"] = map[string]any{
		"io.modelcontextprotocol/protocolVersion":    "2026-07-28",
		"io.modelcontextprotocol/clientInfo":         map[string]any{"name": "e2e", "version": "1"},
		"io.modelcontextprotocol/clientCapabilities": map[string]any{"extensions": map[string]any{"io.modelcontextprotocol/skills": map[string]any{}}},
	}
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
	req, _ := http.NewRequest(http.MethodPost, s.base+"/mcp", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", method)
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	data, _ := io.ReadAll(res.Body)
	if strings.HasPrefix(res.Header.Get("Content-Type"), "text/event-stream") {
		sc := bufio.NewScanner(bytes.NewReader(data))
		sc.Buffer(nil, 16<<20)
		for sc.Scan() {
			if d, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
				data = []byte(d)
				break
			}
		}
	}
	var msg struct {
		Result json.RawMessage `json:"result"`
		Error  *struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal(data, &msg); err != nil {
		t.Fatalf("%s: status %d, %q", method, res.StatusCode, data)
	}
	if msg.Error != nil {
		return nil, msg.Error.Message
	}
	return msg.Result, ""
}

// get fetches path with token and returns the status.
func (s *httpServe) get(t *testing.T, base, path, token string) int {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, base+path, nil)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	return res.StatusCode
}

// profilesEnv is a project with two upstream servers and two skills, and
// two profiles that split them.
func profilesEnv(t *testing.T) *trustEnv {
	e := newTrustEnv(t)
	exe := flipExecutable(t)
	for _, srv := range []struct{ name, defs string }{
		{"github", `[{"name":"get_issue","description":"Get a GitHub issue by number.","inputSchema":{"type":"object"},"_meta":{"version":"gh"}},{"name":"delete_repo","description":"Delete a GitHub repository for good.","inputSchema":{"type":"object"},"_meta":{"version":"gh"}}]`},
		{"sentry", `[{"name":"list_events","description":"List Sentry error events of a project.","inputSchema":{"type":"object"},"_meta":{"version":"se"}}]`},
	} {
		writeFile(t, e.dir, srv.name+".json", srv.defs)
	}
	mcpJSON, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{
		"github": map[string]any{"command": exe, "env": map[string]string{runAsFlipServer: filepath.Join(e.dir, "github.json")}},
		"sentry": map[string]any{"command": exe, "env": map[string]string{runAsFlipServer: filepath.Join(e.dir, "sentry.json")}},
	}})
	writeFile(t, e.dir, "mcp.json", string(mcpJSON))
	for _, name := range []string{"alpha", "beta"} {
		writeFile(t, e.dir, "skills/"+name+"/SKILL.md", fmt.Sprintf("---\nname: %s\ndescription: The %s runbook for incidents. Use when the user mentions %s.\n---\n# %s\n\nRun scripts/hello.sh.\n", name, name, name, name))
		writeFile(t, e.dir, "skills/"+name+"/scripts/hello.sh", "#!/bin/sh\necho hello from "+name+"\n")
	}
	writeFile(t, e.dir, "toolsearch.yaml", `
servers:
  sentry:
    alwaysLoad: [list_events]
profiles:
  triage:
    servers: [github]
    tools: ["github__get_*"]
    skills: [alpha]
  ops:
    servers: [sentry]
    skills: [beta]
http:
  tokens:
    - {env: TRIAGE_TOKEN, profile: triage}
    - {env: OPS_TOKEN, profile: ops}
`)
	return e
}

// flipExecutable is the test binary, which runs as a flip server when told.
func flipExecutable(t *testing.T) string {
	exe := toolsearch(context.Background()).Path
	return exe
}

// outside is what one profile must never reach.
type outside struct {
	tools  []string // exposed names
	skills []string
	words  string // a query that matches the outside tools
}

// TestProfilesOverHTTP serves two profiles from one process, each to its own
// token: neither token can list, search, call, read, run, get a prompt or a
// resource, or list or get a skill outside its profile, through any tool or
// method, in either protocol era; a profile's token reaches /mcp only, and
// /mcp/p/ serves loopback clients only.
func TestProfilesOverHTTP(t *testing.T) {
	e := profilesEnv(t)
	s := e.serveHTTP("0.0.0.0", "TOOLSEARCH_TOKEN=admin-token", "TRIAGE_TOKEN=triage-token", "OPS_TOKEN=ops-token")
	admin := s.client(t, "/mcp", "admin-token", "")
	waitForCall(t, &session{ClientSession: admin}, "both servers listed", "tool_search", map[string]any{"query": "select:github__get_issue,sentry__list_events"}, func(text string) bool {
		return strings.Contains(text, "## 1. github__get_issue") && strings.Contains(text, "## 2. sentry__list_events") && !strings.Contains(text, "[server")
	})

	cases := []struct {
		profile, token  string
		inTool, inSkill string
		out             outside
	}{
		{"triage", "triage-token", "github__get_issue", "alpha", outside{tools: []string{"github__delete_repo", "sentry__list_events"}, skills: []string{"beta"}, words: "delete repository sentry error events beta runbook"}},
		{"ops", "ops-token", "sentry__list_events", "beta", outside{tools: []string{"github__get_issue", "github__delete_repo"}, skills: []string{"alpha"}, words: "github issue delete repository alpha runbook"}},
	}
	for _, tc := range cases {
		for _, version := range []string{"2025-11-25", "2026-07-28"} {
			t.Run(tc.profile+"/"+version, func(t *testing.T) {
				cs := s.client(t, "/mcp", tc.token, version)
				checkProfileSession(t, &session{ClientSession: cs}, tc.inTool, tc.inSkill, tc.out)
			})
		}
		t.Run(tc.profile+"/skills extension", func(t *testing.T) {
			res, msg := s.rpc(t, tc.token, "skills/list", map[string]any{})
			if msg != "" || !strings.Contains(string(res), `"`+tc.inSkill+`"`) {
				t.Errorf("skills/list: %s %s", res, msg)
			}
			for _, sk := range tc.out.skills {
				if strings.Contains(string(res), sk) {
					t.Errorf("skills/list shows %s: %s", sk, res)
				}
				if res, msg := s.rpc(t, tc.token, "skills/get", map[string]any{"uri": "skill://" + sk + "/SKILL.md"}); msg == "" {
					t.Errorf("skills/get %s: %s", sk, res)
				}
			}
		})
		t.Run(tc.profile+"/other endpoints", func(t *testing.T) {
			// /readyz answers anybody, ready or not, and is not among them.
			for _, path := range []string{"/", "/status.json", "/search?q=x", "/mcp/p/" + otherProfile(tc.profile)} {
				if code := s.get(t, s.base, path, tc.token); code != http.StatusForbidden {
					t.Errorf("GET %s with the %s token: %d, want 403", path, tc.profile, code)
				}
			}
			// Its own profile's path works on loopback.
			cs := s.client(t, "/mcp/p/"+tc.profile, tc.token, "2026-07-28")
			checkProfileSession(t, &session{ClientSession: cs}, tc.inTool, tc.inSkill, tc.out)
		})
	}

	// /mcp/p/ is for this machine's clients only.
	if ip := nonLoopbackIP(); ip != "" {
		remote := "http://" + net.JoinHostPort(ip, s.port)
		for _, token := range []string{"admin-token", "triage-token"} {
			if code := s.get(t, remote, "/mcp/p/triage", token); code != http.StatusForbidden {
				t.Errorf("/mcp/p/triage from %s: %d, want 403", ip, code)
			}
		}
		if code := s.get(t, remote, "/readyz", "admin-token"); code != http.StatusOK {
			t.Errorf("/readyz from %s with the admin token: %d (the address must be reachable for the check above to mean anything)", ip, code)
		}
	} else {
		t.Log("no address but loopback: /mcp/p/ off loopback is left to the web package's tests")
	}
}

func otherProfile(p string) string {
	if p == "triage" {
		return "ops"
	}
	return "triage"
}

// nonLoopbackIP is an address of this machine beyond loopback, or "".
func nonLoopbackIP() string {
	addrs, _ := net.InterfaceAddrs()
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok && !n.IP.IsLoopback() && n.IP.To4() != nil {
			return n.IP.String()
		}
	}
	return ""
}

// checkProfileSession tries every tool and method for the entries outside
// a profile, and checks that those inside work.
func checkProfileSession(t *testing.T, s *session, inTool, inSkill string, out outside) {
	t.Helper()
	ctx := context.Background()
	hidden := append(append([]string{}, out.tools...), out.skills...)
	leaks := func(what, text string) {
		t.Helper()
		for _, name := range hidden {
			if strings.Contains(text, name) {
				t.Errorf("%s shows %s:\n%s", what, name, text)
			}
		}
	}
	tools, err := s.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	// The listing names a server's tools in its group, without the
	// server's name: "[github]" then "get_issue".
	listing, _ := json.Marshal(tools)
	for _, name := range hidden {
		if server, tool, ok := strings.Cut(name, "__"); ok && strings.Contains(string(listing), `[`+server+`]`) && strings.Contains(string(listing), tool) {
			t.Errorf("tools/list shows %s:\n%s", name, listing)
		}
	}
	leaks("tools/list", string(listing))
	server, tool, _ := strings.Cut(inTool, "__")
	if !strings.Contains(string(listing), `[`+server+`]`) || !strings.Contains(string(listing), tool) {
		t.Errorf("tools/list lacks %s", inTool)
	}

	for _, args := range []map[string]any{
		{"query": "select:" + strings.Join(hidden, ",")},
		{"query": out.words},
		{"query": out.words, "kind": "skill"},
		{"query": "", "limit": 20},
	} {
		text, res := s.call(t, "tool_search", args)
		data, _ := json.Marshal(res.StructuredContent)
		var sr struct {
			Results []struct{ Name string } `json:"results"`
		}
		json.Unmarshal(data, &sr)
		for _, r := range sr.Results {
			for _, name := range hidden {
				if r.Name == name {
					t.Errorf("tool_search %v found %s:\n%s", args, name, text)
				}
			}
		}
	}
	for _, name := range out.tools {
		text, res := s.call(t, "call_tool", map[string]any{"name": name, "arguments": map[string]any{}})
		if !res.IsError || strings.Contains(text, "in the catalog") {
			t.Errorf("call_tool %s: %s", name, text)
		}
		res2, err := s.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: map[string]any{}})
		if err == nil && !res2.IsError {
			t.Errorf("tools/call %s succeeded", name)
		}
		if err == nil {
			direct, _ := json.Marshal(res2.Content)
			if strings.Contains(string(direct), "in the catalog") {
				t.Errorf("tools/call %s reveals it: %s", name, direct)
			}
		}
	}
	for _, sk := range out.skills {
		if text, res := s.call(t, "read_skill_file", map[string]any{"skill": sk, "path": "SKILL.md"}); !res.IsError || strings.Contains(text, "runbook") {
			t.Errorf("read_skill_file %s: %s", sk, text)
		}
		if text, res := s.call(t, "run_skill_script", map[string]any{"skill": sk, "script": "scripts/hello.sh"}); !res.IsError || strings.Contains(text, "hello from") {
			t.Errorf("run_skill_script %s: %s", sk, text)
		}
		if _, err := s.GetPrompt(ctx, &mcp.GetPromptParams{Name: sk}); err == nil {
			t.Errorf("prompts/get %s succeeded", sk)
		}
		if _, err := s.ReadResource(ctx, &mcp.ReadResourceParams{URI: "skill://" + sk + "/SKILL.md"}); err == nil {
			t.Errorf("resources/read skill://%s/SKILL.md succeeded", sk)
		}
	}
	if prompts, err := s.ListPrompts(ctx, nil); err == nil {
		data, _ := json.Marshal(prompts)
		leaks("prompts/list", string(data))
	}
	if resources, err := s.ListResources(ctx, nil); err == nil {
		data, _ := json.Marshal(resources)
		leaks("resources/list", string(data))
	}
	if templates, err := s.ListResourceTemplates(ctx, nil); err == nil {
		data, _ := json.Marshal(templates)
		leaks("resources/templates/list", string(data))
	}

	// What is inside works.
	if text, res := s.call(t, "call_tool", map[string]any{"name": inTool, "arguments": map[string]any{}}); res.IsError || !strings.HasPrefix(text, "ran ") {
		t.Errorf("call_tool %s: %s", inTool, text)
	}
	if text, res := s.call(t, "read_skill_file", map[string]any{"skill": inSkill, "path": "SKILL.md"}); res.IsError || !strings.Contains(text, "runbook") {
		t.Errorf("read_skill_file %s: %s", inSkill, text)
	}
	if text, res := s.call(t, "run_skill_script", map[string]any{"skill": inSkill, "script": "scripts/hello.sh"}); res.IsError || !strings.Contains(text, "hello from "+inSkill) {
		t.Errorf("run_skill_script %s: %s", inSkill, text)
	}
}

// TestProfileOnOneShotCommands: --profile narrows search, catalog and
// measure as it narrows serve.
func TestProfileOnOneShotCommands(t *testing.T) {
	e := profilesEnv(t)
	cfg := "--config=" + filepath.Join(e.dir, "toolsearch.yaml")
	out, err := e.cli("search", "delete repository sentry events alpha beta runbook", "--profile", "ops", "--detail", "names", cfg)
	if err != nil || !strings.Contains(out, "sentry__list_events (tool") || strings.Contains(out, "github__") || strings.Contains(out, "alpha (skill") {
		t.Errorf("search --profile ops: %v\n%s", err, out)
	}
	out, err = e.cli("measure", "--profile", "triage", "--json", cfg)
	if err != nil {
		t.Fatalf("measure: %v\n%s", err, out)
	}
	var rep struct {
		Sources []struct {
			Name    string `json:"name"`
			Entries int    `json:"entries"`
		} `json:"sources"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	got := map[string]int{}
	for _, s := range rep.Sources {
		got[s.Name] = s.Entries
	}
	if got["github"] != 1 || got["skills"] != 1 || got["sentry"] != 0 {
		t.Errorf("measure --profile triage counts %v, want github 1 and skills 1 only\n%s", got, out)
	}
	if _, err := e.cli("catalog", "--profile", "nope", cfg); err == nil {
		t.Error("an unknown profile must be refused")
	}
}
