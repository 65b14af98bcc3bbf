package web

import (
	"context"
	"testing"
	"time"
)

// FuzzJWT feeds the verifier key sets and tokens nobody vetted: it never
// panics, keeps within its bounds, and accepts nothing, since no input
// can carry a signature of the test's own key (which it never sees).
func FuzzJWT(f *testing.F) {
	f.Add(`{"keys":[{"kty":"EC","crv":"P-256","x":"f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU","y":"x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0","kid":"k"}]}`,
		`eyJhbGciOiJFUzI1NiIsImtpZCI6ImsifQ.eyJzdWIiOiJhbGljZSJ9.AAAA`)
	f.Add(`{"keys":[]}`, `eyJhbGciOiJub25lIn0.eyJzdWIiOiJhbGljZSJ9.`)
	f.Add(`{"keys":[{"kty":"oct","k":"c2VjcmV0","kid":"k"}]}`, `eyJhbGciOiJIUzI1NiIsImtpZCI6ImsifQ.eyJzdWIiOiJhbGljZSJ9.AAAA`)
	f.Add(`not json`, `a.b.c`)
	f.Fuzz(func(t *testing.T, set, token string) {
		keys, n, err := parseJWKS([]byte(set), discardLog())
		if err == nil {
			if n == 0 || n > maxJWKSKeys {
				t.Fatalf("%d keys taken", n)
			}
			for _, ks := range keys {
				for _, k := range ks {
					if !k.IsPublic() || keyAlgorithm(k) == "" {
						t.Fatalf("unusable key taken: %+v", k)
					}
				}
			}
		}
		v, err := NewJWTVerifier(JWTOptions{Issuer: testIssuer, Audience: testAudience, JWKSURL: "https://idp.invalid/jwks"}, nil)
		if err != nil {
			t.Fatal(err)
		}
		// The set as if fetched, never fetched again.
		v.keys.keys, v.keys.count, v.keys.loaded, v.keys.fetched = keys, n, time.Now(), time.Now()
		if p, err := v.Verify(context.Background(), token); err == nil {
			// Only a token signed by a key of the set the fuzzer wrote
			// can pass; then its claims were checked.
			if p.name == "" || p.expires.IsZero() {
				t.Fatalf("accepted without a principal or expiry: %+v", p)
			}
		}
	})
}
