package oauth

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/toolsearch/toolsearch/internal/atomicfile"
	"golang.org/x/oauth2"
)

// A PendingLogin is a person's login begun and not yet completed: what the
// authorization server's redirect back must find to finish it, wherever
// it arrives. It is secret (the PKCE verifier, the client's secret) and
// kept where the grants are: files only the user may read, or the
// database, sealed.
type PendingLogin struct {
	// State is the OAuth state the redirect brings back; the key.
	State string `json:"state"`
	// Principal began the login, and the grant is stored under that
	// principal's key whoever brings the redirect back.
	Principal string `json:"principal"`
	Server    string `json:"server"`
	Resource  string `json:"resource"` // the server's URL, the grant's key
	// Indicator is the resource indicator (RFC 8707) the tokens are
	// asked for: the resource its metadata names.
	Indicator string    `json:"indicator"`
	Expires   time.Time `json:"expires"`

	Verifier    string `json:"verifier"`
	RedirectURL string `json:"redirectUrl"`

	ClientID      string           `json:"clientId"`
	ClientSecret  string           `json:"clientSecret,omitempty"`
	AuthStyle     oauth2.AuthStyle `json:"authStyle"`
	AuthURL       string           `json:"authUrl"`
	TokenURL      string           `json:"tokenUrl"`
	Issuer        string           `json:"issuer,omitempty"`
	RevocationURL string           `json:"revocationUrl,omitempty"`
	Scopes        []string         `json:"scopes,omitempty"`
	// IssRequired says the authorization server advertises RFC 9207: the
	// redirect must carry its issuer.
	IssRequired bool `json:"issRequired,omitempty"`
	// Binding, when set, is the hash of a nonce the browser that began
	// the login holds in a cookie: the redirect is only taken from it.
	Binding string `json:"binding,omitempty"`
}

// Logins keep pending logins where every replica finds them, so that the
// redirect back completes a login on whichever replica it reaches, once.
type Logins interface {
	// PutLogin records a pending login.
	PutLogin(ctx context.Context, l *PendingLogin) error
	// TakeLogin returns the pending login of state and forgets it: a
	// second take of the same state finds none (nil, nil), as does an
	// expired login.
	TakeLogin(ctx context.Context, state string) (*PendingLogin, error)
}

// EncodeLogin and DecodeLogin are a pending login's stored form.
func EncodeLogin(l *PendingLogin) ([]byte, error) { return json.Marshal(l) }

// DecodeLogin reads a pending login as EncodeLogin wrote it; its errors
// never quote the content.
func DecodeLogin(data []byte) (*PendingLogin, error) {
	var l PendingLogin
	if err := json.Unmarshal(data, &l); err != nil {
		return nil, errors.New(describe(err))
	}
	return &l, nil
}

// FileLogins keep pending logins as files in a folder only the user may
// read (beside the token files): one per state, named by its hash, taken
// by renaming it, which only one process can do.
type FileLogins struct{ Dir string }

// Logins returns the pending logins kept beside the store's grants.
func (s *Store) Logins() *FileLogins { return &FileLogins{Dir: filepath.Join(s.dir, "logins")} }

func (f *FileLogins) file(state string) string {
	sum := sha256.Sum256([]byte(state))
	return filepath.Join(f.Dir, hex.EncodeToString(sum[:16])+".json")
}

// PutLogin implements Logins. Expired logins are removed on the way.
func (f *FileLogins) PutLogin(_ context.Context, l *PendingLogin) error {
	if l.State == "" {
		return errors.New("a pending login needs its state")
	}
	if err := os.MkdirAll(f.Dir, 0o700); err != nil {
		return err
	}
	f.sweep(time.Now())
	data, err := EncodeLogin(l)
	if err != nil {
		return err
	}
	return atomicfile.WriteFile(f.file(l.State), data)
}

// TakeLogin implements Logins.
func (f *FileLogins) TakeLogin(_ context.Context, state string) (*PendingLogin, error) {
	if state == "" {
		return nil, nil
	}
	file := f.file(state)
	taken := file + ".taken-" + rand.Text()
	if err := os.Rename(file, taken); err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, nil // never begun, taken already, or swept
		}
		return nil, err
	}
	defer os.Remove(taken)
	data, err := atomicfile.ReadFile(taken, atomicfile.MaxConfig)
	if err != nil {
		return nil, err
	}
	l, err := DecodeLogin(data)
	if err != nil {
		return nil, fmt.Errorf("%s: not a pending login: %w", file, err)
	}
	if l.State != state || !time.Now().Before(l.Expires) {
		return nil, nil
	}
	return l, nil
}

// maxSweep bounds the files one sweep looks at.
const maxSweep = 1000

// sweep removes pending logins that expired, and what a take left behind
// when its process died.
func (f *FileLogins) sweep(now time.Time) {
	d, err := os.Open(f.Dir)
	if err != nil {
		return
	}
	defer d.Close()
	names, _ := d.Readdirnames(maxSweep)
	for _, name := range names {
		file := filepath.Join(f.Dir, name)
		info, err := os.Lstat(file)
		if err != nil || !info.Mode().IsRegular() {
			continue
		}
		// A login lives LoginLife at most, and its file is no newer than
		// its start; a take's leftover is a minute old at most unless its
		// process died.
		age := now.Sub(info.ModTime())
		if (strings.Contains(name, ".taken-") && age > time.Minute) || age > LoginLife+time.Minute {
			os.Remove(file)
		}
	}
}

// LoginLife is how long a person's login may take, from its start to the
// redirect back.
const LoginLife = DefaultWait
