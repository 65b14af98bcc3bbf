package stdiobridge

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// sessionVersions are the protocol versions the bridge serves and asks its
// server for: the eras with sessions (see the package doc).
var sessionVersions = []string{"2025-11-25", "2025-06-18", "2025-03-26"}

// Options configure a Bridge.
type Options struct {
	Logger *slog.Logger
	// SessionTimeout closes client sessions idle this long (30 minutes
	// when 0).
	SessionTimeout time.Duration
	// Version is the bridge's own version, told to the server as its
	// client's.
	Version string
}

// A Bridge is one stdio server's session, served to HTTP clients.
type Bridge struct {
	log *slog.Logger
	up  *mcp.ClientSession
	srv *mcp.Server
	mcp http.Handler

	rel  relay
	subs subscriptions

	levelMu sync.Mutex
	level   mcp.LoggingLevel // the most verbose a client asked for

	ended atomic.Bool // the server's session ended
}

// Connect starts the server's session over t (a stdio server's transport)
// and builds what serves it. The session ends with Close, or when the
// server exits (Wait).
func Connect(ctx context.Context, t mcp.Transport, o Options) (*Bridge, error) {
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.SessionTimeout == 0 {
		o.SessionTimeout = 30 * time.Minute
	}
	b := &Bridge{log: o.Logger}
	b.rel.init()
	client := mcp.NewClient(&mcp.Implementation{Name: "toolsearch-bridge", Version: o.Version}, b.clientOptions())
	client.AddReceivingMiddleware(b.rootsMiddleware)
	up, err := client.Connect(ctx, countingTransport{Transport: t, r: &b.rel}, &mcp.ClientSessionOptions{ProtocolVersion: sessionVersions[0]})
	if err != nil {
		return nil, fmt.Errorf("starting the server's session: %w", err)
	}
	b.up = up
	go func() {
		_ = up.Wait()
		b.ended.Store(true)
	}()
	init := up.InitializeResult()
	info := &mcp.Implementation{Name: "stdio-server"}
	caps := &mcp.ServerCapabilities{}
	if init != nil {
		if init.ServerInfo != nil {
			info = init.ServerInfo
		}
		if init.Capabilities != nil {
			caps = cloneCaps(init.Capabilities)
		}
	}
	instructions := ""
	if init != nil {
		instructions = init.Instructions
	}
	b.srv = mcp.NewServer(info, &mcp.ServerOptions{
		Instructions:              instructions,
		Logger:                    o.Logger,
		Capabilities:              caps,
		SupportedProtocolVersions: sessionVersions,
		SubscribeHandler:          b.subscribe,
		UnsubscribeHandler:        b.unsubscribe,
	})
	b.srv.AddReceivingMiddleware(b.forward)
	// The guard in front of the bridge checks Host and Origin, and knows
	// the names it is reached by: the go-sdk's own check would refuse them.
	b.mcp = mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return b.srv }, &mcp.StreamableHTTPOptions{
		DisableLocalhostProtection: true,
		Logger:                     o.Logger,
		SessionTimeout:             o.SessionTimeout,
	})
	return b, nil
}

// cloneCaps copies the server's capabilities, which the served ones are.
func cloneCaps(c *mcp.ServerCapabilities) *mcp.ServerCapabilities {
	data, err := json.Marshal(c)
	out := &mcp.ServerCapabilities{}
	if err == nil {
		_ = json.Unmarshal(data, out)
	}
	return out
}

// MCP serves MCP Streamable HTTP: mount it at /mcp, behind the guard.
func (b *Bridge) MCP() http.Handler { return b.mcp }

// Ready reports whether the server's session is still open.
func (b *Bridge) Ready() bool { return !b.ended.Load() }

// Wait waits until the server's session ends: the server exited, or Close.
func (b *Bridge) Wait() error { return b.up.Wait() }

// Close ends every client session and then the server's, which closes the
// server's stdin and stops it (see mcp.CommandTransport).
func (b *Bridge) Close() error {
	for ss := range b.srv.Sessions() {
		_ = ss.Close()
	}
	return b.up.Close()
}
