package oauth

import (
	"context"
	"log/slog"
	"net/http"
)

// ReadPeople reads the grants people hold for the server at resource,
// each as Tokens that hold it already (keyed by principal), through a
// store that lists them ([GrantLister]); a store that cannot gives none,
// and no error. The Tokens read the store again at each use, as any do,
// and keep the grant they hold while it cannot be reached.
func ReadPeople(ctx context.Context, store Grants, server, resource string, client *http.Client, log *slog.Logger) (map[string]*Tokens, error) {
	lister, ok := store.(GrantLister)
	if !ok {
		return nil, nil
	}
	read, err := lister.PrincipalGrants(ctx, server, resource)
	if err != nil {
		return nil, err
	}
	out := make(map[string]*Tokens, len(read))
	for _, sg := range read {
		if sg.Err != nil && log != nil {
			log.Warn("a person's OAuth login does not open; it is read again at their call", "server", server, "principal", sg.Key.Principal, "err", sg.Err)
		}
		if sg.Key.Principal == "" || sg.Key.Server != server || sg.Key.Resource != resource || sg.Grant == nil {
			continue
		}
		t := NewTokensFor(store, sg.Key, client, log)
		t.grant, t.seen, t.loaded = sg.Grant, sg.Stamp, sg.Stamp != nil
		t.version++
		out[sg.Key.Principal] = t
	}
	return out, nil
}
