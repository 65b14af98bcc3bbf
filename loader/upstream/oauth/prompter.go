package oauth

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"time"
)

// DefaultWait bounds how long a login waits for the person to finish in
// the browser.
const DefaultWait = 5 * time.Minute

// A Prompter runs the part of a login that needs the person: it takes them
// to the authorization page and receives the authorization server's
// redirect back.
type Prompter struct {
	// Show takes the person to the authorization page at authURL for
	// server: it opens a browser, prints the URL, or asks an MCP client to
	// open it. It returns once the page is shown (or could not be).
	Show func(ctx context.Context, server, authURL string) error
	// Done, when set, is told that the login whose page Show showed has
	// come back from the browser (err nil) or was given up.
	Done func(ctx context.Context, server string, err error)
	// RedirectURL, when set, is where Callbacks is served (by `serve
	// --http`). Otherwise each login serves a Callbacks of its own at
	// http://127.0.0.1:PORT/callback, on the server's callbackPort or a
	// free port.
	RedirectURL string
	Callbacks   *Callbacks
	// Wait bounds how long a login waits for the redirect; zero means
	// DefaultWait.
	Wait time.Duration
	// StepUpOnly limits a context's prompter to step-ups (more scopes for
	// one request): a server that needs a login at all fails with a
	// *LoginRequiredError, which says which command logs in.
	StepUpOnly bool
}

type prompterKey struct{}

// WithPrompter returns a context whose requests may run a login through
// p when a server asks for one: a step-up to more scopes, say.
func WithPrompter(ctx context.Context, p *Prompter) context.Context {
	return context.WithValue(ctx, prompterKey{}, p)
}

// PrompterFrom returns the prompter of ctx, nil when requests made with
// ctx cannot involve the person.
func PrompterFrom(ctx context.Context) *Prompter {
	p, _ := ctx.Value(prompterKey{}).(*Prompter)
	return p
}

// begin prepares to receive one login's redirect.
func (p *Prompter) begin(port int) (redirectURL string, cb *Callbacks, stop func(), err error) {
	if p.RedirectURL != "" && p.Callbacks != nil {
		return p.RedirectURL, p.Callbacks, func() {}, nil
	}
	cb = NewCallbacks()
	redirectURL, stop, err = listenLoopback(port, cb)
	return redirectURL, cb, stop, err
}

func (p *Prompter) wait() time.Duration {
	if p.Wait > 0 {
		return p.Wait
	}
	return DefaultWait
}

// Browser returns a Show that writes the authorization URL to w and opens
// it in a browser: the program named by $BROWSER when it is set, called
// with the URL as its one argument, else the platform's opener (xdg-open,
// open, or the Windows URL handler). With noBrowser, or when no browser
// can be started, it only writes the URL, for the person to open.
func Browser(w io.Writer, noBrowser bool) func(ctx context.Context, server, authURL string) error {
	return func(ctx context.Context, server, authURL string) error {
		if noBrowser {
			fmt.Fprintf(w, "To log in to %s, open this page in a browser:\n\n  %s\n\n", server, authURL)
			return nil
		}
		fmt.Fprintf(w, "Opening the login page of %s in a browser. If none opens, open this page:\n\n  %s\n\n", server, authURL)
		cmd, err := opener(ctx, authURL)
		if err == nil {
			cmd.Stdout, cmd.Stderr = w, w
			err = cmd.Start()
		}
		if err != nil {
			// The URL is printed: the person can still open it.
			fmt.Fprintf(w, "Could not open a browser (%v); open the page above by hand.\n", err)
			return nil
		}
		go func() { _ = cmd.Wait() }() // the browser's fate is the person's
		return nil
	}
}

// opener returns the command that opens url.
func opener(ctx context.Context, url string) (*exec.Cmd, error) {
	if b := os.Getenv("BROWSER"); b != "" {
		return exec.CommandContext(ctx, b, url), nil
	}
	switch runtime.GOOS {
	case "darwin":
		return exec.CommandContext(ctx, "open", url), nil
	case "windows":
		return exec.CommandContext(ctx, "rundll32", "url.dll,FileProtocolHandler", url), nil
	}
	if _, err := exec.LookPath("xdg-open"); err != nil {
		return nil, errors.New("no xdg-open, and $BROWSER is not set")
	}
	return exec.CommandContext(ctx, "xdg-open", url), nil
}
