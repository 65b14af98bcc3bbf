package web

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"time"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"

	"github.com/toolsearch/toolsearch/internal/principal"
)

// JWTOptions name the identity provider whose tokens (JWTs) name the
// principals of requests: toolsearch.yaml's http.jwt.
type JWTOptions struct {
	// Issuer and Audience must match the token's iss and aud exactly.
	Issuer   string
	Audience string
	// JWKSURL is where the provider publishes its keys (https, or http on
	// loopback), or JWKSFile a file holding them; exactly one.
	JWKSURL  string
	JWKSFile string
	// PrincipalClaim names the claim that names the principal; "" means
	// "sub".
	PrincipalClaim string
	// ProfileClaim, when set, names a claim that names the profile the
	// principal is served; a token without it gets the whole catalog.
	ProfileClaim string
	// Leeway is the clock skew allowed on exp, nbf and iat; 0 means
	// DefaultJWTLeeway, and it is at most MaxJWTLeeway.
	Leeway time.Duration
	// Client fetches the key set (nil: a client with a 10 s timeout); it
	// is guarded as OAuth requests are (see oauth.Guard).
	Client *http.Client
}

// Bounds of a JWT.
const (
	DefaultJWTLeeway = time.Minute
	MaxJWTLeeway     = 5 * time.Minute
	// maxJWTBytes bounds a token: it is parsed before anything is known
	// of it.
	maxJWTBytes = 16 << 10
	// maxJWTLife bounds how far ahead a token's exp may be: a token that
	// lives for years is a credential nobody will revoke.
	maxJWTLife = 24 * time.Hour
)

// jwtAlgorithms are the signature algorithms a token may use. "none" and
// the HMAC ones are not among them: a token signed with HS256 and the
// provider's public key as the secret is refused before any key is looked
// at.
var jwtAlgorithms = []jose.SignatureAlgorithm{jose.RS256, jose.ES256, jose.EdDSA}

// A JWTVerifier checks the identity provider's tokens and says whose they
// are.
type JWTVerifier struct {
	o    JWTOptions
	keys *jwks
	log  *slog.Logger
	now  func() time.Time
}

// NewJWTVerifier checks o and returns its verifier. The key set is
// fetched at the first token.
func NewJWTVerifier(o JWTOptions, log *slog.Logger) (*JWTVerifier, error) {
	if probs := o.Check("http.jwt"); len(probs) > 0 {
		return nil, errors.New(strings.Join(probs, "; "))
	}
	if o.PrincipalClaim == "" {
		o.PrincipalClaim = "sub"
	}
	if o.Leeway == 0 {
		o.Leeway = DefaultJWTLeeway
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &JWTVerifier{o: o, keys: newJWKS(o.JWKSURL, o.JWKSFile, o.Client, log), log: log, now: time.Now}, nil
}

// Check returns every problem of the options, each naming its key under
// prefix.
func (o JWTOptions) Check(prefix string) []string {
	var probs []string
	if o.Issuer == "" {
		probs = append(probs, prefix+".issuer: missing: the identity provider's issuer, as its tokens' iss says")
	}
	if o.Audience == "" {
		probs = append(probs, prefix+".audience: missing: the audience the provider issues toolsearch's tokens for, as their aud says")
	}
	if (o.JWKSURL == "") == (o.JWKSFile == "") {
		probs = append(probs, prefix+": give exactly one of jwksURL and jwksFile, where the provider's keys are")
	}
	if u, err := url.Parse(o.JWKSURL); o.JWKSURL != "" && (err != nil || u.Host == "" || (u.Scheme != "https" && !loopbackURL(o.JWKSURL))) {
		probs = append(probs, fmt.Sprintf("%s.jwksURL: %q is not an https URL (http only on loopback)", prefix, o.JWKSURL))
	}
	if o.Leeway < 0 || o.Leeway > MaxJWTLeeway {
		probs = append(probs, fmt.Sprintf("%s.leeway: %v is not a clock skew between 0 and %v", prefix, o.Leeway, MaxJWTLeeway))
	}
	return probs
}

// A jwtPrincipal is what a verified token says: who, and which profile.
type jwtPrincipal struct {
	name    string
	profile string
	expires time.Time
	// signed says the provider's key verified the token, even when its
	// claims were then refused.
	signed bool
}

// errNotJWT marks a bearer token that is not shaped as a JWT at all.
var errNotJWT = errors.New("not a JWT")

// Verify checks a token and returns whose it is. Its errors say why a
// token was refused, for the log; they never quote the token.
func (v *JWTVerifier) Verify(ctx context.Context, raw string) (jwtPrincipal, error) {
	if len(raw) > maxJWTBytes {
		return jwtPrincipal{}, fmt.Errorf("the token is %d bytes, over %d", len(raw), maxJWTBytes)
	}
	if strings.Count(raw, ".") != 2 {
		return jwtPrincipal{}, errNotJWT
	}
	tok, err := jwt.ParseSigned(raw, jwtAlgorithms)
	if err != nil {
		return jwtPrincipal{}, fmt.Errorf("not a JWT signed with RS256, ES256 or EdDSA: %w", err)
	}
	if len(tok.Headers) != 1 {
		return jwtPrincipal{}, errors.New("the token has more than one signature")
	}
	h := tok.Headers[0]
	keys := v.keys.lookup(ctx, h.KeyID)
	if len(keys) == 0 {
		return jwtPrincipal{}, fmt.Errorf("no key %q in the identity provider's key set", clipName(h.KeyID, 64))
	}
	var std jwt.Claims
	var all map[string]any
	verified := false
	for _, k := range keys {
		if string(keyAlgorithm(k)) != h.Algorithm {
			continue // the key decides the algorithm, not the token
		}
		if err := tok.Claims(k.Key, &std, &all); err == nil {
			verified = true
			break
		}
	}
	if !verified {
		return jwtPrincipal{}, fmt.Errorf("the signature does not verify with key %q (%s)", clipName(h.KeyID, 64), h.Algorithm)
	}
	// Signed by the provider: what is wrong from here on is worth an
	// operator's attention (a clock adrift, a client given the wrong
	// audience), which a stranger's forgeries are not.
	p := jwtPrincipal{signed: true}
	now := v.now()
	if err := std.ValidateWithLeeway(jwt.Expected{Issuer: v.o.Issuer, AnyAudience: jwt.Audience{v.o.Audience}, Time: now}, v.o.Leeway); err != nil {
		return p, err
	}
	if std.Expiry == nil {
		return p, errors.New("the token has no expiry (exp)")
	}
	if exp := std.Expiry.Time(); exp.Sub(now) > maxJWTLife {
		return p, fmt.Errorf("the token expires in %v, more than the %v toolsearch takes", exp.Sub(now).Round(time.Minute), maxJWTLife)
	}
	p.expires = std.Expiry.Time()
	name, err := stringClaim(all, v.o.PrincipalClaim)
	switch {
	case err != nil:
		return p, err
	case name == "":
		return p, fmt.Errorf("the token has no %s claim to name its principal", v.o.PrincipalClaim)
	}
	if err := principal.Check(name); err != nil {
		return p, fmt.Errorf("claim %s: %w", v.o.PrincipalClaim, err)
	}
	p.name = name
	if v.o.ProfileClaim != "" {
		if p.profile, err = stringClaim(all, v.o.ProfileClaim); err != nil {
			return jwtPrincipal{signed: true}, err
		}
	}
	return p, nil
}

// stringClaim returns a claim that must be a string when present.
func stringClaim(claims map[string]any, name string) (string, error) {
	v, ok := claims[name]
	if !ok {
		return "", nil
	}
	s, ok := v.(string)
	if !ok {
		return "", fmt.Errorf("the token's %s claim is not a string", name)
	}
	return s, nil
}

// clipName cuts what a token's header says to n bytes, for a log line.
func clipName(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return strings.ToValidUTF8(s[:n], "") + "…"
}

// loopbackURL reports whether raw is an http URL of a loopback host.
func loopbackURL(raw string) bool {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme != "http" {
		return false
	}
	if strings.EqualFold(u.Hostname(), "localhost") {
		return true
	}
	ip, err := netip.ParseAddr(u.Hostname())
	return err == nil && ip.Unmap().IsLoopback()
}
