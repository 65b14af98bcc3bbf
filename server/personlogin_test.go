package server

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type personLoginErr struct{ who string }

func (e personLoginErr) Error() string { return e.who + " has no login of their own" }
func (e personLoginErr) UserLoginRequired() (string, string, string) {
	return e.who, "no login is stored for " + e.who, "Log in to srv as " + e.who + " at http://toolsearch.example/login."
}

// personUpstreams takes each person's own login: a call is refused until
// the login begun for its caller has come back.
type personUpstreams struct {
	fakeUpstreams
	mu       sync.Mutex
	begun    map[string]string // state -> principal
	loggedIn map[string]bool
	redirect string
}

func (p *personUpstreams) Call(ctx context.Context, server, tool string, args json.RawMessage) (*mcp.CallToolResult, error) {
	who := PrincipalOf(ctx)
	p.mu.Lock()
	in := p.loggedIn[who]
	p.mu.Unlock()
	if !in {
		return nil, personLoginErr{who}
	}
	return p.fakeUpstreams.Call(ctx, server, tool, args)
}

func (p *personUpstreams) BeginPersonLogin(_ context.Context, server, who, redirectURL, nonce string) (string, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.begun["s-"+who] = who
	p.redirect = redirectURL
	return "https://as.example.com/authorize?state=s-" + who, nil
}

func (p *personUpstreams) PersonLoginNeeded(server, who string) string {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.loggedIn[who] {
		return ""
	}
	return "no login is stored for " + who
}

// comeBack is the callback of a login's state: the grant goes to whoever
// began it.
func (p *personUpstreams) comeBack(state string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if who, ok := p.begun[state]; ok {
		p.loggedIn[who] = true
		delete(p.begun, state)
	}
}

// TestCallTakesAPersonThroughTheirLogin: a session whose client opens
// login pages is asked to open the caller's own login; once it came back,
// the call goes through. A client that cannot is told how, in a sentence.
func TestCallTakesAPersonThroughTheirLogin(t *testing.T) {
	echo := map[string]any{"name": "srv__echo", "arguments": map[string]any{"message": "hi"}}
	up := &personUpstreams{begun: map[string]string{}, loggedIn: map[string]bool{}}
	s, _ := New(testCatalog(t), Options{ListingBudget: DefaultListingBudget, Upstreams: up})
	defer s.Close()
	s.SetPersonLoginRedirect("https://toolsearch.example/oauth/callback")

	cs, _ := connectClient(t, s, "")
	text, res := callText(t, cs, CallTool, echo)
	if !res.IsError || !strings.Contains(text, "Log in to srv as operator at http://toolsearch.example/login.") {
		t.Fatalf("without URL elicitation: %q", text)
	}

	var asked *mcp.ElicitParams
	client := mcp.NewClient(&mcp.Implementation{Name: "test"}, &mcp.ClientOptions{
		Capabilities: &mcp.ClientCapabilities{Elicitation: &mcp.ElicitationCapabilities{URL: &mcp.URLElicitationCapabilities{}}},
		ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			asked = req.Params
			// The person's browser follows the page back to the callback.
			go up.comeBack(strings.TrimPrefix(req.Params.URL, "https://as.example.com/authorize?state="))
			return &mcp.ElicitResult{Action: "accept"}, nil
		},
	})
	ms := s.NewMCPServer()
	defer s.Release(ms)
	cs = connectTo(t, ms, client, "2025-11-25")
	text, res = callText(t, cs, CallTool, echo)
	if asked == nil || asked.Mode != "url" || asked.URL != "https://as.example.com/authorize?state=s-operator" {
		t.Fatalf("elicitation %+v", asked)
	}
	if res.IsError || text != `echo {"message":"hi"}` {
		t.Errorf("after the person's login: isError=%v %q", res.IsError, text)
	}
	if up.redirect != "https://toolsearch.example/oauth/callback" {
		t.Errorf("the login comes back to %q", up.redirect)
	}
}
