package oauth

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/oauthex"
)

// metadataRecorder remembers the authorization server metadata a login
// fetched. The SDK discovers it and keeps it to itself; toolsearch needs
// the issuer (for `auth status`) and the revocation endpoint (for `auth
// logout`) of the server that issued the tokens. It only watches: the body
// is passed on unchanged, and the SDK validates it.
type metadataRecorder struct {
	base http.RoundTripper

	mu   sync.Mutex
	seen []*oauthex.AuthServerMeta
}

// maxMetadata bounds what is read of a metadata document, as the SDK does.
const maxMetadata = 1 << 20

func (m *metadataRecorder) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := m.base.RoundTrip(req)
	if err != nil || req.Method != http.MethodGet || resp.StatusCode != http.StatusOK ||
		!(strings.Contains(req.URL.Path, "/.well-known/oauth-authorization-server") ||
			strings.Contains(req.URL.Path, "/.well-known/openid-configuration")) {
		return resp, err
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxMetadata+1))
	resp.Body.Close()
	if err != nil {
		return nil, err
	}
	resp.Body = io.NopCloser(bytes.NewReader(body))
	var meta oauthex.AuthServerMeta
	if len(body) <= maxMetadata && json.Unmarshal(body, &meta) == nil && meta.TokenEndpoint != "" {
		m.mu.Lock()
		m.seen = append(m.seen, &meta)
		m.mu.Unlock()
	}
	return resp, nil
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
