package oauth

import (
	"fmt"
	"net/url"
	"strings"
)

// Settings are a server's OAuth settings from toolsearch.yaml
// (servers.NAME.oauth). All are optional: without any, toolsearch
// registers itself dynamically and requests the scopes the server names.
type Settings struct {
	// ClientID and ClientSecret of a client registered in advance with the
	// authorization server. A client ID without a secret is a public
	// client.
	ClientID     string
	ClientSecret string
	// ClientMetadataURL is an https URL where a Client ID Metadata
	// Document describing toolsearch is published; it is the client ID
	// with authorization servers that support such documents.
	ClientMetadataURL string
	// Scopes replace the scopes the server names at a first login. Scopes a
	// server later asks for (a 403 insufficient_scope) are added to them.
	Scopes []string
	// CallbackPort fixes the port of the loopback callback
	// (http://127.0.0.1:PORT/callback), for clients registered with that
	// exact redirect URI; 0 picks a free port at each login.
	CallbackPort int
	// Identity says whose login the server's calls use: IdentityShared
	// ("" too), one login for everyone, or IdentityUser, each principal's
	// own.
	Identity Identity
}

// Identity is whose login a server's calls use (servers.NAME.oauth.identity).
type Identity string

const (
	// IdentityShared is one login per server, used by every caller:
	// toolsearch's behaviour before principals.
	IdentityShared Identity = "shared"
	// IdentityUser is a login per principal and server: each person's
	// calls use that person's grant, and a caller without one is told how
	// to log in. No one's grant is ever used for another.
	IdentityUser Identity = "user"
)

// PerUser reports whether the server's calls use each principal's own
// login.
func (s *Settings) PerUser() bool { return s.Identity == IdentityUser }

// Check returns every problem with the settings, each naming its key
// under prefix (servers.NAME.oauth).
func (s *Settings) Check(prefix string) []string {
	var probs []string
	if s.ClientSecret != "" && s.ClientID == "" {
		probs = append(probs, prefix+".clientSecret: set without clientId; a secret belongs to a pre-registered client")
	}
	if s.ClientMetadataURL != "" {
		u, err := url.Parse(s.ClientMetadataURL)
		if err != nil || u.Scheme != "https" || u.Host == "" || strings.Trim(u.Path, "/") == "" {
			probs = append(probs, fmt.Sprintf("%s.clientMetadataUrl: %q is not an https URL with a path, as a client ID metadata document needs", prefix, s.ClientMetadataURL))
		}
	}
	for i, sc := range s.Scopes {
		if sc == "" || strings.ContainsAny(sc, " \t\n\"\\") {
			probs = append(probs, fmt.Sprintf("%s.scopes[%d]: %q is not a scope: no spaces, quotes or backslashes, and not empty", prefix, i, sc))
		}
	}
	switch s.Identity {
	case "", IdentityShared, IdentityUser:
	default:
		probs = append(probs, fmt.Sprintf("%s.identity: %q is not an identity: shared (one login for everyone, the default) or user (each person logs in)", prefix, s.Identity))
	}
	if s.CallbackPort < 0 || s.CallbackPort > 65535 {
		probs = append(probs, fmt.Sprintf("%s.callbackPort: %d is not a port (1-65535, or 0 for any free port)", prefix, s.CallbackPort))
	}
	return probs
}
