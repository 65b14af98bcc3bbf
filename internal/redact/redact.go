// Package redact takes known secrets out of text that is shown: the errors
// of HTTP transports and OAuth libraries, and what a server answers, may
// quote the tokens, keys and passwords that were sent. A Redactor is built
// once from the secrets and applied to messages, errors and log records.
package redact

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

// Marker stands in for a secret.
const Marker = "REDACTED"

// MinLen is the shortest value taken for a secret wherever it appears in
// text: shorter ones ("1", "json") would blank out words of the messages,
// and are no credentials anyway.
const MinLen = 4

// A Redactor replaces secrets in text. A nil or zero Redactor replaces
// nothing.
type Redactor struct{ r *strings.Replacer }

// New returns a Redactor that replaces each secret of at least MinLen bytes,
// as written and in its query- and path-escaped forms, with Marker, the
// longest first, so that a secret containing a shorter one goes whole.
// Before any secret, it replaces each pair (old, new) of rewrites: text
// shown in another form, such as a configured URL with its secret parts
// marked.
func New(secrets []string, rewrites ...string) *Redactor {
	var pairs []string
	seen := map[string]bool{}
	add := func(old, new string) {
		if !seen[old] && old != new {
			seen[old] = true
			pairs = append(pairs, old, new)
		}
	}
	for i := 0; i+1 < len(rewrites); i += 2 {
		add(rewrites[i], rewrites[i+1])
	}
	var forms []string
	for _, s := range secrets {
		if len(s) >= MinLen {
			forms = append(forms, s, url.QueryEscape(s), url.PathEscape(s))
		}
	}
	// The replacer tries its pairs in order at each position.
	slices.SortStableFunc(forms, func(a, b string) int { return cmp.Compare(len(b), len(a)) })
	for _, f := range forms {
		add(f, Marker)
	}
	if len(pairs) == 0 {
		return &Redactor{}
	}
	return &Redactor{strings.NewReplacer(pairs...)}
}

// String returns s without the secrets.
func (r *Redactor) String(s string) string {
	if r == nil || r.r == nil {
		return s
	}
	return r.r.Replace(s)
}

// Value returns a JSON value as decoded into an any (a log message's data)
// with the secrets taken out of its strings, object keys included.
func (r *Redactor) Value(v any) any {
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
// which clients may be given as it is) only without the secrets too. An
// error with none is returned as it is.
func (r *Redactor) Error(err error) error {
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
func (r *Redactor) rpcError(e *jsonrpc.Error) *jsonrpc.Error {
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

// WithMessage returns an error that says msg and wraps err, for a message
// rewritten to leave something of err's out.
func WithMessage(err error, msg string) error { return &redactedError{msg: msg, err: err} }

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

// Handler returns h with every record's message and attributes redacted.
func (r *Redactor) Handler(h slog.Handler) slog.Handler {
	if r == nil || r.r == nil {
		return h
	}
	return &handler{h, r}
}

type handler struct {
	h slog.Handler
	r *Redactor
}

func (h *handler) Enabled(ctx context.Context, l slog.Level) bool { return h.h.Enabled(ctx, l) }

func (h *handler) Handle(ctx context.Context, rec slog.Record) error {
	out := slog.NewRecord(rec.Time, rec.Level, h.r.String(rec.Message), rec.PC)
	rec.Attrs(func(a slog.Attr) bool {
		out.AddAttrs(h.attr(a))
		return true
	})
	return h.h.Handle(ctx, out)
}

func (h *handler) WithAttrs(as []slog.Attr) slog.Handler {
	out := make([]slog.Attr, len(as))
	for i, a := range as {
		out[i] = h.attr(a)
	}
	return &handler{h.h.WithAttrs(out), h.r}
}

func (h *handler) WithGroup(name string) slog.Handler {
	return &handler{h.h.WithGroup(name), h.r}
}

func (h *handler) attr(a slog.Attr) slog.Attr {
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
