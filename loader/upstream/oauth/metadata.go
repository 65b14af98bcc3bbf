package oauth

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/oauthex"
)

// metadataRecorder remembers the authorization server metadata a login
// fetched. The SDK discovers it and keeps it to itself; toolsearch needs
// the issuer (for `auth status`) and the revocation endpoint (for `auth
// logout`) of the server that issued the tokens. It watches, and the SDK
// validates what it passes on, with one exception (see legacyIssuer).
type metadataRecorder struct {
	base     http.RoundTripper
	resource *url.URL // the MCP server's URL

	mu   sync.Mutex
	seen []*oauthex.AuthServerMeta
	prm  bool // protected resource metadata was found
}

// maxMetadata bounds what is read of a metadata document, as the SDK does.
const maxMetadata = 1 << 20

func (m *metadataRecorder) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := m.base.RoundTrip(req)
	if err != nil || req.Method != http.MethodGet || resp.StatusCode != http.StatusOK {
		return resp, err
	}
	if strings.Contains(req.URL.Path, "/.well-known/oauth-protected-resource") {
		m.mu.Lock()
		m.prm = true
		m.mu.Unlock()
		return resp, nil
	}
	if !strings.Contains(req.URL.Path, "/.well-known/oauth-authorization-server") &&
		!strings.Contains(req.URL.Path, "/.well-known/openid-configuration") {
		return resp, nil
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxMetadata+1))
	resp.Body.Close()
	if err != nil {
		return nil, err
	}
	var meta oauthex.AuthServerMeta
	if len(body) <= maxMetadata && json.Unmarshal(body, &meta) == nil && meta.TokenEndpoint != "" {
		body = m.legacyIssuer(req.URL, body, &meta)
		m.mu.Lock()
		m.seen = append(m.seen, &meta)
		m.mu.Unlock()
	}
	resp.Body = io.NopCloser(bytes.NewReader(body))
	resp.ContentLength = int64(len(body))
	return resp, nil
}

// legacyIssuer lets a server of the 2025-03-26 authorization spec log in
// when its metadata names an issuer with a path. Such a server publishes
// no protected resource metadata; its authorization server is, by that
// spec, its own origin, whose root metadata document the SDK fetches and
// then checks (RFC 8414 §3.3) against the origin. Servers of that era
// often say "https://mcp.example.com/oauth" there; strict clients refuse
// them. The check guards against a document claiming to be another
// authorization server's; an issuer on the very origin that serves the
// document and the MCP endpoint claims nothing another party controls, so
// for exactly that case the issuer is read as the origin. Anything else —
// another origin, a server with resource metadata, a document at a path —
// is passed on for the SDK to judge.
func (m *metadataRecorder) legacyIssuer(fetched *url.URL, body []byte, meta *oauthex.AuthServerMeta) []byte {
	m.mu.Lock()
	prm := m.prm
	m.mu.Unlock()
	origin := fetched.Scheme + "://" + fetched.Host
	switch {
	case prm || m.resource == nil || meta.Issuer == origin:
		return body
	case fetched.Path != "/.well-known/oauth-authorization-server" && fetched.Path != "/.well-known/openid-configuration":
		return body
	case m.resource.Scheme+"://"+m.resource.Host != origin:
		return body
	}
	iss, err := url.Parse(meta.Issuer)
	if err != nil || iss.Scheme+"://"+iss.Host != origin {
		return body
	}
	var doc map[string]json.RawMessage
	if json.Unmarshal(body, &doc) != nil {
		return body
	}
	doc["issuer"], _ = json.Marshal(origin)
	out, err := json.Marshal(doc)
	if err != nil {
		return body
	}
	meta.Issuer = origin
	return out
}

// lookup returns the metadata whose token endpoint is tokenURL: the one the
// login used.
func (m *metadataRecorder) lookup(tokenURL string) *oauthex.AuthServerMeta {
	m.mu.Lock()
	defer m.mu.Unlock()
	for i := len(m.seen) - 1; i >= 0; i-- {
		if m.seen[i].TokenEndpoint == tokenURL {
			return m.seen[i]
		}
	}
	return nil
}
