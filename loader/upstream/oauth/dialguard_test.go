package oauth

import (
	"context"
	"encoding/binary"
	"io"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestGuardChecksTheAddressDialled: a name that resolves to an address the
// guard refuses is never dialled, whatever the name looks like. The names
// are answered by a stand-in DNS server through the process's resolver, so
// the request goes the way a login's does: the default transport, the
// system's resolution. Before the guard dialled by itself, the default
// transport's own dialer skipped the check and reached every one of them.
func TestGuardChecksTheAddressDialled(t *testing.T) {
	counting, accepts := countingListener(t)
	port := counting.Addr().(*net.TCPAddr).Port
	fakeDNS(t, map[string]netip.Addr{
		"metadata.internal.test.": netip.MustParseAddr("169.254.169.254"),
		"private.internal.test.":  netip.MustParseAddr("10.0.0.7"),
		"zero.internal.test.":     netip.MustParseAddr("0.0.0.0"),
		"v6local.internal.test.":  netip.MustParseAddr("fe80::1"),
		"here.internal.test.":     netip.MustParseAddr("127.0.0.1"),
	})
	for _, tc := range []struct {
		name     string
		resource string // the MCP server's URL
		refused  string // what the error says, "" when the request is let through
	}{
		{"metadata.internal.test", "https://mcp.example.com/mcp", "169.254.169.254 is not a public address"},
		{"private.internal.test", "https://mcp.example.com/mcp", "10.0.0.7 is not a public address"},
		{"zero.internal.test", "https://mcp.example.com/mcp", "0.0.0.0 is not a public address"},
		{"v6local.internal.test", "https://mcp.example.com/mcp", "fe80::1 is not a public address"},
		{"here.internal.test", "https://mcp.example.com/mcp", "loopback"},
		// An MCP server on loopback may have its authorization server there.
		{"here.internal.test", "http://127.0.0.1:9/mcp", ""},
	} {
		before := accepts.Load()
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second) // bounds a dial that should not happen
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, "https://"+net.JoinHostPort(tc.name, itoa(port))+"/.well-known/oauth-authorization-server", nil)
		resp, err := Guard(nil, tc.resource).Do(req)
		cancel()
		if resp != nil {
			resp.Body.Close()
		}
		dialled := accepts.Load() - before
		switch {
		case tc.refused == "" && dialled != 1:
			t.Errorf("%s for %s: %d connections reached it (%v), want 1", tc.name, tc.resource, dialled, err)
		case tc.refused != "" && (err == nil || !strings.Contains(err.Error(), tc.refused)):
			t.Errorf("%s for %s: %v, want the guard's refusal (%q) before any dial", tc.name, tc.resource, err, tc.refused)
		case tc.refused != "" && dialled != 0:
			t.Errorf("%s for %s: %d connections reached the listener", tc.name, tc.resource, dialled)
		}
	}
}

// TestGuardWrapsACustomDialer: a transport that dials by itself is handed
// only addresses the guard accepts, as IP addresses, so it cannot resolve
// the name again to another one.
func TestGuardWrapsACustomDialer(t *testing.T) {
	fakeDNS(t, map[string]netip.Addr{"metadata.internal.test.": netip.MustParseAddr("169.254.169.254")})
	var dials atomic.Int32
	tr := &http.Transport{DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
		dials.Add(1)
		return nil, io.ErrUnexpectedEOF
	}}
	resp, err := Guard(&http.Client{Transport: tr}, "https://mcp.example.com/mcp").Get("https://metadata.internal.test/.well-known/oauth-authorization-server")
	if resp != nil {
		resp.Body.Close()
	}
	if err == nil || !strings.Contains(err.Error(), "not a public address") || dials.Load() != 0 {
		t.Errorf("custom dialer: %v after %d dials, want the guard's refusal and no dial", err, dials.Load())
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// countingListener accepts and counts connections on loopback, and closes
// them: whatever reaches it was dialled.
func countingListener(t *testing.T) (net.Listener, *atomic.Int32) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	var n atomic.Int32
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			n.Add(1)
			c.Close()
		}
	}()
	return ln, &n
}

// fakeDNS answers the process's name lookups from names (fully qualified)
// for the test's length, through Go's own resolver.
func fakeDNS(t *testing.T, names map[string]netip.Addr) {
	r := net.DefaultResolver
	prefer, dial := r.PreferGo, r.Dial
	t.Cleanup(func() { r.PreferGo, r.Dial = prefer, dial })
	r.PreferGo = true
	r.Dial = func(context.Context, string, string) (net.Conn, error) {
		client, server := net.Pipe()
		go serveDNS(server, names)
		return client, nil
	}
}

// serveDNS answers the queries of one stream connection (RFC 1035 4.2.2:
// each message after its two-byte length) with the address of the name
// asked for, of the type asked for, or no answer.
func serveDNS(c net.Conn, names map[string]netip.Addr) {
	defer c.Close()
	for {
		var n [2]byte
		if _, err := io.ReadFull(c, n[:]); err != nil {
			return
		}
		q := make([]byte, binary.BigEndian.Uint16(n[:]))
		if _, err := io.ReadFull(c, q); err != nil || len(q) < 12 {
			return
		}
		// The question: labels up to the empty one, then type and class.
		end, name := 12, ""
		for end < len(q) && q[end] != 0 {
			l := int(q[end])
			if end+1+l > len(q) {
				return
			}
			name += strings.ToLower(string(q[end+1:end+1+l])) + "."
			end += 1 + l
		}
		end += 5
		if end > len(q) {
			return
		}
		qtype := binary.BigEndian.Uint16(q[end-4:])
		var rdata []byte
		if a, ok := names[name]; ok {
			switch {
			case qtype == 1 && a.Is4():
				rdata = a.AsSlice()
			case qtype == 28 && a.Is6():
				rdata = a.AsSlice()
			}
		}
		msg := append([]byte{}, q[:end]...)
		msg[2], msg[3] = 0x81, 0x80             // a response, recursion available, no error
		binary.BigEndian.PutUint16(msg[6:], 0)  // answers, set below
		binary.BigEndian.PutUint16(msg[8:], 0)  // authority
		binary.BigEndian.PutUint16(msg[10:], 0) // additional (the query's EDNS0 is dropped)
		if _, ok := names[name]; !ok {
			msg[3] = 0x83 // no such name
		}
		if rdata != nil {
			binary.BigEndian.PutUint16(msg[6:], 1)
			msg = append(msg, 0xc0, 12) // the question's name
			msg = binary.BigEndian.AppendUint16(msg, qtype)
			msg = binary.BigEndian.AppendUint16(msg, 1)  // IN
			msg = binary.BigEndian.AppendUint32(msg, 60) // TTL
			msg = binary.BigEndian.AppendUint16(msg, uint16(len(rdata)))
			msg = append(msg, rdata...)
		}
		out := binary.BigEndian.AppendUint16(nil, uint16(len(msg)))
		if _, err := c.Write(append(out, msg...)); err != nil {
			return
		}
	}
}
