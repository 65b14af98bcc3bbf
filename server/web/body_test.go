package web

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/toolsearch/toolsearch/server"
)

// TestOversizedBodyRefusedEverywhere: a Content-Length over the limit is
// refused before the body is read, on any endpoint.
func TestOversizedBodyRefusedEverywhere(t *testing.T) {
	s, _ := server.New(testCatalog(t), server.Options{})
	defer s.Close()
	url, _ := startHTTP(t, s, Options{MaxBodyBytes: 1 << 10})
	for _, path := range []string{"/mcp", "/", "/search"} {
		req, _ := http.NewRequest(http.MethodPost, url+path, strings.NewReader(strings.Repeat("x", 2<<10)))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusRequestEntityTooLarge {
			t.Errorf("POST %s with 2 KiB: status %d, want 413", path, resp.StatusCode)
		}
	}
}

// TestSlowBodyTimesOut sends a request with a valid token whose body never
// finishes arriving: the server gives up on it instead of holding the
// connection for ever.
func TestSlowBodyTimesOut(t *testing.T) {
	s, _ := server.New(testCatalog(t), server.Options{})
	defer s.Close()
	url, _ := startHTTP(t, s, Options{Token: "secret", BodyTimeout: 200 * time.Millisecond})
	conn, err := net.Dial("tcp", strings.TrimPrefix(url, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer secret\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 1000\r\n\r\n{\"jsonrpc\":")
	// Far beyond the body timeout: only a server that never gives up
	// reaches it.
	conn.SetReadDeadline(time.Now().Add(20 * time.Second))
	_, err = io.ReadAll(conn)
	if ne, ok := err.(net.Error); ok && ne.Timeout() {
		t.Fatal("the server still waits for a body that stopped arriving")
	}
}

// TestBodyTimeoutSparesLongRequests: the body timeout covers the body
// only. An event stream and a call that run well past it are not cut.
func TestBodyTimeoutSparesLongRequests(t *testing.T) {
	const bodyTimeout = 100 * time.Millisecond
	up := &blockingUpstreams{started: make(chan struct{}, 1), release: make(chan struct{})}
	activity := server.NewActivity(10, nil, false)
	s, _ := server.New(testCatalog(t), server.Options{Upstreams: up, Activity: activity})
	defer s.Close()
	url, _ := startHTTP(t, s, Options{Token: "secret", BodyTimeout: bodyTimeout})

	req, _ := http.NewRequest(http.MethodGet, url+"/events?token=secret", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	events := bufio.NewReader(resp.Body)

	// On protocol 2026-07-28 a call runs in its HTTP request: a request cut
	// short cancels the call.
	cs := httpClient(t, url, "secret", "2026-07-28")
	result := callEchoInBackground(cs)
	<-up.started
	time.Sleep(5 * bodyTimeout)
	close(up.release)
	if got := <-result; got != "finished" {
		t.Errorf("a call longer than the body timeout = %q, want it to finish", got)
	}
	// The call was recorded: the stream, open for longer than the body
	// timeout too, still tells the page.
	for {
		line, err := events.ReadString('\n')
		if err != nil {
			t.Fatalf("event stream ended: %v", err)
		}
		if strings.HasPrefix(line, "event: update") {
			break
		}
	}
}
