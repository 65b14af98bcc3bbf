package oauth

import (
	"context"
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

	"github.com/gofrs/flock"

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
	// Principal is whose grant it is ("" the shared login's), as its file
	// says it, so that the files can list a server's people (the name of
	// the file hashes it). A database keeps it in its key instead.
	Principal string `json:"principal,omitempty"`

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

// Path names the file of a server's grant, for the shared identity. The
// key hashes the name and the URL: a server whose URL changed is a new
// resource, and the old tokens must never be sent to it.
func (s *Store) Path(server, resource string) string {
	return s.path(GrantKey{Server: server, Resource: resource})
}

// path names the file of a grant; a principal's is hashed with the rest.
func (s *Store) path(k GrantKey) string {
	key := k.Server + "\x00" + k.Resource
	if k.Principal != "" {
		key += "\x00" + k.Principal
	}
	sum := sha256.Sum256([]byte(key))
	return filepath.Join(s.dir, atomicfile.NamePart(k.Server)+"-"+hex.EncodeToString(sum[:8])+".json")
}

// Load reads a server's grant, for the shared identity; none stored is
// (nil, nil).
func (s *Store) Load(server, resource string) (*Grant, error) {
	k := GrantKey{Server: server, Resource: resource}
	return s.load(s.path(k), k)
}

func (s *Store) load(file string, k GrantKey) (*Grant, error) {
	data, err := atomicfile.ReadFile(file, atomicfile.MaxConfig)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	var notRegular *atomicfile.NotRegularError
	var tooLarge *atomicfile.TooLargeError
	if errors.As(err, &notRegular) || errors.As(err, &tooLarge) {
		return nil, err // no token file: none, and a login replaces it
	}
	if err != nil {
		return nil, &fileReadError{err}
	}
	g, err := DecodeGrant(data, k)
	if err != nil {
		return nil, fmt.Errorf("%s: not a toolsearch token file: %w", file, err)
	}
	return g, nil
}

// fileReadError is a token file that exists but could not be read (its
// folder or file refused, an I/O error, too many files open): not knowing
// the grant, which is not having none, as a database out of reach is not.
type fileReadError struct{ err error }

func (e *fileReadError) Error() string { return e.err.Error() }
func (e *fileReadError) Unwrap() error { return e.err }

// Is makes the error match ErrUnavailable.
func (e *fileReadError) Is(target error) bool { return target == ErrUnavailable }

// DecodeGrant decodes a grant as EncodeGrant wrote it; one of another
// version, or stored for another server, URL or principal, is none (nil,
// nil). Its errors never quote the content.
func DecodeGrant(data []byte, k GrantKey) (*Grant, error) {
	var g Grant
	if err := json.Unmarshal(data, &g); err != nil {
		return nil, errors.New(describe(err))
	}
	if g.Version != grantVersion || g.Server != k.Server || g.Resource != k.Resource || g.Token == nil ||
		(g.Principal != "" && g.Principal != k.Principal) {
		return nil, nil
	}
	return &g, nil
}

// EncodeGrant encodes a grant, with the current version.
func EncodeGrant(g *Grant) ([]byte, error) {
	g.Version = grantVersion
	return json.MarshalIndent(g, "", "  ")
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
// 0700, for the shared identity.
func (s *Store) Save(g *Grant) error {
	return s.save(GrantKey{Server: g.Server, Resource: g.Resource}, g)
}

// save writes g as k's, naming k's principal in it.
func (s *Store) save(k GrantKey, g *Grant) error {
	named := *g
	named.Principal = k.Principal
	data, err := EncodeGrant(&named)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(s.dir, 0o700); err != nil {
		return err
	}
	return atomicfile.WriteFile(s.path(k), data)
}

// Delete forgets a server's grant, for the shared identity; none stored is
// no error.
func (s *Store) Delete(server, resource string) error {
	return s.DeleteGrant(context.Background(), GrantKey{Server: server, Resource: resource})
}

// fileStamp is a grant file's version.
type fileStamp struct{ v atomicfile.Version }

func (a fileStamp) Same(b Stamp) bool {
	o, ok := b.(fileStamp)
	return ok && a.v.Same(o.v)
}

// LoadGrant implements Grants.
func (s *Store) LoadGrant(_ context.Context, k GrantKey) (*Grant, Stamp, error) {
	file := s.path(k)
	v := atomicfile.Stat(file)
	g, err := s.load(file, k)
	return g, fileStamp{v}, err
}

// GrantStamp implements Grants: one stat.
func (s *Store) GrantStamp(_ context.Context, k GrantKey) (Stamp, error) {
	return fileStamp{atomicfile.Stat(s.path(k))}, nil
}

// SaveGrant implements Grants.
func (s *Store) SaveGrant(_ context.Context, k GrantKey, g *Grant) (Stamp, error) {
	err := s.save(k, g)
	return fileStamp{atomicfile.Stat(s.path(k))}, err
}

// DeleteGrant implements Grants.
func (s *Store) DeleteGrant(_ context.Context, k GrantKey) error {
	err := os.Remove(s.path(k))
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	return err
}

// grantLockTimeout bounds the wait for another process's refresh.
const grantLockTimeout = 30 * time.Second

// UpdateGrant implements Grants under a lock file beside the grant's: two
// processes sharing the token file refresh once, the second finding the
// first's tokens, instead of both spending the refresh token (which an
// authorization server that rotates them then refuses to the second).
func (s *Store) UpdateGrant(ctx context.Context, k GrantKey, fn func(*Grant) (*Grant, error)) (*Grant, Stamp, error) {
	file := s.path(k)
	if err := os.MkdirAll(s.dir, 0o700); err != nil {
		return nil, nil, err
	}
	lock := flock.New(file + ".lock")
	lctx, cancel := context.WithTimeout(ctx, grantLockTimeout)
	defer cancel()
	locked, err := lock.TryLockContext(lctx, 20*time.Millisecond)
	if err != nil || !locked {
		return nil, nil, fmt.Errorf("the token file of %s is locked by another process: %w", k.Server, errors.Join(err, lctx.Err()))
	}
	defer lock.Unlock()
	stored, err := s.load(file, k)
	if errors.Is(err, ErrUnavailable) {
		// Not read, which is not "none": refreshing from nothing would
		// ask for a login.
		return nil, nil, err
	}
	if err != nil {
		stored = nil // not a token file is no grant, as Tokens reads it
	}
	next, ferr := fn(stored)
	if next == nil {
		return stored, fileStamp{atomicfile.Stat(file)}, ferr
	}
	if err := s.save(k, next); err != nil {
		return next, fileStamp{atomicfile.Stat(file)}, errors.Join(ferr, err)
	}
	return next, fileStamp{atomicfile.Stat(file)}, ferr
}
