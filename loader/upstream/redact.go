package upstream

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// redacted stands in for a secret.
const redacted = "REDACTED"

// minSecret is the shortest value taken for a secret wherever it appears in
// text: shorter ones ("1", "json") would blank out words of the messages,
// and are no credentials anyway. The configured URL is redacted whole
// whatever its values.
const minSecret = 4

// A redactor takes a server's secrets out of text: the user information
// and query values of its URL, and its configured header values. Errors of
// the HTTP transports and the server's own answers embed them; everything
// the package shows (LastError, errors, log records) goes through it, so
// that no consumer can leak them.
type redactor struct{ r *strings.Replacer }

func newRedactor(cfg ServerConfig) *redactor {
	var secrets []string
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
	var pairs []string
	seen := map[string]bool{}
	add := func(old, new string) {
		if !seen[old] && old != new {
			seen[old] = true
			pairs = append(pairs, old, new)
		}
	}
	var forms []string
	for _, s := range secrets {
		if len(s) >= minSecret {
			forms = append(forms, s, url.QueryEscape(s), url.PathEscape(s))
		}
	}
	// Longest first: the replacer tries its pairs in order at each
	// position, and a secret may contain a shorter one.
	slices.SortStableFunc(forms, func(a, b string) int { return cmp.Compare(len(b), len(a)) })
	if cfg.URL != "" {
		add(cfg.URL, redactURL(cfg.URL))
		// Go's client shows the URL with the password as "***".
		if u, err := url.Parse(cfg.URL); err == nil && u.User != nil {
			if _, ok := u.User.Password(); ok {
				add(strings.Replace(cfg.URL, u.User.String()+"@", u.User.Username()+":***@", 1), redactURL(cfg.URL))
			}
		}
	}
	for _, f := range forms {
		add(f, redacted)
	}
	if len(pairs) == 0 {
		return &redactor{}
	}
	return &redactor{strings.NewReplacer(pairs...)}
}

// String returns s without the secrets.
func (r *redactor) String(s string) string {
	if r == nil || r.r == nil {
		return s
	}
	return r.r.Replace(s)
}

// Value returns a JSON value as decoded into an any (a log message's data)
// with the secrets taken out of its strings, object keys included.
func (r *redactor) Value(v any) any {
	if r == nil || r.r == nil {
		return v
	}
	switch v := v.(type) {
	case string:
		return r.String(v)
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			out[r.String(k)] = r.Value(e)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = r.Value(e)
		}
		return out
	}
	return v
}

// Error returns err with a message without the secrets; errors.Is and As
// still see what it wraps, but a *jsonrpc.Error in it (a server's answer,
// which clients may be given as it is) only without the secrets too.
func (r *redactor) Error(err error) error {
	if err == nil {
		return nil
	}
	e := &redactedError{msg: r.String(err.Error()), err: err}
	var rpc *jsonrpc.Error
	if errors.As(err, &rpc) {
		e.rpc = r.rpcError(rpc)
	}
	if e.msg == err.Error() && e.rpc == rpc {
		return err
	}
	return e
}

// rpcError returns a server's JSON-RPC error without the secrets in its
// message and data, or e itself when it holds none. Data that redaction
// would leave invalid JSON is dropped.
func (r *redactor) rpcError(e *jsonrpc.Error) *jsonrpc.Error {
	msg, data := r.String(e.Message), r.String(string(e.Data))
	if msg == e.Message && data == string(e.Data) {
		return e
	}
	clean := &jsonrpc.Error{Code: e.Code, Message: msg}
	if json.Valid([]byte(data)) {
		clean.Data = json.RawMessage(data)
	}
	return clean
}

type redactedError struct {
	msg string
	err error
	rpc *jsonrpc.Error // the redacted form of the *jsonrpc.Error in err, if any
}

func (e *redactedError) Error() string { return e.msg }
func (e *redactedError) Unwrap() error { return e.err }

// As gives errors.As the redacted JSON-RPC error rather than the one err
// wraps.
func (e *redactedError) As(target any) bool {
	if t, ok := target.(**jsonrpc.Error); ok && e.rpc != nil {
		*t = e.rpc
		return true
	}
	return false
}

// redactURL returns a URL as it may be shown: its user information and the
// values of its query replaced with REDACTED. Anything that does not parse
// as a URL is redacted whole.
func redactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return redacted
	}
	if u.User != nil {
		u.User = url.User(redacted)
	}
	if u.RawQuery != "" {
		q := u.Query()
		for k := range q {
			q[k] = []string{redacted}
		}
		u.RawQuery = q.Encode()
	}
	return u.String()
}

// handler returns h with every record's message and attributes redacted.
func (r *redactor) handler(h slog.Handler) slog.Handler {
	if r.r == nil {
		return h
	}
	return &redactHandler{h, r}
}

type redactHandler struct {
	h slog.Handler
	r *redactor
}

func (h *redactHandler) Enabled(ctx context.Context, l slog.Level) bool { return h.h.Enabled(ctx, l) }

func (h *redactHandler) Handle(ctx context.Context, rec slog.Record) error {
	out := slog.NewRecord(rec.Time, rec.Level, h.r.String(rec.Message), rec.PC)
	rec.Attrs(func(a slog.Attr) bool {
		out.AddAttrs(h.attr(a))
		return true
	})
	return h.h.Handle(ctx, out)
}

func (h *redactHandler) WithAttrs(as []slog.Attr) slog.Handler {
	out := make([]slog.Attr, len(as))
	for i, a := range as {
		out[i] = h.attr(a)
	}
	return &redactHandler{h.h.WithAttrs(out), h.r}
}

func (h *redactHandler) WithGroup(name string) slog.Handler {
	return &redactHandler{h.h.WithGroup(name), h.r}
}

func (h *redactHandler) attr(a slog.Attr) slog.Attr {
	v := a.Value.Resolve()
	switch v.Kind() {
	case slog.KindString:
		return slog.String(a.Key, h.r.String(v.String()))
	case slog.KindGroup:
		group := v.Group()
		out := make([]slog.Attr, len(group))
		for i, g := range group {
			out[i] = h.attr(g)
		}
		return slog.Attr{Key: a.Key, Value: slog.GroupValue(out...)}
	case slog.KindAny:
		s := fmt.Sprint(v.Any())
		if err, ok := v.Any().(error); ok {
			s = err.Error()
		}
		if r := h.r.String(s); r != s {
			return slog.String(a.Key, r)
		}
	}
	return slog.Attr{Key: a.Key, Value: v}
}
