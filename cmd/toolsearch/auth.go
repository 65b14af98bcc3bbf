package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/toolsearch/toolsearch/loader/upstream"
	"github.com/toolsearch/toolsearch/loader/upstream/oauth"
)

// authCommands are the subcommands of `toolsearch auth`.
var authCommands = []struct{ name, args, summary string }{
	{"login", "SERVER [--no-browser]", "log in to an HTTP or SSE server that requires OAuth, and keep its tokens"},
	{"status", "[--offline] [--json]", "show each HTTP or SSE server's login: authorized, expired, needs login or not needed; and, for a server with oauth.identity: user, each person's own login as the state holds it"},
	{"logout", "SERVER [--principal NAME]", "revoke a server's tokens where it offers revocation, and forget them; with --principal, one person's own login (oauth.identity: user) instead of the shared one"},
}

func runAuth(ctx context.Context, args []string, out io.Writer) error {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		authUsage(os.Stderr)
		if len(args) == 0 {
			return errUsage
		}
		return nil
	}
	switch args[0] {
	case "login":
		return runAuthLogin(ctx, args[1:], out)
	case "status":
		return runAuthStatus(ctx, args[1:], out)
	case "logout":
		return runAuthLogout(ctx, args[1:], out)
	}
	fmt.Fprintf(os.Stderr, "toolsearch auth: unknown subcommand %q\n\n", args[0])
	authUsage(os.Stderr)
	return errUsage
}

func authUsage(w io.Writer) {
	fmt.Fprintf(w, "Usage:\n\n")
	for _, c := range authCommands {
		fmt.Fprintf(w, "  toolsearch auth %s %s\n      %s\n", c.name, c.args, c.summary)
	}
	fmt.Fprintf(w, "\nTokens are kept in %s, one file per server, readable only by you.\n", tokenDir())
}

func tokenDir() string {
	dir, err := oauth.DefaultDir()
	if err != nil {
		return "the user config directory"
	}
	return dir
}

// newAuthFlagSet makes the flag set of an auth subcommand, with the flags
// that find the servers and their settings.
func newAuthFlagSet(name string) (*flag.FlagSet, *sourceFlags) {
	fs := flag.NewFlagSet("toolsearch auth "+name, flag.ContinueOnError)
	fs.SetOutput(os.Stderr)
	for _, c := range authCommands {
		if c.name == name {
			fs.Usage = func() {
				fmt.Fprintf(os.Stderr, "Usage: toolsearch auth %s %s\n\n%s.\n\nFlags:\n", c.name, c.args, upperFirst(c.summary))
				fs.PrintDefaults()
			}
		}
	}
	return fs, addSourceFlags(fs, flagMCPConfig, "info")
}

// openAuth reads the settings and prepares (without starting) the upstream
// servers, over the state toolsearch.yaml names: with postgres, the logins
// are the database's, which the replicas read.
func openAuth(sf *sourceFlags) (*app, error) {
	a, err := newApp(sf)
	if err != nil {
		return nil, err
	}
	if err := a.openState(); err != nil {
		return nil, err
	}
	if err := a.loadUpstreamConfig(); err != nil {
		return nil, err
	}
	if a.upstreams == nil {
		return nil, errors.New("no upstream servers are configured: name a Claude-style MCP config with --mcp-config or mcpConfig in toolsearch.yaml")
	}
	return a, nil
}

// httpServers returns the names of the HTTP and SSE servers.
func (a *app) httpServers() []string {
	var names []string
	for _, sc := range a.servers {
		if sc.Type != upstream.TypeStdio {
			names = append(names, sc.Name)
		}
	}
	return names
}

// openAuthServer parses the flags and the one SERVER argument of login and
// logout, and opens the app once the server is known to take a login. The
// caller closes the app.
func openAuthServer(ctx context.Context, fs *flag.FlagSet, sf *sourceFlags, args []string) (*app, string, error) {
	rest, err := parseArgs(fs, args, 1)
	if err != nil {
		return nil, "", err
	}
	a, err := openAuth(sf)
	if err != nil {
		return nil, "", err
	}
	if err := a.authServer(rest[0]); err != nil {
		a.close(ctx)
		return nil, "", err
	}
	return a, rest[0], nil
}

// authServer checks a SERVER argument.
func (a *app) authServer(name string) error {
	names := a.httpServers()
	if slices.Contains(names, name) {
		return nil
	}
	for _, sc := range a.servers {
		if sc.Name == name {
			return fmt.Errorf("%s is a stdio server: it runs as you and takes no login", name)
		}
	}
	if len(names) == 0 {
		return fmt.Errorf("no server %q, and %s configures no HTTP or SSE server", name, a.cfg.MCPConfig)
	}
	return fmt.Errorf("no server %q in %s: its HTTP and SSE servers are %s", name, a.cfg.MCPConfig, strings.Join(names, ", "))
}

func runAuthLogin(ctx context.Context, args []string, out io.Writer) error {
	fs, sf := newAuthFlagSet("login")
	noBrowser := fs.Bool("no-browser", false, "print the login page's URL instead of opening a browser")
	wait := fs.Duration("wait", oauth.DefaultWait, "how long to wait for the login to be finished in the browser")
	a, name, err := openAuthServer(ctx, fs, sf, args)
	if err != nil {
		return err
	}
	defer a.close(ctx)
	p := &oauth.Prompter{Show: oauth.Browser(os.Stderr, *noBrowser), Wait: *wait}
	err = a.upstreams.Login(ctx, name, p)
	if errors.Is(err, upstream.ErrLoginNotNeeded) {
		fmt.Fprintf(out, "%s answers without a login: nothing to do.\n", name)
		return nil
	}
	var partly *upstream.LoggedInError
	if err == nil || errors.As(err, &partly) {
		tokens, _ := a.upstreams.Tokens(name)
		fmt.Fprintf(out, "Logged in to %s.\n%s", name, describeLogin(tokens.Info(), time.Now()))
	}
	return err
}

// describeLogin says what a login obtained.
func describeLogin(info *oauth.Info, now time.Time) string {
	if info == nil {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "  authorization server: %s\n", dash(info.Issuer))
	fmt.Fprintf(&b, "  scopes: %s\n", dash(strings.Join(info.Scopes, " ")))
	if exp := info.Expires; !exp.IsZero() {
		refresh := "no refresh token: log in again then"
		if info.Refreshable {
			refresh = "refreshed automatically"
		}
		fmt.Fprintf(&b, "  access token expires: %s (in %s; %s)\n", exp.Local().Format(time.DateTime), exp.Sub(now).Round(time.Second), refresh)
	}
	return b.String()
}

// loginStatus is one server's line of `auth status`.
type loginStatus struct {
	Server  string     `json:"server"`
	Type    string     `json:"type"`
	URL     string     `json:"url"`
	Status  string     `json:"status"` // authorized, expired, needs login, not needed, unreachable
	Reason  string     `json:"reason,omitempty"`
	Expires *time.Time `json:"expires,omitempty"`
	Scopes  []string   `json:"scopes,omitempty"`
	Issuer  string     `json:"authorizationServer,omitempty"`
	// Identity is "user" for a server whose logins are each person's
	// own (oauth.identity: user): People lists them, each as the state
	// holds it (none when nobody has logged in), or PeopleError says why
	// they could not be read.
	Identity    string         `json:"identity,omitempty"`
	People      []personStatus `json:"people,omitempty"`
	PeopleError string         `json:"peopleError,omitempty"`
}

// Statuses of `auth status`.
const (
	statusAuthorized = "authorized"
	statusExpired    = "expired"
	statusNeedsLogin = "needs login"
	statusNotNeeded  = "not needed"
	statusUnknown    = "no login stored"
	statusError      = "unreachable"
)

func runAuthStatus(ctx context.Context, args []string, out io.Writer) error {
	fs, sf := newAuthFlagSet("status")
	offline := fs.Bool("offline", false, "read the stored tokens only, without connecting to the servers")
	asJSON := fs.Bool("json", false, "print JSON")
	timeout := fs.Duration("timeout", 15*time.Second, "how long to wait for each server")
	if _, err := parseArgs(fs, args, 0); err != nil {
		return err
	}
	a, err := openAuth(sf)
	if err != nil {
		return err
	}
	defer a.close(ctx)
	names := a.httpServers()
	statuses := make([]loginStatus, len(names))
	var wg sync.WaitGroup
	for i, name := range names {
		wg.Go(func() {
			cctx, cancel := context.WithTimeout(ctx, *timeout)
			defer cancel()
			statuses[i] = a.loginStatus(cctx, name, *offline)
			a.peopleStatus(cctx, &statuses[i])
		})
	}
	wg.Wait()
	if *asJSON {
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		return enc.Encode(statuses)
	}
	if len(statuses) == 0 {
		fmt.Fprintf(out, "%s configures no HTTP or SSE server.\n", a.cfg.MCPConfig)
		return nil
	}
	tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "SERVER\tSTATUS\tEXPIRES\tSCOPES\tAUTHORIZATION SERVER")
	for _, st := range statuses {
		expires := "-"
		if st.Expires != nil {
			expires = st.Expires.Local().Format(time.DateTime)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", st.Server, st.Status, expires, dash(strings.Join(st.Scopes, " ")), dash(st.Issuer))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	noted := false
	for _, st := range statuses {
		if st.Reason != "" {
			fmt.Fprintf(out, "\n%s: %s", st.Server, st.Reason)
			noted = true
		}
		if st.Status == statusNeedsLogin {
			fmt.Fprintf(out, "\n  log in with: %s", a.loginCommand(st.Server))
			noted = true
		}
	}
	fmt.Fprintln(out)
	return a.printPeople(out, statuses, noted)
}

// loginStatus finds one server's status: from its stored tokens, and
// unless offline by connecting with them.
func (a *app) loginStatus(ctx context.Context, name string, offline bool) loginStatus {
	cfg, _ := a.upstreams.Config(name)
	st := loginStatus{Server: name, Type: cfg.Type, URL: cfg.URL}
	tokens, _ := a.upstreams.Tokens(name)
	if tokens == nil {
		st.Status, st.Reason = statusNotNeeded, "sends the Authorization header set in its .mcp.json entry"
		return st
	}
	describe := func(info *oauth.Info) {
		if info == nil {
			return
		}
		st.Scopes, st.Issuer = info.Scopes, info.Issuer
		if exp := info.Expires; !exp.IsZero() {
			st.Expires = &exp
		}
	}
	info := tokens.Info()
	describe(info)
	switch {
	case info == nil:
		st.Status = statusUnknown
	case info.NeedsLogin != "":
		st.Status, st.Reason = statusNeedsLogin, info.NeedsLogin
	case info.Expires.IsZero() || time.Now().Before(info.Expires):
		st.Status = statusAuthorized
	default:
		st.Status, st.Reason = statusExpired, "the access token expired; it is refreshed at the next use"
	}
	if offline {
		return st
	}
	err := a.upstreams.Check(ctx, name)
	info = tokens.Info() // perhaps refreshed
	describe(info)
	switch {
	case err == nil && info == nil:
		st.Status, st.Reason = statusNotNeeded, ""
	case err == nil:
		st.Status, st.Reason = statusAuthorized, ""
	case errors.Is(err, oauth.ErrLoginRequired):
		st.Status = statusNeedsLogin
		var lr *oauth.LoginRequiredError
		if errors.As(err, &lr) {
			st.Reason = lr.Reason
		}
	default:
		line, _, _ := strings.Cut(err.Error(), "\n")
		st.Status, st.Reason = statusError, line
	}
	return st
}

func runAuthLogout(ctx context.Context, args []string, out io.Writer) error {
	fs, sf := newAuthFlagSet("logout")
	who := fs.String("principal", "", "forget this person's own login to a server with oauth.identity: user (as `auth status` lists it), not the shared one")
	a, name, err := openAuthServer(ctx, fs, sf, args)
	if err != nil {
		return err
	}
	defer a.close(ctx)
	if *who != "" {
		rctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		defer cancel()
		return a.logoutPerson(rctx, name, *who, out)
	}
	tokens, _ := a.upstreams.Tokens(name)
	if tokens == nil || tokens.Info() == nil {
		fmt.Fprintf(out, "No login is stored for %s.\n", name)
		return nil
	}
	rctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	revokedAt, err := tokens.Logout(rctx)
	switch {
	case err != nil && tokens.Info() != nil:
		return err // not even forgotten
	case err != nil:
		fmt.Fprintf(out, "Forgot the tokens of %s, but could not revoke them: %v\n", name, err)
		return exitError(1)
	case revokedAt != "":
		fmt.Fprintf(out, "Logged out of %s: its tokens were revoked at %s and forgotten.\n", name, revokedAt)
	default:
		fmt.Fprintf(out, "Logged out of %s: its tokens were forgotten (the authorization server offers no revocation, so they stay valid there until they expire).\n", name)
	}
	return nil
}
