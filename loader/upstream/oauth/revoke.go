package oauth

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/toolsearch/toolsearch/internal/redact"
	"golang.org/x/oauth2"
)

// Revoke asks the authorization server to revoke the grant's tokens (RFC
// 7009): the refresh token first, which ends the whole grant at most
// servers, then the access token. It reports false, without error, when
// the server offers no revocation endpoint. Neither the go-sdk nor
// golang.org/x/oauth2 revokes tokens, hence this one request.
func Revoke(ctx context.Context, client *http.Client, g *Grant) (bool, error) {
	if g == nil || g.RevocationURL == "" || g.Token == nil {
		return false, nil
	}
	if client == nil {
		client = http.DefaultClient
	}
	for _, t := range []struct{ token, hint string }{
		{g.Token.RefreshToken, "refresh_token"},
		{g.Token.AccessToken, "access_token"},
	} {
		if t.token == "" {
			continue
		}
		if err := revoke(ctx, client, g, t.token, t.hint); err != nil {
			return true, fmt.Errorf("revoking the %s of %s at %s: %s", strings.ReplaceAll(t.hint, "_", " "), g.Server, g.RevocationURL, redact.New(g.secrets()).String(err.Error()))
		}
	}
	return true, nil
}

func revoke(ctx context.Context, client *http.Client, g *Grant, token, hint string) error {
	form := url.Values{"token": {token}, "token_type_hint": {hint}}
	basic := g.ClientSecret != "" && g.AuthStyle != oauth2.AuthStyleInParams
	if !basic {
		form.Set("client_id", g.ClientID)
		if g.ClientSecret != "" {
			form.Set("client_secret", g.ClientSecret)
		}
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, g.RevocationURL, strings.NewReader(form.Encode()))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if basic {
		// RFC 6749 §2.3.1: both parts form-encoded first.
		req.SetBasicAuth(url.QueryEscape(g.ClientID), url.QueryEscape(g.ClientSecret))
	}
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	discard(resp)
	// RFC 7009 §2.2: 200 whether or not the token was valid.
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("the authorization server answered %s", resp.Status)
	}
	return nil
}
