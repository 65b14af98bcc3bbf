package authserver

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
)

// Verifier returns a token verifier for auth.RequireBearerToken that asks
// the server directly, in process, and accepts only tokens issued for
// resource (the protected server's URL).
func (s *Server) Verifier(resource string) auth.TokenVerifier {
	return func(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
		return tokenInfo(s.Introspect(token), resource)
	}
}

// IntrospectionVerifier returns a token verifier for
// auth.RequireBearerToken that asks the authorization server's
// introspection endpoint (RFC 7662), as a resource server in another
// process does, and accepts only tokens issued for resource.
func IntrospectionVerifier(introspectURL, resource string, client *http.Client) auth.TokenVerifier {
	if client == nil {
		client = &http.Client{Timeout: 10 * time.Second}
	}
	return func(ctx context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
		form := url.Values{"token": {token}, "token_type_hint": {"access_token"}}
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, introspectURL, strings.NewReader(form.Encode()))
		if err != nil {
			return nil, err
		}
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		resp, err := client.Do(req)
		if err != nil {
			return nil, fmt.Errorf("introspection: %w", err)
		}
		defer resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return nil, fmt.Errorf("introspection: the authorization server answered %s", resp.Status)
		}
		var in Introspection
		if err := json.NewDecoder(io.LimitReader(resp.Body, maxBody)).Decode(&in); err != nil {
			return nil, fmt.Errorf("introspection: %w", err)
		}
		return tokenInfo(in, resource)
	}
}

func tokenInfo(in Introspection, resource string) (*auth.TokenInfo, error) {
	if !in.Active {
		return nil, fmt.Errorf("%w: not active", auth.ErrInvalidToken)
	}
	// RFC 8707: a token for another resource must not open this one.
	if !oauthex.MatchesResource([]string{in.Aud}, resource) {
		return nil, fmt.Errorf("%w: issued for another resource", auth.ErrInvalidToken)
	}
	return &auth.TokenInfo{
		Scopes:     strings.Fields(in.Scope),
		Expiration: time.Unix(in.Exp, 0),
		UserID:     in.Sub,
	}, nil
}
