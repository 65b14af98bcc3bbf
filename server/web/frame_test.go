package web

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/toolsearch/toolsearch/loader/upstream/oauth"
	"github.com/toolsearch/toolsearch/server"
)

// TestNoResponseCanBeFramed asks every route of the handler, and the
// refusals of its guard, 404s included: each response forbids framing,
// with frame-ancestors 'none' in every Content-Security-Policy and
// X-Frame-Options DENY. A page on another loopback port framed the status
// page, and one click approved a held tool.
func TestNoResponseCanBeFramed(t *testing.T) {
	s, err := server.New(testCatalog(t), server.Options{Activity: server.NewActivity(10, nil, false)})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	const token = "secret"
	appr := &fakeApprovals{pending: []Pending{{Name: "srv__echo", Kind: "tool", Digest: "abcdef"}}}
	url, _ := startHTTP(t, s, Options{
		Token:     token,
		Tokens:    []ProfileToken{{Token: "tri", Profile: "triage"}},
		Profiles:  map[string]*server.Server{"triage": s},
		Approvals: appr,
		Callbacks: oauth.NewCallbacks(),
		Login: func(ctx context.Context, server string, p *oauth.Prompter) error {
			return p.Show(ctx, server, "https://as.example.com/authorize")
		},
	})
	for _, tc := range []struct {
		name, method, path, token, origin, body string
	}{
		{"the status page", "GET", "/", token, "", ""},
		{"the status page, token in the URL", "GET", "/?token=" + token, "", "", ""},
		{"status.json", "GET", "/status.json", token, "", ""},
		{"events", "GET", "/events", token, "", ""},
		{"search", "GET", "/search?q=echo", token, "", ""},
		{"approve", "POST", "/approve", token, "", `{"name":"srv__echo","digest":"abcdef"}`},
		{"approve, a bad body", "POST", "/approve", token, "", `{`},
		{"login", "POST", "/oauth/login", token, "", `{"server":"srv"}`},
		{"the OAuth callback", "GET", CallbackPath + "?state=nope&code=x", "", "", ""},
		{"mcp, GET", "GET", "/mcp", token, "", ""},
		{"mcp, POST", "POST", "/mcp", token, "", `{"jsonrpc":"2.0","id":1,"method":"ping"}`},
		{"a profile's mcp", "POST", "/mcp/p/triage", token, "", `{"jsonrpc":"2.0","id":1,"method":"ping"}`},
		{"an unknown profile", "POST", "/mcp/p/nope", token, "", `{}`},
		{"healthz", "GET", "/healthz", "", "", ""},
		{"readyz", "GET", "/readyz", token, "", ""},
		{"404", "GET", "/nothing-here", token, "", ""},
		{"405", "DELETE", "/status.json", token, "", ""},
		{"no token", "GET", "/", "", "", ""},
		{"a profile's token on the page", "GET", "/status.json", "tri", "", ""},
		{"another site's origin", "GET", "/", token, "https://evil.example", ""},
		{"another port's approval", "POST", "/approve", token, "http://127.0.0.1:9", `{"name":"srv__echo","digest":"abcdef"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req, _ := http.NewRequest(tc.method, url+tc.path, strings.NewReader(tc.body))
			if tc.token != "" {
				req.Header.Set("Authorization", "Bearer "+tc.token)
			}
			if tc.origin != "" {
				req.Header.Set("Origin", tc.origin)
			}
			if tc.body != "" {
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("Accept", "application/json, text/event-stream")
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close() // the event streams end here
			checkFramingRefused(t, resp)
		})
	}
}

func checkFramingRefused(t *testing.T, resp *http.Response) {
	t.Helper()
	if got := resp.Header.Get("X-Frame-Options"); got != "DENY" {
		t.Errorf("%s: X-Frame-Options %q, want DENY", resp.Status, got)
	}
	policies := resp.Header.Values("Content-Security-Policy")
	if len(policies) == 0 {
		t.Errorf("%s: no Content-Security-Policy", resp.Status)
	}
	for _, p := range policies {
		if !strings.Contains(p, "frame-ancestors 'none'") {
			t.Errorf("%s: Content-Security-Policy %q lets pages frame it", resp.Status, p)
		}
	}
}

// TestStatusPageKeepsItsPolicy: the status page's own policy keeps its
// directives, with frame-ancestors merged in.
func TestStatusPageKeepsItsPolicy(t *testing.T) {
	s, _ := server.New(testCatalog(t), server.Options{})
	defer s.Close()
	url, _ := startHTTP(t, s, Options{})
	resp, err := http.Get(url + "/")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	got := resp.Header.Values("Content-Security-Policy")
	if len(got) != 1 || !strings.HasPrefix(got[0], "default-src 'self'; ") || !strings.HasSuffix(got[0], "; frame-ancestors 'none'") {
		t.Errorf("Content-Security-Policy %q, want the page's own policy with frame-ancestors 'none'", got)
	}
}

func TestWithoutFraming(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"default-src 'self'", "default-src 'self'; frame-ancestors 'none'"},
		{"default-src 'self'; frame-ancestors *; img-src data:", "default-src 'self'; img-src data:; frame-ancestors 'none'"},
		{"FRAME-ANCESTORS http://127.0.0.1:9;", "frame-ancestors 'none'"},
		{"", "frame-ancestors 'none'"},
	} {
		if got := withoutFraming(tc.in); got != tc.want {
			t.Errorf("withoutFraming(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
