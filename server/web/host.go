package web

import (
	"fmt"
	"net"
	"net/http"
	"slices"
	"strings"
)

// checkHost refuses a request whose Host header names a host this server
// does not answer to. A DNS rebinding page makes the browser send requests
// for its own domain to this server's address: the Host header still names
// that domain, and the Origin check alone would take it for a same-origin
// request.
func checkHost(o Options) check {
	return func(w http.ResponseWriter, r *http.Request) bool {
		local, _ := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
		if hostAllowed(local, r.Host, o.AllowedHosts) {
			return true
		}
		http.Error(w, fmt.Sprintf("Forbidden: invalid Host header %q (add the name to http.allowedHosts if this server is reached by it)", r.Host), http.StatusForbidden)
		return false
	}
}

// hostAllowed reports whether a request that arrived on the local address
// local may name host in its Host header. Loopback names (localhost,
// 127.0.0.0/8, ::1) always may, and so may the names in allowed, compared
// without port and case. Beyond that:
//
//   - On a loopback address, nothing else: the server may be unprotected
//     (no token is needed on loopback), and a name that is not loopback
//     means a page of another site reached it, as go-sdk's streamable
//     handler rules for /mcp. An unknown local address counts as loopback.
//   - On any other address the server was bound beyond loopback, which
//     takes a token that a rebinding page does not have; any name passes,
//     unless allowed lists some, and then only those do.
func hostAllowed(local net.Addr, host string, allowed []string) bool {
	name := hostName(host)
	if name == "" {
		return false
	}
	if isLoopbackHost(name) || slices.ContainsFunc(allowed, func(a string) bool { return strings.EqualFold(hostName(a), name) }) {
		return true
	}
	return !onLoopback(local) && len(allowed) == 0
}

// hostName is the host of a Host header or of an allowed-hosts entry,
// without port or IPv6 brackets.
func hostName(host string) string {
	if h, _, err := net.SplitHostPort(host); err == nil {
		return h
	}
	return strings.Trim(host, "[]")
}

// onLoopback reports whether a connection's local address is a loopback
// one; an unknown address counts as loopback, the stricter rule.
func onLoopback(local net.Addr) bool {
	tcp, ok := local.(*net.TCPAddr)
	return !ok || tcp.IP.IsLoopback()
}
