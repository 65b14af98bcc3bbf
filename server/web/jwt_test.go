package web

import (
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/hmac"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
)

// idp is a test identity provider: its keys, and its key set served on
// loopback.
type idp struct {
	t       *testing.T
	url     string // of the key set
	fetches atomic.Int32
	mu      sync.Mutex
	keys    map[string]any // kid -> private key
	public  []jose.JSONWebKey
}

const (
	testIssuer   = "https://idp.example.com"
	testAudience = "toolsearch"
)

func newIDP(t *testing.T) *idp {
	p := &idp{t: t, keys: map[string]any{}}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p.fetches.Add(1)
		p.mu.Lock()
		defer p.mu.Unlock()
		json.NewEncoder(w).Encode(jose.JSONWebKeySet{Keys: p.public})
	}))
	t.Cleanup(srv.Close)
	p.url = srv.URL + "/jwks.json"
	return p
}

// addKey makes a key of the kind alg signs with and publishes it as kid.
func (p *idp) addKey(kid string, alg jose.SignatureAlgorithm) {
	p.t.Helper()
	var priv, pub any
	switch alg {
	case jose.RS256:
		k, err := rsa.GenerateKey(rand.Reader, 2048)
		if err != nil {
			p.t.Fatal(err)
		}
		priv, pub = k, &k.PublicKey
	case jose.ES256:
		k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		if err != nil {
			p.t.Fatal(err)
		}
		priv, pub = k, &k.PublicKey
	case jose.EdDSA:
		pk, k, err := ed25519.GenerateKey(rand.Reader)
		if err != nil {
			p.t.Fatal(err)
		}
		priv, pub = k, pk
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.keys[kid] = priv
	p.public = append(p.public, jose.JSONWebKey{Key: pub, KeyID: kid, Algorithm: string(alg), Use: "sig"})
}

// claims are a token's claims; the zero value is alice's, valid now.
type claims struct {
	jwt.Claims
	Team string `json:"team,omitempty"`
}

func (p *idp) valid(sub string) claims {
	now := time.Now()
	return claims{Claims: jwt.Claims{Issuer: testIssuer, Audience: jwt.Audience{testAudience}, Subject: sub,
		Expiry: jwt.NewNumericDate(now.Add(10 * time.Minute)), IssuedAt: jwt.NewNumericDate(now)}}
}

// sign signs c with the key kid (whose kind gives alg).
func (p *idp) sign(kid string, alg jose.SignatureAlgorithm, c claims) string {
	p.t.Helper()
	p.mu.Lock()
	key := p.keys[kid]
	p.mu.Unlock()
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: alg, Key: key}, (&jose.SignerOptions{}).WithType("JWT").WithHeader("kid", kid))
	if err != nil {
		p.t.Fatal(err)
	}
	tok, err := jwt.Signed(signer).Claims(c).Serialize()
	if err != nil {
		p.t.Fatal(err)
	}
	return tok
}

func (p *idp) verifier(o JWTOptions) *JWTVerifier {
	p.t.Helper()
	if o.Issuer == "" {
		o.Issuer, o.Audience, o.JWKSURL = testIssuer, testAudience, p.url
	}
	v, err := NewJWTVerifier(o, nil)
	if err != nil {
		p.t.Fatal(err)
	}
	return v
}

// handMade builds a token from a header and claims as given, with sig as
// its signature: what no library would sign.
func handMade(header map[string]any, c any, sig []byte) string {
	enc := func(v any) string {
		b, _ := json.Marshal(v)
		return base64.RawURLEncoding.EncodeToString(b)
	}
	return enc(header) + "." + enc(c) + "." + base64.RawURLEncoding.EncodeToString(sig)
}

// TestJWTAccepted: a token of the test issuer, signed with each kind of
// key its set publishes, names its principal.
func TestJWTAccepted(t *testing.T) {
	p := newIDP(t)
	p.addKey("rsa", jose.RS256)
	p.addKey("ec", jose.ES256)
	p.addKey("ed", jose.EdDSA)
	v := p.verifier(JWTOptions{})
	for kid, alg := range map[string]jose.SignatureAlgorithm{"rsa": jose.RS256, "ec": jose.ES256, "ed": jose.EdDSA} {
		got, err := v.Verify(context.Background(), p.sign(kid, alg, p.valid("alice")))
		if err != nil || got.name != "alice" {
			t.Errorf("%s token: %+v, %v; want alice", alg, got, err)
		}
	}
	if n := p.fetches.Load(); n != 1 {
		t.Errorf("the key set was fetched %d times for three tokens, want once", n)
	}
}

// TestJWTRefused: every token that must not name a principal.
func TestJWTRefused(t *testing.T) {
	p := newIDP(t)
	p.addKey("rsa", jose.RS256)
	p.addKey("ec", jose.ES256)
	v := p.verifier(JWTOptions{})
	withClaims := func(f func(*claims)) string {
		c := p.valid("alice")
		f(&c)
		return p.sign("rsa", jose.RS256, c)
	}
	good := p.sign("rsa", jose.RS256, p.valid("alice"))
	parts := strings.Split(good, ".")

	// The RSA public key, as HS256's secret: the classic confusion.
	var rsaPub []byte
	for _, k := range p.public {
		if k.KeyID == "rsa" {
			rsaPub, _ = x509.MarshalPKIXPublicKey(k.Key)
		}
	}
	hsClaims := p.valid("alice")
	hsHeader := map[string]any{"alg": "HS256", "typ": "JWT", "kid": "rsa"}
	unsigned := handMade(hsHeader, hsClaims, nil)
	mac := hmac.New(sha256.New, rsaPub)
	mac.Write([]byte(unsigned[:strings.LastIndex(unsigned, ".")]))
	hs256 := unsigned[:strings.LastIndex(unsigned, ".")+1] + base64.RawURLEncoding.EncodeToString(mac.Sum(nil))

	// A claim changed after signing.
	forged := p.valid("mallory")
	tamperedClaims := handMade(nil, forged, nil)
	tampered := parts[0] + "." + strings.Split(tamperedClaims, ".")[1] + "." + parts[2]

	// Another key, unpublished, that says it is "rsa".
	other, _ := rsa.GenerateKey(rand.Reader, 2048)
	signer, _ := jose.NewSigner(jose.SigningKey{Algorithm: jose.RS256, Key: other}, (&jose.SignerOptions{}).WithHeader("kid", "rsa"))
	wrongKey, _ := jwt.Signed(signer).Claims(p.valid("alice")).Serialize()

	// An RSA signature under the EC key's id.
	ecSigned := p.sign("rsa", jose.RS256, p.valid("alice"))
	hdr, _ := json.Marshal(map[string]any{"alg": "RS256", "kid": "ec"})
	kidSwap := base64.RawURLEncoding.EncodeToString(hdr) + ecSigned[strings.Index(ecSigned, "."):]

	for _, tc := range []struct{ name, token string }{
		{"expired", withClaims(func(c *claims) {
			c.Expiry = jwt.NewNumericDate(time.Now().Add(-10 * time.Minute))
			c.IssuedAt = jwt.NewNumericDate(time.Now().Add(-20 * time.Minute))
		})},
		{"wrong audience", withClaims(func(c *claims) { c.Audience = jwt.Audience{"another-app"} })},
		{"no audience", withClaims(func(c *claims) { c.Audience = nil })},
		{"wrong issuer", withClaims(func(c *claims) { c.Issuer = "https://evil.example.com" })},
		{"not yet valid", withClaims(func(c *claims) { c.NotBefore = jwt.NewNumericDate(time.Now().Add(time.Hour)) })},
		{"no expiry", withClaims(func(c *claims) { c.Expiry = nil })},
		{"expires in a year", withClaims(func(c *claims) { c.Expiry = jwt.NewNumericDate(time.Now().Add(365 * 24 * time.Hour)) })},
		{"no subject", withClaims(func(c *claims) { c.Subject = "" })},
		{"subject with a newline", withClaims(func(c *claims) { c.Subject = "alice\nbob" })},
		{"unknown kid", handMade(map[string]any{"alg": "RS256", "kid": "nobody"}, p.valid("alice"), []byte("x"))},
		{"alg none", handMade(map[string]any{"alg": "none", "kid": "rsa"}, p.valid("alice"), nil)},
		{"alg none, no signature part", strings.TrimSuffix(handMade(map[string]any{"alg": "none"}, p.valid("alice"), nil), ".")},
		{"HS256 with the public key", hs256},
		{"tampered claims", tampered},
		{"tampered signature", parts[0] + "." + parts[1] + "." + base64.RawURLEncoding.EncodeToString([]byte(strings.Repeat("A", 256)))},
		{"signed by another key", wrongKey},
		{"RS256 signature under an EC key's kid", kidSwap},
		{"oversized", strings.Repeat("a", maxJWTBytes+1)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := v.Verify(context.Background(), tc.token)
			if err == nil {
				t.Fatalf("accepted as %+v", got)
			}
			t.Log(err)
			// Only the provider's own tokens are logged as warnings.
			if forgery := strings.Contains(tc.name, "kid") || strings.Contains(tc.name, "alg") || strings.Contains(tc.name, "HS256") ||
				strings.Contains(tc.name, "tampered") || strings.Contains(tc.name, "another key") || strings.Contains(tc.name, "oversized"); got.signed == forgery {
				t.Errorf("signed = %v", got.signed)
			}
		})
	}
}

// TestJWTKeyRotation: a token signed with a key the provider added after
// the set was fetched is accepted once the set is fetched again; tokens
// naming keys nobody published make at most one fetch per interval.
func TestJWTKeyRotation(t *testing.T) {
	p := newIDP(t)
	p.addKey("old", jose.ES256)
	v := p.verifier(JWTOptions{})
	now := time.Now()
	v.keys.now = func() time.Time { return now }
	if _, err := v.Verify(context.Background(), p.sign("old", jose.ES256, p.valid("alice"))); err != nil {
		t.Fatal(err)
	}
	p.addKey("new", jose.ES256)
	rotated := p.sign("new", jose.ES256, p.valid("alice"))
	// Within the interval the set is not fetched again, however many
	// unknown keys tokens name.
	for range 20 {
		if _, err := v.Verify(context.Background(), rotated); err == nil {
			t.Fatal("a key fetched too soon after the last fetch")
		}
	}
	if n := p.fetches.Load(); n != 1 {
		t.Fatalf("%d fetches within the interval, want 1", n)
	}
	now = now.Add(jwksMinInterval)
	if got, err := v.Verify(context.Background(), rotated); err != nil || got.name != "alice" {
		t.Fatalf("after the interval: %+v, %v", got, err)
	}
	if n := p.fetches.Load(); n != 2 {
		t.Fatalf("%d fetches, want 2", n)
	}
	// A set that has grown old is fetched again at the next token, and a
	// key the provider dropped stops working.
	p.mu.Lock()
	p.public = p.public[1:] // "old" dropped
	p.mu.Unlock()
	now = now.Add(jwksMaxAge)
	if _, err := v.Verify(context.Background(), p.sign("old", jose.ES256, p.valid("alice"))); err == nil {
		t.Fatal("a dropped key still verifies after the set's maximum age")
	}
}

// TestJWKSGuarded: the key set is fetched through the OAuth guard: never
// from a link-local (cloud metadata) or private address, never over plain
// http to another machine.
func TestJWKSGuarded(t *testing.T) {
	for _, u := range []string{"https://169.254.169.254/jwks.json", "https://10.0.0.1/jwks.json", "https://[fe80::1]/jwks.json"} {
		v, err := NewJWTVerifier(JWTOptions{Issuer: testIssuer, Audience: testAudience, JWKSURL: u}, nil)
		if err != nil {
			t.Fatal(err)
		}
		_, err = v.keys.read(context.Background())
		if err == nil || !strings.Contains(err.Error(), "not a public address") {
			t.Errorf("%s: %v, want the guard's refusal", u, err)
		}
	}
	if _, err := NewJWTVerifier(JWTOptions{Issuer: testIssuer, Audience: testAudience, JWKSURL: "http://idp.example.com/jwks"}, nil); err == nil {
		t.Error("a plain-http key set off loopback was accepted")
	}
}

func TestJWTOptionsCheck(t *testing.T) {
	for _, tc := range []struct {
		o    JWTOptions
		want int
	}{
		{JWTOptions{Issuer: "i", Audience: "a", JWKSURL: "https://idp/jwks"}, 0},
		{JWTOptions{Issuer: "i", Audience: "a", JWKSFile: "/run/jwks.json"}, 0},
		{JWTOptions{}, 3},
		{JWTOptions{Issuer: "i", Audience: "a", JWKSURL: "https://idp/jwks", JWKSFile: "f"}, 1},
		{JWTOptions{Issuer: "i", Audience: "a", JWKSURL: "http://127.0.0.1.evil.example/jwks"}, 1},
		{JWTOptions{Issuer: "i", Audience: "a", JWKSURL: "https://idp/jwks", Leeway: time.Hour}, 1},
	} {
		if got := tc.o.Check("http.jwt"); len(got) != tc.want {
			t.Errorf("%+v: %q, want %d problems", tc.o, got, tc.want)
		}
	}
}

// TestParseJWKSSkipsUnusableKeys: a set may hold keys toolsearch does not
// take; those are skipped and the others kept, and a set with a secret
// (symmetric) key gives that key no use.
func TestParseJWKSSkipsUnusableKeys(t *testing.T) {
	ec, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	small, _ := rsa.GenerateKey(rand.Reader, 1024)
	good, _ := json.Marshal(jose.JSONWebKey{Key: &ec.PublicKey, KeyID: "ec", Use: "sig"})
	weak, _ := json.Marshal(jose.JSONWebKey{Key: &small.PublicKey, KeyID: "weak"})
	secret, _ := json.Marshal(jose.JSONWebKey{Key: []byte("0123456789abcdef0123456789abcdef"), KeyID: "hs", Algorithm: "HS256"})
	private, _ := json.Marshal(jose.JSONWebKey{Key: ec, KeyID: "priv"})
	enc, _ := json.Marshal(jose.JSONWebKey{Key: &ec.PublicKey, KeyID: "enc", Use: "enc"})
	set := `{"keys":[` + string(good) + `,` + string(weak) + `,` + string(secret) + `,` + string(private) + `,` + string(enc) + `,{"kty":"weird"}]}`
	keys, n, err := parseJWKS([]byte(set), discardLog())
	if err != nil || n != 1 || len(keys["ec"]) != 1 {
		t.Fatalf("parseJWKS = %v keys (%v), %v; want the EC key alone", n, keys, err)
	}
	if _, _, err := parseJWKS([]byte(`{"keys":[`+string(secret)+`]}`), discardLog()); err == nil {
		t.Error("a set of one secret key was taken")
	}
	var _ crypto.PublicKey = ec.Public()
}

func discardLog() *slog.Logger { return slog.New(slog.DiscardHandler) }

// TestJWKSFetchedOnceAtOnce: many tokens arriving together before the
// set is held make one fetch, not one each.
func TestJWKSFetchedOnceAtOnce(t *testing.T) {
	p := newIDP(t)
	p.addKey("k", jose.EdDSA)
	v := p.verifier(JWTOptions{})
	tok := p.sign("k", jose.EdDSA, p.valid("alice"))
	var wg sync.WaitGroup
	for range 20 {
		wg.Go(func() {
			if _, err := v.Verify(context.Background(), tok); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if n := p.fetches.Load(); n != 1 {
		t.Errorf("%d fetches for 20 tokens at once, want 1", n)
	}
}
