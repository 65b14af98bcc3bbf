package web

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"strconv"
	"time"
)

// DefaultMaxForwards bounds the requests a replica forwards to others at
// once: each holds a connection to the owner and one to the client.
const DefaultMaxForwards = 256

// forwardDialTimeout bounds how long reaching an owner may take before its
// session counts as lost: a replica that vanished without leaving the
// registry does not answer.
const forwardDialTimeout = 3 * time.Second

// A forwarder passes requests to the replica owning their session, as
// they came (the caller's Authorization, Host and Origin, which the owner
// checks again), and streams the answer back as it comes: event streams
// are flushed at once.
type forwarder struct {
	self  string
	slots chan struct{}
	proxy *httputil.ReverseProxy
}

type forwardKey struct{}

// forwardTo is where a request is forwarded, and what answers it when the
// owner cannot be reached.
type forwardTo struct {
	target *url.URL
	lost   func(http.ResponseWriter, *http.Request)
}

func newForwarder(rs *Replicas) *forwarder {
	n := rs.MaxForwards
	if n <= 0 {
		n = DefaultMaxForwards
	}
	transport := rs.Transport
	if transport == nil {
		transport = &http.Transport{
			DialContext:           (&net.Dialer{Timeout: forwardDialTimeout}).DialContext,
			MaxIdleConnsPerHost:   32,
			IdleConnTimeout:       90 * time.Second,
			ExpectContinueTimeout: time.Second,
		}
	}
	f := &forwarder{self: rs.Sealer.Self(), slots: make(chan struct{}, n)}
	f.proxy = &httputil.ReverseProxy{
		Transport:     transport,
		FlushInterval: -1,
		Rewrite: func(pr *httputil.ProxyRequest) {
			to := pr.In.Context().Value(forwardKey{}).(*forwardTo)
			pr.SetURL(to.target)
			pr.Out.URL.Path, pr.Out.URL.RawPath = pr.In.URL.Path, pr.In.URL.RawPath
			pr.Out.Host = pr.In.Host // as the client named this server, which the owner's guard checks
			pr.Out.Header.Set(forwardedHeader, f.self)
		},
		// A failed round trip comes here. One that could not dial sent
		// nothing: the owner is unreachable and its session lost. One
		// that failed later may have reached an owner that died serving
		// it: whether it was done is unknown, which a lost session's
		// answer would deny.
		ErrorHandler: func(w http.ResponseWriter, r *http.Request, err error) {
			if errors.Is(err, context.Canceled) {
				return // the client left
			}
			var op *net.OpError
			if errors.As(err, &op) && op.Op == "dial" {
				r.Context().Value(forwardKey{}).(*forwardTo).lost(w, r)
				return
			}
			http.Error(w, "Bad Gateway: the replica that owns this session went away while it served the request; whether it was done is unknown", http.StatusBadGateway)
		},
	}
	return f
}

// forward passes r to the replica at addr; lost answers it when that
// replica cannot be reached.
func (f *forwarder) forward(w http.ResponseWriter, r *http.Request, addr string, lost func(http.ResponseWriter, *http.Request)) {
	target, err := url.Parse(addr)
	if err != nil || target.Host == "" {
		lost(w, r)
		return
	}
	select {
	case f.slots <- struct{}{}:
		defer func() { <-f.slots }()
	default:
		w.Header().Set("Retry-After", strconv.Itoa(1))
		http.Error(w, "Service Unavailable: this replica forwards as many requests to the others as it may at once; retry", http.StatusServiceUnavailable)
		return
	}
	r = r.WithContext(context.WithValue(r.Context(), forwardKey{}, &forwardTo{target: target, lost: lost}))
	f.proxy.ServeHTTP(w, r)
}
