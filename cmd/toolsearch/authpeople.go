package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/toolsearch/toolsearch/loader/upstream"
)

// personStatus is one person's own login to a server with identity: user,
// in `auth status`: what the state holds, never a token or a secret. The
// principal is shown as the status page and the trace show it.
type personStatus struct {
	Principal    string     `json:"principal"`
	Status       string     `json:"status"` // authorized, expired, needs login, unreadable
	Reason       string     `json:"reason,omitempty"`
	Expires      *time.Time `json:"expires,omitempty"`
	RefreshToken bool       `json:"refreshToken"`
	Scopes       []string   `json:"scopes,omitempty"`
	// WantedScopes were asked for by the server since (a 403
	// insufficient_scope to one of the person's calls): their next
	// login asks for them too.
	WantedScopes []string `json:"wantedScopes,omitempty"`
	Issuer       string   `json:"authorizationServer,omitempty"`
}

// statusUnreadable is a person's grant that is stored but does not open.
const statusUnreadable = "unreadable"

// identityUser is how `auth status` marks a server whose logins are each
// person's own.
const identityUser = "user"

// peopleStatus fills st's people, for a server whose logins are each
// person's own, from the state alone: no person's login is used to
// connect.
func (a *app) peopleStatus(ctx context.Context, st *loginStatus) {
	if !slices.Contains(a.upstreams.PerUserServers(), st.Server) {
		return
	}
	st.Identity = identityUser
	logins, err := a.upstreams.PersonLogins(ctx, st.Server)
	if err != nil {
		line, _, _ := strings.Cut(err.Error(), "\n")
		st.PeopleError = line
		return
	}
	now := time.Now()
	for _, pl := range logins {
		ps := personStatus{Principal: pl.Principal}
		info := pl.Info
		switch {
		case info == nil:
			ps.Status = statusUnreadable
			if pl.Err != nil {
				ps.Reason = pl.Err.Error()
			}
		case info.NeedsLogin != "":
			ps.Status, ps.Reason = statusNeedsLogin, info.NeedsLogin
		case info.Expires.IsZero() || now.Before(info.Expires):
			ps.Status = statusAuthorized
		default:
			ps.Status, ps.Reason = statusExpired, "the access token expired; it is refreshed at the person's next call"
		}
		if info != nil {
			ps.RefreshToken, ps.Scopes, ps.WantedScopes, ps.Issuer = info.Refreshable, info.Scopes, info.Wanted, info.Issuer
			if !info.Expires.IsZero() {
				exp := info.Expires
				ps.Expires = &exp
			}
		}
		st.People = append(st.People, ps)
	}
}

// printPeople prints the people's logins of the servers whose logins are
// each person's own, after the table of `auth status` (and a blank line,
// unless notes on the servers followed it).
func (a *app) printPeople(out io.Writer, statuses []loginStatus, noted bool) error {
	for _, st := range statuses {
		if st.Identity != identityUser {
			continue
		}
		if noted {
			fmt.Fprintln(out)
		}
		noted = true
		switch {
		case st.PeopleError != "":
			fmt.Fprintf(out, "%s: each person's own login (oauth.identity: user), which cannot be listed: %s\n", st.Server, st.PeopleError)
			continue
		case len(st.People) == 0:
			fmt.Fprintf(out, "%s: each person's own login (oauth.identity: user): nobody has logged in yet.\n", st.Server)
			continue
		}
		fmt.Fprintf(out, "%s: each person's own login (oauth.identity: user), %d stored:\n", st.Server, len(st.People))
		tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "  PRINCIPAL\tSTATUS\tEXPIRES\tREFRESH TOKEN\tSCOPES")
		for _, ps := range st.People {
			expires := "-"
			if ps.Expires != nil {
				expires = ps.Expires.Local().Format(time.DateTime)
			}
			refresh := "no"
			if ps.RefreshToken {
				refresh = "yes"
			}
			scopes := dash(strings.Join(ps.Scopes, " "))
			if len(ps.WantedScopes) > 0 {
				scopes += " (wants " + strings.Join(ps.WantedScopes, " ") + " at the next login)"
			}
			fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s\n", ps.Principal, ps.Status, expires, refresh, scopes)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		for _, ps := range st.People {
			if ps.Reason != "" {
				fmt.Fprintf(out, "  %s: %s\n", ps.Principal, ps.Reason)
			}
		}
		fmt.Fprintf(out, "  forget one with: %s\n", a.commandLine("auth", "logout", st.Server, "--principal", "NAME"))
	}
	return nil
}

// logoutPerson forgets who's own login to a server with identity: user,
// revoking it where the authorization server offers revocation.
func (a *app) logoutPerson(ctx context.Context, name, who string, out io.Writer) error {
	revokedAt, err := a.upstreams.LogoutPerson(ctx, name, who)
	var notRevoked *upstream.NotRevokedError
	switch {
	case errors.Is(err, upstream.ErrNoPersonLogin):
		return a.noPersonLogin(ctx, name, who)
	case errors.As(err, &notRevoked):
		fmt.Fprintf(out, "Forgot %s's login to %s, but could not revoke its tokens: %v\n", who, name, notRevoked.Err)
		return exitError(1)
	case err != nil:
		return err
	case revokedAt != "":
		fmt.Fprintf(out, "Logged %s out of %s: their tokens were revoked at %s and forgotten, for every replica.\n", who, name, revokedAt)
	default:
		fmt.Fprintf(out, "Logged %s out of %s: their tokens were forgotten, for every replica (not revoked: the login did not open, or the authorization server offers no revocation, so they stay valid there until they expire).\n", who, name)
	}
	return nil
}

// noPersonLogin says that who holds no login to name, and who does.
func (a *app) noPersonLogin(ctx context.Context, name, who string) error {
	logins, err := a.upstreams.PersonLogins(ctx, name)
	if err != nil || len(logins) == 0 {
		return fmt.Errorf("--principal %s: %s holds no login of %s's own to forget; nobody has logged in to it", who, name, who)
	}
	names := make([]string, len(logins))
	for i, pl := range logins {
		names[i] = pl.Principal
	}
	return fmt.Errorf("--principal %s: %s holds no login of %s's own to forget; the people logged in to it are %s", who, name, who, strings.Join(names, ", "))
}
