package oauth

import (
	"errors"
	"fmt"
	"strings"

	"github.com/toolsearch/toolsearch/internal/redact"
	"github.com/toolsearch/toolsearch/internal/utf8cut"
	"golang.org/x/oauth2"
)

// ErrLoginRequired is matched (errors.Is) by every *LoginRequiredError.
var ErrLoginRequired = errors.New("login required")

// LoginRequiredError says that a server needs the person to log in (again),
// and why. It never carries a token, secret or code.
type LoginRequiredError struct {
	Server string
	// Reason is a plain sentence: no login stored, a refresh the
	// authorization server refused, a token the server no longer accepts.
	Reason string
	// MoreScopes says that the tokens work, but not for this request: the
	// server answered 403 insufficient_scope, asking for Scopes.
	MoreScopes bool
	Scopes     []string
}

func (e *LoginRequiredError) Error() string {
	if e.MoreScopes {
		return fmt.Sprintf("%s needs a login with more scopes (%s): %s", e.Server, strings.Join(e.Scopes, " "), e.Reason)
	}
	return fmt.Sprintf("%s needs a login: %s", e.Server, e.Reason)
}

// Is makes errors.Is(err, ErrLoginRequired) true.
func (e *LoginRequiredError) Is(target error) bool { return target == ErrLoginRequired }

// StepUp reports whether the tokens work but lack scopes a request needs.
func (e *LoginRequiredError) StepUp() bool { return e.MoreScopes }

// refusal describes an error answer of the token endpoint without its
// body, which may echo what was sent.
func refusal(re *oauth2.RetrieveError) string {
	msg := "it answered"
	if re.Response != nil {
		msg += " " + re.Response.Status
	}
	if re.ErrorCode != "" {
		msg += " " + re.ErrorCode
	}
	if d := re.ErrorDescription; d != "" {
		if len(d) > 200 {
			d = utf8cut.Prefix(d, 200) + "…"
		}
		msg += fmt.Sprintf(" (%s)", d)
	}
	return msg
}

// refused reports whether the authorization server answered a token
// request with a refusal (a 4xx), as opposed to being unreachable or
// failing (which may pass).
func refused(err error) (*oauth2.RetrieveError, bool) {
	var re *oauth2.RetrieveError
	if !errors.As(err, &re) {
		return nil, false
	}
	if re.Response != nil && re.Response.StatusCode >= 500 {
		return re, false
	}
	return re, true
}

// sanitize returns err with any of the secrets cut out of its message
// (errors of the libraries below may quote what was sent or received), and
// a RetrieveError's body left out. errors.Is and errors.As still see err.
func sanitize(err error, secrets ...string) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	// A RetrieveError without an error code prints the whole body.
	var re *oauth2.RetrieveError
	if errors.As(err, &re) && re.ErrorCode == "" {
		msg = strings.Replace(msg, re.Error(), "the token endpoint refused: "+refusal(re), 1)
	}
	return redact.WithMessage(err, redact.New(secrets).String(msg))
}
