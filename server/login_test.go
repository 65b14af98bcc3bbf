package server

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolsearch/toolsearch/loader/upstream/oauth"
)

type authRequiredErr struct{}

func (authRequiredErr) Error() string { return "needs a login" }
func (authRequiredErr) AuthRequired() (string, string) {
	return "no login is stored for it", "toolsearch auth login srv --mcp-config /home/me/.mcp.json"
}

// loginUpstreams needs a login until Login has run.
type loginUpstreams struct {
	fakeUpstreams
	mu       sync.Mutex
	loggedIn bool
	logins   int
}

func (l *loginUpstreams) Call(ctx context.Context, server, tool string, args json.RawMessage) (*mcp.CallToolResult, error) {
	l.mu.Lock()
	in := l.loggedIn
	l.mu.Unlock()
	if !in {
		return nil, authRequiredErr{}
	}
	return l.fakeUpstreams.Call(ctx, server, tool, args)
}

// Login shows the page as a real login does; the person is done when Show
// returns.
func (l *loginUpstreams) Login(ctx context.Context, server string, p *oauth.Prompter) error {
	l.mu.Lock()
	l.logins++
	l.mu.Unlock()
	err := p.Show(ctx, server, "https://as.example.com/authorize?state=s1")
	if p.Done != nil {
		p.Done(ctx, server, err)
	}
	if err != nil {
		return err
	}
	l.mu.Lock()
	l.loggedIn = true
	l.mu.Unlock()
	return nil
}

func TestCallNeedsLogin(t *testing.T) {
	echo := map[string]any{"name": "srv__echo", "arguments": map[string]any{"message": "hi"}}
	t.Run("without URL elicitation", func(t *testing.T) {
		up := &loginUpstreams{}
		s, _ := New(testCatalog(t), Options{ListingBudget: DefaultListingBudget, Upstreams: up})
		defer s.Close()
		cs, _ := connectClient(t, s, "")
		text, res := callText(t, cs, CallTool, echo)
		if !res.IsError || !strings.HasPrefix(text, "auth_required: server srv needs a login before srv__echo can be called (no login is stored for it)") ||
			!strings.HasSuffix(text, "\ntoolsearch auth login srv --mcp-config /home/me/.mcp.json") {
			t.Errorf("result %q", text)
		}
		sc, _ := res.StructuredContent.(map[string]any)
		if sc["error"] != "auth_required" || sc["command"] != "toolsearch auth login srv --mcp-config /home/me/.mcp.json" {
			t.Errorf("structured content %v", res.StructuredContent)
		}
		if up.logins != 0 {
			t.Errorf("%d logins from a session that cannot open URLs", up.logins)
		}
	})

	for _, action := range []string{"accept", "decline"} {
		t.Run("URL elicitation "+action, func(t *testing.T) {
			up := &loginUpstreams{}
			s, _ := New(testCatalog(t), Options{ListingBudget: DefaultListingBudget, Upstreams: up})
			defer s.Close()
			var (
				mu        sync.Mutex
				asked     *mcp.ElicitParams
				completed []string
			)
			completedCh := make(chan struct{}, 1)
			client := mcp.NewClient(&mcp.Implementation{Name: "test"}, &mcp.ClientOptions{
				Capabilities: &mcp.ClientCapabilities{Elicitation: &mcp.ElicitationCapabilities{URL: &mcp.URLElicitationCapabilities{}}},
				ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
					mu.Lock()
					asked = req.Params
					mu.Unlock()
					return &mcp.ElicitResult{Action: action}, nil
				},
				ElicitationCompleteHandler: func(_ context.Context, req *mcp.ElicitationCompleteNotificationRequest) {
					mu.Lock()
					completed = append(completed, req.Params.ElicitationID)
					mu.Unlock()
					completedCh <- struct{}{}
				},
			})
			ms := s.NewMCPServer()
			defer s.Release(ms)
			cs := connectTo(t, ms, client, "2025-11-25")
			text, res := callText(t, cs, CallTool, echo)
			mu.Lock()
			defer mu.Unlock()
			if asked == nil || asked.Mode != "url" || asked.URL != "https://as.example.com/authorize?state=s1" || asked.ElicitationID == "" || !strings.Contains(asked.Message, "Log in to srv") {
				t.Fatalf("elicitation %+v", asked)
			}
			if action == "decline" {
				if !res.IsError || !strings.HasPrefix(text, "auth_required:") {
					t.Errorf("declined login: %q", text)
				}
				return
			}
			if res.IsError || text != `echo {"message":"hi"}` {
				t.Errorf("after login: isError=%v %q", res.IsError, text)
			}
			mu.Unlock()
			<-completedCh
			mu.Lock()
			if len(completed) != 1 || completed[0] != asked.ElicitationID {
				t.Errorf("completion notifications %q for elicitation %q", completed, asked.ElicitationID)
			}
		})
	}
}
