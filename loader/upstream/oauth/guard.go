package oauth

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"syscall"
	"time"
)

// Guard returns the client through which every request that an
// authorization or resource server can direct is made, for the MCP server
// at resource: metadata, registration, token, refresh and revocation. The
// SDK guards its metadata requests (oauthex refuses non-public addresses
// when it dials), but only through a plain *http.Transport: the recorder
// a login wraps the transport in made it skip the check, and the SDK
// never checks registration or token requests. So the guard is here, with
// the SDK's rules, for every request:
//
//   - only https, or http to a loopback host;
//   - no connection to a non-public address (private, link-local — the
//     cloud metadata address among them —, carrier-grade NAT, multicast,
//     unspecified), checked on the address dialled, after resolution;
//   - loopback only when the MCP server itself is on loopback: a remote
//     server must not make toolsearch talk to the user's own machine;
//   - redirects: none from https to http, and none to another origin for
//     a request with a body (a token request carries the client secret,
//     the code and the PKCE verifier).
//
// The dial check covers the default transport and any *http.Transport,
// one that dials by itself included: the guard resolves the name, refuses
// the addresses above and hands the transport's dialer only IP addresses
// it accepts, so nothing can resolve the name again to another one (a
// rebinding DNS server) between the check and the connection. A
// RoundTripper that is not an *http.Transport, or a transport that sends
// requests through a proxy (whose address, not the server's, is dialled;
// the proxy resolves the name), gets the URL checks only, as in the SDK.
func Guard(client *http.Client, resource string) *http.Client {
	if client == nil {
		client = http.DefaultClient
	}
	loopback := false
	if u, err := url.Parse(resource); err == nil {
		loopback = isLoopbackHost(u.Hostname())
	}
	base := client.Transport
	if base == nil {
		base = http.DefaultTransport
	}
	if t, ok := base.(*http.Transport); ok && !proxied(t) {
		t = t.Clone()
		if t.DialContext == nil || base == http.DefaultTransport {
			// The default transport's dialer is a plain net.Dialer; this
			// one also checks the address at connect time.
			t.DialContext = (&net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second, Control: dialGuard(loopback)}).DialContext
		}
		t.DialContext = guardDial(t.DialContext, loopback)
		if t.DialTLSContext != nil {
			t.DialTLSContext = guardDial(t.DialTLSContext, loopback)
		}
		base = t
	}
	g := *client
	g.Transport = &guardTransport{base: base, loopback: loopback}
	g.CheckRedirect = guardRedirect(client.CheckRedirect)
	return &g
}

type dialFunc func(ctx context.Context, network, address string) (net.Conn, error)

// guardDial resolves the host of each address itself, drops the addresses
// checkAddr refuses, and dials the others, as IP addresses, through dial.
func guardDial(dial dialFunc, loopback bool) dialFunc {
	return func(ctx context.Context, network, address string) (net.Conn, error) {
		host, port, err := net.SplitHostPort(address)
		if err != nil {
			return nil, err
		}
		ips, err := net.DefaultResolver.LookupNetIP(ctx, ipNetwork(network), host)
		if err != nil {
			return nil, err
		}
		var refused, dialErr error
		for _, ip := range ips {
			if err := checkAddr(ip, loopback); err != nil {
				if refused == nil {
					refused = fmt.Errorf("%s: %w", host, err)
				}
				continue
			}
			c, err := dial(ctx, network, net.JoinHostPort(ip.Unmap().String(), port))
			if err == nil {
				return c, nil
			}
			dialErr = err
		}
		if dialErr != nil {
			return nil, dialErr
		}
		if refused != nil {
			return nil, refused
		}
		return nil, fmt.Errorf("%s: no address", host)
	}
}

// ipNetwork is the address family LookupNetIP is asked for, for a dial on
// network.
func ipNetwork(network string) string {
	switch network {
	case "tcp4", "udp4":
		return "ip4"
	case "tcp6", "udp6":
		return "ip6"
	}
	return "ip"
}

// guardTransport checks each request's URL, every hop of a redirect
// included.
type guardTransport struct {
	base     http.RoundTripper
	loopback bool // loopback addresses may be reached
}

func (g *guardTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if err := checkURL(req.URL, g.loopback); err != nil {
		if req.Body != nil {
			req.Body.Close()
		}
		return nil, err
	}
	return g.base.RoundTrip(req)
}

// checkURL refuses a URL that is not https or loopback http, or that names
// an address the guard refuses.
func checkURL(u *url.URL, loopback bool) error {
	host := u.Hostname()
	switch {
	case u.Scheme == "https":
	case u.Scheme == "http" && isLoopbackHost(host):
	default:
		return fmt.Errorf("%s://%s: toolsearch talks to authorization servers over https only (http only on loopback)", u.Scheme, u.Host)
	}
	if ip, err := netip.ParseAddr(strings.Trim(host, "[]")); err == nil {
		return checkAddr(ip, loopback)
	}
	if host == "localhost" && !loopback {
		return errLoopback
	}
	return nil
}

var errLoopback = errors.New("a server that is not on this machine named an address on this machine (loopback); toolsearch does not follow it")

// checkAddr refuses the addresses the SDK's guard refuses (see
// oauthex.newDiscoveryTransport and internal/util.IsPrivateOrReserved in
// the go-sdk), and loopback unless allowed.
func checkAddr(ip netip.Addr, loopback bool) error {
	ip = ip.Unmap()
	if ip.IsLoopback() {
		if loopback {
			return nil
		}
		return errLoopback
	}
	if !ip.IsValid() || ip.IsPrivate() || ip.IsLinkLocalUnicast() || ip.IsLinkLocalMulticast() || ip.IsMulticast() || ip.IsUnspecified() || cgnat.Contains(ip) {
		return fmt.Errorf("%s is not a public address; toolsearch does not send OAuth requests to private, link-local or reserved addresses", ip)
	}
	return nil
}

// cgnat is the carrier-grade NAT range (RFC 6598), which netip does not
// count as private.
var cgnat = netip.MustParsePrefix("100.64.0.0/10")

// dialGuard checks the address a connection is about to be made to, after
// name resolution: a name that resolves to a private address is caught
// here.
func dialGuard(loopback bool) func(network, address string, _ syscall.RawConn) error {
	return func(_, address string, _ syscall.RawConn) error {
		host, _, err := net.SplitHostPort(address)
		if err != nil {
			host = address
		}
		ip, err := netip.ParseAddr(host)
		if err != nil {
			return fmt.Errorf("not an IP address: %q", host)
		}
		return checkAddr(ip, loopback)
	}
}

// guardRedirect is the redirect policy of OAuth requests, before the
// caller's own.
func guardRedirect(next func(*http.Request, []*http.Request) error) func(*http.Request, []*http.Request) error {
	return func(req *http.Request, via []*http.Request) error {
		prev := via[len(via)-1]
		switch {
		case len(via) >= 10:
			return errors.New("stopped after 10 redirects")
		case prev.URL.Scheme == "https" && req.URL.Scheme != "https":
			return fmt.Errorf("a redirect from https to %s is a downgrade; toolsearch does not follow it", req.URL.Scheme)
		case prev.Method != http.MethodGet && prev.Method != http.MethodHead && !SameOrigin(prev.URL, req.URL):
			return fmt.Errorf("the authorization server redirected a %s request, which carries credentials, to another origin (%s://%s); toolsearch does not follow it", prev.Method, req.URL.Scheme, req.URL.Host)
		}
		if next != nil {
			return next(req, via)
		}
		return nil
	}
}

// SameOrigin reports whether two URLs have the same scheme, host and port, a
// missing port being the scheme's default.
func SameOrigin(a, b *url.URL) bool {
	return strings.EqualFold(a.Scheme, b.Scheme) && strings.EqualFold(a.Hostname(), b.Hostname()) && portOf(a) == portOf(b)
}

func portOf(u *url.URL) string {
	if p := u.Port(); p != "" {
		return p
	}
	if strings.EqualFold(u.Scheme, "https") {
		return "443"
	}
	return "80"
}

func isLoopbackHost(host string) bool {
	host = strings.Trim(host, "[]")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.Unmap().IsLoopback()
}

// proxied reports whether t sends requests through a proxy, whose address,
// not the server's, a dial check would see (the SDK then checks nothing at
// dial time either).
func proxied(t *http.Transport) bool {
	if t.Proxy == nil {
		return false
	}
	req, err := http.NewRequest(http.MethodGet, "https://proxy-check.invalid", nil)
	if err != nil {
		return false
	}
	u, err := t.Proxy(req)
	return err == nil && u != nil
}
