package oauth

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"sync"
)

// flowSecrets learns the secrets of one login as they pass: what the
// requests send (the client secret, in the body or a Basic header; the
// authorization code; the PKCE verifier; a refresh token) and what the
// answers give (a registered client's secret, tokens). The errors of the
// SDK, of golang.org/x/oauth2 and of oauthex quote what a server answered,
// and a hostile token endpoint answers with what it was sent: every error
// of the login is redacted with these (see Handler.authorize), whichever
// library made it.
type flowSecrets struct {
	base http.RoundTripper

	mu   sync.Mutex
	seen []string
}

// secretFields are the form and JSON fields that hold secrets.
var secretFields = []string{
	"client_secret", "code", "code_verifier", "refresh_token", "access_token", "id_token",
	"client_assertion", "assertion", "subject_token", "actor_token", "password", "registration_access_token",
}

// maxSecretScan bounds what is read of a body to find its secrets; bodies
// of OAuth requests and answers are far smaller.
const maxSecretScan = 1 << 20

func (f *flowSecrets) RoundTrip(req *http.Request) (*http.Response, error) {
	f.request(req)
	resp, err := f.base.RoundTrip(req)
	if err != nil || resp.Body == nil || req.Method == http.MethodGet {
		return resp, err
	}
	body, rerr := io.ReadAll(io.LimitReader(resp.Body, maxSecretScan))
	rest := resp.Body
	f.add(bodySecrets(resp.Header.Get("Content-Type"), body)...)
	// The reader gets the whole body back: what was read, then the rest.
	resp.Body = readCloser{io.MultiReader(bytes.NewReader(body), errReader{rerr}, rest), rest}
	return resp, nil
}

// request learns the secrets a request sends.
func (f *flowSecrets) request(req *http.Request) {
	if a := req.Header.Get("Authorization"); a != "" {
		f.add(a)
		if scheme, cred, ok := strings.Cut(a, " "); ok {
			f.add(cred)
			if strings.EqualFold(scheme, "basic") {
				if dec, err := base64.StdEncoding.DecodeString(cred); err == nil {
					id, secret, _ := strings.Cut(string(dec), ":")
					f.add(secret, unescape(secret), id+":"+secret)
				}
			}
		}
	}
	f.add(req.URL.Query().Get("state"), req.URL.Query().Get("code"))
	if req.GetBody == nil {
		return
	}
	body, err := req.GetBody()
	if err != nil {
		return
	}
	defer body.Close()
	data, _ := io.ReadAll(io.LimitReader(body, maxSecretScan))
	f.add(bodySecrets(req.Header.Get("Content-Type"), data)...)
}

// bodySecrets returns the values of secret fields in a form or JSON body.
func bodySecrets(contentType string, body []byte) []string {
	mt, _, _ := mime.ParseMediaType(contentType)
	var out []string
	switch {
	case mt == "application/x-www-form-urlencoded":
		form, err := url.ParseQuery(string(body))
		if err != nil {
			return nil
		}
		for _, k := range secretFields {
			out = append(out, form[k]...)
		}
	case mt == "application/json" || strings.HasSuffix(mt, "+json"):
		var doc map[string]any
		if json.Unmarshal(body, &doc) != nil {
			return nil
		}
		for _, k := range secretFields {
			if s, ok := doc[k].(string); ok {
				out = append(out, s)
			}
		}
	}
	return out
}

func (f *flowSecrets) add(secrets ...string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, s := range secrets {
		if s != "" {
			f.seen = append(f.seen, s)
		}
	}
}

// list returns the secrets seen so far.
func (f *flowSecrets) list() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.seen...)
}

func unescape(s string) string {
	if u, err := url.QueryUnescape(s); err == nil {
		return u
	}
	return s
}

type readCloser struct {
	io.Reader
	io.Closer
}

// errReader gives err, if any, where the body's read failed.
type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	return 0, io.EOF
}

// withFlowSecrets returns c, its requests going through a flowSecrets
// that collects the login's secrets, for sanitize.
func withFlowSecrets(c *http.Client) (*http.Client, *flowSecrets) {
	base := c.Transport
	if base == nil {
		base = http.DefaultTransport
	}
	flow := &flowSecrets{base: base}
	return &http.Client{Transport: flow, Timeout: c.Timeout, CheckRedirect: c.CheckRedirect}, flow
}
