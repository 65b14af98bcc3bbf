package oauth

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"time"

	"github.com/toolsearch/toolsearch/internal/atomicfile"
	"golang.org/x/oauth2"
)

// grantVersion changes when the file format does; a file of another
// version reads as no grant, and the person logs in again.
const grantVersion = 1

// A Grant is what a login to one server obtained: the tokens, and what is
// needed to refresh and revoke them. It is secret: it lives only in its
// file, never in logs, errors or the catalog cache.
type Grant struct {
	Version int `json:"version"`
	// Server and Resource identify the grant: the server's name and its
	// URL (the resource the tokens are for). Tokens are only ever sent to
	// the URL they were obtained for.
	Server   string `json:"server"`
	Resource string `json:"resource"`

	// Issuer is the authorization server; RevocationURL its revocation
	// endpoint (RFC 7009), when it has one.
	Issuer        string `json:"issuer,omitempty"`
	AuthURL       string `json:"authUrl"`
	TokenURL      string `json:"tokenUrl"`
	RevocationURL string `json:"revocationUrl,omitempty"`

	// The client toolsearch was registered as: pre-registered, a client ID
	// metadata document URL, or dynamically registered (then the secret
	// was issued at registration).
	ClientID     string           `json:"clientId"`
	ClientSecret string           `json:"clientSecret,omitempty"`
	AuthStyle    oauth2.AuthStyle `json:"authStyle"`

	// Scopes were granted (as the token response said, else as requested).
	Scopes []string `json:"scopes,omitempty"`
	// WantScopes were asked for by the server (403 insufficient_scope)
	// when no login could run; the next login requests them too.
	WantScopes []string `json:"wantScopes,omitempty"`

	Token    *oauth2.Token `json:"token"`
	Obtained time.Time     `json:"obtained"` // when Token was issued

	// Refused, when set, says why the tokens no longer work (a refresh the
	// authorization server refused, say): the server needs a new login.
	Refused string `json:"refused,omitempty"`
}

// Valid reports whether the access token can be used at now, early before
// it expires.
func (g *Grant) Valid(now time.Time, early time.Duration) bool {
	if g == nil || g.Token == nil || g.Token.AccessToken == "" || g.Refused != "" {
		return false
	}
	return g.Token.Expiry.IsZero() || now.Add(early).Before(g.Token.Expiry)
}

// CanRefresh reports whether the grant holds a refresh token that has not
// been refused.
func (g *Grant) CanRefresh() bool {
	return g != nil && g.Token != nil && g.Token.RefreshToken != "" && g.Refused == ""
}

// secrets lists the grant's secret strings, for redaction.
func (g *Grant) secrets() []string {
	if g == nil {
		return nil
	}
	s := []string{g.ClientSecret}
	if g.ClientSecret != "" {
		// The Basic header golang.org/x/oauth2 sends, which a token
		// endpoint may echo.
		basic := url.QueryEscape(g.ClientID) + ":" + url.QueryEscape(g.ClientSecret)
		s = append(s, base64.StdEncoding.EncodeToString([]byte(basic)), url.QueryEscape(g.ClientSecret))
	}
	if g.Token != nil {
		s = append(s, g.Token.AccessToken, g.Token.RefreshToken)
	}
	return s
}

// A Store keeps grants as files, one per server, in a directory only the
// user may read. Every write is atomic: a reader (another toolsearch
// process included) sees the old file or the new one, never a mix.
type Store struct {
	dir string
}

// NewStore returns a store in dir; empty means DefaultDir.
func NewStore(dir string) (*Store, error) {
	if dir == "" {
		d, err := DefaultDir()
		if err != nil {
			return nil, err
		}
		dir = d
	}
	return &Store{dir: dir}, nil
}

// DefaultDir is os.UserConfigDir()/toolsearch/oauth: tokens are
// configuration the user made, not a cache to be cleared.
func DefaultDir() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("no user config directory for OAuth tokens: %w", err)
	}
	return filepath.Join(dir, "toolsearch", "oauth"), nil
}

// Dir returns the store's directory.
func (s *Store) Dir() string { return s.dir }

// Path names the file of a server's grant. The key hashes the name and the
// URL: a server whose URL changed is a new resource, and the old tokens
// must never be sent to it.
func (s *Store) Path(server, resource string) string {
	sum := sha256.Sum256([]byte(server + "\x00" + resource))
	return filepath.Join(s.dir, atomicfile.NamePart(server)+"-"+hex.EncodeToString(sum[:8])+".json")
}

// Load reads a server's grant; none stored is (nil, nil).
func (s *Store) Load(server, resource string) (*Grant, error) {
	data, err := atomicfile.ReadFile(s.Path(server, resource), atomicfile.MaxConfig)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var g Grant
	if err := json.Unmarshal(data, &g); err != nil {
		return nil, fmt.Errorf("%s: not a toolsearch token file: %v", s.Path(server, resource), describe(err))
	}
	if g.Version != grantVersion || g.Server != server || g.Resource != resource || g.Token == nil {
		return nil, nil
	}
	return &g, nil
}

// describe keeps JSON errors free of the file's content.
func describe(err error) string {
	var syn *json.SyntaxError
	if errors.As(err, &syn) {
		return fmt.Sprintf("invalid JSON at offset %d", syn.Offset)
	}
	return "unexpected JSON types"
}

// Save writes a grant atomically with mode 0600, in a directory of mode
// 0700.
func (s *Store) Save(g *Grant) error {
	g.Version = grantVersion
	data, err := json.MarshalIndent(g, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(s.dir, 0o700); err != nil {
		return err
	}
	return atomicfile.WriteFile(s.Path(g.Server, g.Resource), data)
}

// Delete forgets a server's grant; none stored is no error.
func (s *Store) Delete(server, resource string) error {
	err := os.Remove(s.Path(server, resource))
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	return err
}

// version identifies the version of a server's grant file, so that a
// change made by another process (a login, a refresh, a logout) is noticed
// with one stat.
func (s *Store) version(server, resource string) atomicfile.Version {
	return atomicfile.Stat(s.Path(server, resource))
}
