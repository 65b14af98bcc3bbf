package web

import (
	"context"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rsa"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"sync"
	"time"

	jose "github.com/go-jose/go-jose/v4"

	"github.com/toolsearch/toolsearch/internal/atomicfile"
	"github.com/toolsearch/toolsearch/loader/upstream/oauth"
)

// Bounds of the identity provider's key set. It comes over the network,
// so what it may cost is fixed: its size, its keys, how long a fetch
// takes, and how often a token may make toolsearch fetch it again.
const (
	maxJWKSBytes = 1 << 20
	maxJWKSKeys  = 100
	jwksTimeout  = 10 * time.Second
	// jwksMaxAge is how long a fetched set is used before it is fetched
	// again at the next token: a provider that drops a key (one leaked)
	// is heard within it.
	jwksMaxAge = time.Hour
	// jwksMinInterval is the least time between two fetches. A token
	// signed with a key the set lacks makes toolsearch fetch it again (the
	// provider rotated its keys), but a stream of tokens naming made-up
	// keys must not make a fetch each.
	jwksMinInterval = 30 * time.Second
)

// jwks is the identity provider's key set, cached: fetched from a URL
// through oauth.Guard (https, or http on loopback; never a private,
// link-local or metadata address), or read from a file (a mounted
// secret), and fetched again when it is old or a token names a key it
// lacks, at most once per jwksMinInterval.
type jwks struct {
	url, file string
	client    *http.Client
	log       *slog.Logger
	now       func() time.Time

	fetchMu sync.Mutex // one fetch at a time
	mu      sync.Mutex
	keys    map[string][]jose.JSONWebKey // by kid
	count   int
	fetched time.Time // the last fetch, failed or not
	loaded  time.Time // the last fetch that worked
}

func newJWKS(url, file string, client *http.Client, log *slog.Logger) *jwks {
	if client == nil {
		client = &http.Client{Timeout: jwksTimeout}
	}
	if url != "" {
		client = oauth.Guard(client, url)
	}
	return &jwks{url: url, file: file, client: client, log: log, now: time.Now}
}

// lookup returns the keys that may have signed a token with key id kid
// (every key, when the token names none and the set holds one), fetching
// the set first when it is old or lacks kid and the last fetch is not too
// recent.
func (s *jwks) lookup(ctx context.Context, kid string) []jose.JSONWebKey {
	if keys, fresh := s.find(kid); len(keys) > 0 && fresh {
		return keys
	}
	s.fetchMu.Lock()
	defer s.fetchMu.Unlock()
	keys, fresh := s.find(kid)
	if (len(keys) > 0 && fresh) || !s.mayFetch() {
		return keys
	}
	if err := s.refresh(ctx); err != nil {
		// The keys held are kept: a provider briefly down does not lock
		// every person out.
		s.log.Warn("fetching the identity provider's keys failed", "jwks", s.source(), "err", err)
	}
	keys, _ = s.find(kid)
	return keys
}

// find returns the keys held for kid and whether the set is fresh.
func (s *jwks) find(kid string) ([]jose.JSONWebKey, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	fresh := !s.loaded.IsZero() && s.now().Sub(s.loaded) < jwksMaxAge
	if kid == "" {
		if s.count == 1 {
			for _, k := range s.keys {
				return k, fresh
			}
		}
		return nil, fresh
	}
	return s.keys[kid], fresh
}

func (s *jwks) mayFetch() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.fetched.IsZero() || s.now().Sub(s.fetched) >= jwksMinInterval
}

func (s *jwks) source() string {
	if s.url != "" {
		return s.url
	}
	return s.file
}

// refresh reads the set again and replaces the keys held.
func (s *jwks) refresh(ctx context.Context) error {
	s.mu.Lock()
	s.fetched = s.now()
	s.mu.Unlock()
	data, err := s.read(ctx)
	if err != nil {
		return err
	}
	keys, count, err := parseJWKS(data, s.log)
	if err != nil {
		return err
	}
	s.mu.Lock()
	s.keys, s.count, s.loaded = keys, count, s.now()
	s.mu.Unlock()
	return nil
}

func (s *jwks) read(ctx context.Context) ([]byte, error) {
	if s.file != "" {
		return atomicfile.ReadFile(s.file, maxJWKSBytes)
	}
	ctx, cancel := context.WithTimeout(ctx, jwksTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.url, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	resp, err := s.client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("the key set answered %s", resp.Status)
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxJWKSBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxJWKSBytes {
		return nil, fmt.Errorf("the key set is over %d bytes", maxJWKSBytes)
	}
	return data, nil
}

// parseJWKS reads a key set, keeping the public signing keys it can use
// (RSA of 2048 bits or more, EC P-256, Ed25519) and skipping the others:
// a provider may publish keys of kinds toolsearch does not take, or
// encryption keys, beside the ones it signs with.
func parseJWKS(data []byte, log *slog.Logger) (map[string][]jose.JSONWebKey, int, error) {
	var set struct {
		Keys []json.RawMessage `json:"keys"`
	}
	if err := json.Unmarshal(data, &set); err != nil {
		return nil, 0, errors.New("the key set is not a JSON Web Key Set ({\"keys\": [...]})")
	}
	if len(set.Keys) > maxJWKSKeys {
		return nil, 0, fmt.Errorf("the key set has %d keys, over %d", len(set.Keys), maxJWKSKeys)
	}
	keys, count := map[string][]jose.JSONWebKey{}, 0
	for i, raw := range set.Keys {
		var k jose.JSONWebKey
		if err := k.UnmarshalJSON(raw); err != nil {
			log.Debug("skipping a key of the identity provider's set", "index", i, "err", err)
			continue
		}
		if why := unusable(k); why != "" {
			log.Debug("skipping a key of the identity provider's set", "index", i, "kid", k.KeyID, "why", why)
			continue
		}
		keys[k.KeyID] = append(keys[k.KeyID], k)
		count++
	}
	if count == 0 {
		return nil, 0, errors.New("the key set holds no public signing key toolsearch can use (RSA, EC P-256 or Ed25519)")
	}
	return keys, count, nil
}

// unusable says why k cannot verify a token, or "".
func unusable(k jose.JSONWebKey) string {
	switch {
	case !k.Valid():
		return "not a valid key"
	case !k.IsPublic():
		return "not a public key" // a symmetric or private key has no place in a published set
	case k.Use != "" && k.Use != "sig":
		return "not a signing key (use " + k.Use + ")"
	case keyAlgorithm(k) == "":
		return "of a kind toolsearch does not verify with"
	case k.Algorithm != "" && k.Algorithm != string(keyAlgorithm(k)):
		return "its alg " + k.Algorithm + " is not the one toolsearch verifies its kind with"
	}
	return ""
}

// keyAlgorithm is the one signature algorithm a key verifies: the kind of
// the key decides it, not the token, so that a token cannot choose how
// its key is used (an RSA public key taken as an HMAC secret).
func keyAlgorithm(k jose.JSONWebKey) jose.SignatureAlgorithm {
	switch key := k.Key.(type) {
	case *rsa.PublicKey:
		if key.N.BitLen() >= 2048 {
			return jose.RS256
		}
	case *ecdsa.PublicKey:
		if key.Curve == elliptic.P256() {
			return jose.ES256
		}
	case ed25519.PublicKey:
		return jose.EdDSA
	}
	return ""
}
