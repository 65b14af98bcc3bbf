package upstream

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// What an upstream's requests to the client carry and cost. One upstream
// call let a server send 300 sampling requests at once, each of which runs
// the user's model; and an upstream's elicitation reached the client byte
// for byte, posing as toolsearch's own "Log in to github…" prompt.
const (
	// maxAsksPerCall bounds the requests to the client outstanding for
	// one call to an upstream, maxAsksPerServer those of one upstream.
	maxAsksPerCall   = 4
	maxAsksPerServer = 8
	// askRate is how many requests one upstream may send the client per
	// second, as notifyRate bounds its notifications; beyond it they are
	// refused at once.
	askRate = 10
)

// MetaUpstream is the _meta key under which every request toolsearch
// relays from an upstream to the client names the upstream:
// {"server": NAME, "origin": ORIGIN} (origin for a URL elicitation, the
// origin of its URL). toolsearch sets it last, over anything the upstream
// sent under its prefix, so that an upstream can neither forge nor remove
// it; toolsearch's own requests never carry it.
const MetaUpstream = "io.github.toolsearch/upstream"

// metaPrefix is the prefix of toolsearch's _meta keys, which an upstream's
// requests lose.
const metaPrefix = "io.github.toolsearch/"

// relayedMeta returns an upstream's _meta with its keys under toolsearch's
// prefix dropped and MetaUpstream set.
func (u *upstream) relayedMeta(m mcp.Meta, origin string) mcp.Meta {
	out := mcp.Meta{}
	for k, v := range m {
		if !strings.HasPrefix(k, metaPrefix) {
			out[k] = v
		}
	}
	tag := map[string]any{"server": u.cfg.Name}
	if origin != "" {
		tag["origin"] = origin
	}
	out[MetaUpstream] = tag
	return out
}

// relayedElicit returns the elicitation as the client gets it: its message
// begins with the upstream's name, and a URL elicitation's with the
// origin of its URL, so that the person sees who asks and where the page
// is, whatever the message claims; toolsearch's own prompts never begin
// so. The upstream chose everything after the prefix.
func (u *upstream) relayedElicit(p *mcp.ElicitParams) *mcp.ElicitParams {
	if p == nil {
		p = &mcp.ElicitParams{}
	}
	cp := *p
	origin := ""
	if p.Mode == "url" || p.Mode == "" && p.URL != "" {
		origin = urlOrigin(p.URL)
		cp.Message = fmt.Sprintf("Server %q (through toolsearch) asks you to open a page at %s: %s", u.cfg.Name, origin, p.Message)
	} else {
		cp.Message = fmt.Sprintf("Server %q (through toolsearch) asks: %s", u.cfg.Name, p.Message)
	}
	cp.Meta = u.relayedMeta(p.Meta, origin)
	return &cp
}

// urlOrigin returns scheme://host of a URL, or a phrase saying it has none.
func urlOrigin(raw string) string {
	v, err := url.Parse(raw)
	if err != nil || v.Scheme == "" || v.Host == "" {
		return "an address that is not a web URL"
	}
	return strings.ToLower(v.Scheme) + "://" + strings.ToLower(v.Host)
}

// relayedSampling returns the sampling request as the client gets it:
// named, and with includeContext narrowed to none. To the client "this
// server" is toolsearch, every upstream and toolsearch's own tools
// together, so thisServer cannot be honoured, and allServers would hand
// one upstream what the others returned.
func (u *upstream) relayedSampling(p *mcp.CreateMessageWithToolsParams) *mcp.CreateMessageWithToolsParams {
	if p == nil {
		p = &mcp.CreateMessageWithToolsParams{}
	}
	cp := *p
	if cp.IncludeContext != "" && cp.IncludeContext != "none" {
		u.log.Debug("sampling request's includeContext narrowed to none", "asked", cp.IncludeContext)
		cp.IncludeContext = "none"
	}
	cp.Meta = u.relayedMeta(p.Meta, "")
	return &cp
}

// relayedRoots returns the roots request as the client gets it: named.
func (u *upstream) relayedRoots(p *mcp.ListRootsParams) *mcp.ListRootsParams {
	if p == nil {
		p = &mcp.ListRootsParams{}
	}
	cp := *p
	cp.Meta = u.relayedMeta(p.Meta, "")
	return &cp
}

// admit takes a place for one request of the upstream to in's caller, or
// says why there is none: too many outstanding for the call or for the
// upstream, or too many this second. The returned function gives it back.
func (u *upstream) admit(in *inflight) (func(), error) {
	r := &u.rel
	r.mu.Lock()
	defer r.mu.Unlock()
	if now := time.Now(); now.Sub(r.askWindow) >= time.Second {
		r.askWindow, r.asked = now, 0
	}
	var why string
	switch {
	case in.asking >= maxAsksPerCall:
		why = fmt.Sprintf("%d requests of this call to the client are already waiting for an answer, the most toolsearch passes on at once", maxAsksPerCall)
	case r.asking >= maxAsksPerServer:
		why = fmt.Sprintf("%d requests of this server to the client are already waiting for an answer, the most toolsearch passes on at once", maxAsksPerServer)
	case r.asked >= askRate:
		why = fmt.Sprintf("this server sent the client %d requests within a second, the most toolsearch passes on", askRate)
	}
	if why != "" {
		u.log.Warn("request to the client refused", "reason", why)
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: why + "; send the next once one is answered"}
	}
	r.asked++
	r.asking++
	in.asking++
	return func() {
		r.mu.Lock()
		r.asking--
		in.asking--
		r.mu.Unlock()
	}, nil
}

// askFor passes one request of the upstream to in's caller, within the
// bounds admit sets (see ask).
func askFor[R any](ctx context.Context, u *upstream, in *inflight, do func(context.Context, Caller) (R, error)) (R, error) {
	done, err := u.admit(in)
	if err != nil {
		var zero R
		return zero, err
	}
	defer done()
	return ask(ctx, in, do)
}
