package upstream

import (
	"net/url"
	"strings"

	"github.com/toolsearch/toolsearch/internal/redact"
)

// newRedactor returns what takes a server's secrets out of text: the user
// information and query values of its URL, and its configured header
// values. Errors of the HTTP transports and the server's own answers embed
// them; everything the package shows (LastError, errors, log records) goes
// through it, so that no consumer can leak them. The configured URL is
// redacted whole whatever its values (redactURL), even those shorter than
// redact.MinLen.
func newRedactor(cfg ServerConfig) *redact.Redactor {
	var secrets, rewrites []string
	if u, err := url.Parse(cfg.URL); err == nil && cfg.URL != "" {
		if u.User != nil {
			pass, _ := u.User.Password()
			secrets = append(secrets, u.User.Username(), pass, u.User.String())
		}
		for _, vs := range u.Query() {
			secrets = append(secrets, vs...)
		}
	}
	for _, v := range cfg.Headers {
		secrets = append(secrets, v)
		if f := strings.Fields(v); len(f) > 1 { // "Bearer TOKEN"
			secrets = append(secrets, f[len(f)-1])
		}
	}
	if cfg.URL != "" {
		rewrites = append(rewrites, cfg.URL, redactURL(cfg.URL))
		// Go's client shows the URL with the password as "***".
		if u, err := url.Parse(cfg.URL); err == nil && u.User != nil {
			if _, ok := u.User.Password(); ok {
				rewrites = append(rewrites, strings.Replace(cfg.URL, u.User.String()+"@", u.User.Username()+":***@", 1), redactURL(cfg.URL))
			}
		}
	}
	return redact.New(secrets, rewrites...)
}

// redactURL returns a URL as it may be shown: its user information and the
// values of its query replaced with REDACTED. Anything that does not parse
// as a URL is redacted whole.
func redactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return redact.Marker
	}
	if u.User != nil {
		u.User = url.User(redact.Marker)
	}
	if u.RawQuery != "" {
		q := u.Query()
		for k := range q {
			q[k] = []string{redact.Marker}
		}
		u.RawQuery = q.Encode()
	}
	return u.String()
}
