package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"time"

	"github.com/toolsearch/toolsearch/server/web"
)

// healthcheckTimeout bounds the whole check: a container engine runs it
// every few seconds, and a server that does not answer in this time is
// not healthy.
const healthcheckTimeout = 5 * time.Second

// maxReadyzBytes bounds what the check reads of /readyz: a catalog's
// counts and each upstream's state, with a few lines of stderr each.
const maxReadyzBytes = 1 << 20

// runHealthcheck asks a running `serve --http` on this machine whether it
// is ready, for images without curl (scratch, distroless): the container's
// HEALTHCHECK runs it. It exits 0 when /readyz answers ready, 1 otherwise.
func runHealthcheck(ctx context.Context, args []string, out io.Writer) error {
	fs := newFlagSet("healthcheck", os.Stderr)
	addr := fs.String("http", web.DefaultHTTPAddr, "`ADDR` the server listens on, as given to serve --http (a missing or unspecified host means this machine)")
	tokenFile := fs.String("token-file", "", "bearer token `FILE`, as given to serve (or TOOLSEARCH_TOKEN)")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		fmt.Fprintf(os.Stderr, "toolsearch healthcheck takes no arguments, got %q; give the address with --http\n", rest[0])
		return errUsage
	}
	token, err := httpToken(*tokenFile)
	if err != nil {
		return err
	}
	url, err := readyzURL(*addr)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, healthcheckTimeout)
	defer cancel()
	if err := checkReady(ctx, url, token); err != nil {
		return err
	}
	_, err = fmt.Fprintln(out, "ready")
	return err
}

// readyzURL is where a server that listens on addr answers /readyz from
// this machine: a wildcard or missing host (":8080", "0.0.0.0:8080") is
// reached on loopback, which the server's Host check accepts.
func readyzURL(addr string) (string, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "", fmt.Errorf("--http: %v; give HOST:PORT or :PORT, as to serve --http", err)
	}
	if ip := net.ParseIP(host); host == "" || (ip != nil && ip.IsUnspecified()) {
		host = "127.0.0.1"
		if ip != nil && ip.To4() == nil {
			host = "::1"
		}
	}
	return "http://" + net.JoinHostPort(host, port) + "/readyz", nil
}

// checkReady GETs url and wants 200 with {"ready": true}.
func checkReady(ctx context.Context, url, token string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	// Not http.DefaultClient: no proxy from the environment, no redirects.
	client := &http.Client{
		Transport:     &http.Transport{Proxy: nil},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	resp, err := client.Do(req)
	if err != nil {
		return fmt.Errorf("%s: %v; is toolsearch serve --http running on that address?", url, errors.Unwrap(err))
	}
	defer resp.Body.Close()
	switch resp.StatusCode {
	case http.StatusOK:
	case http.StatusUnauthorized:
		return fmt.Errorf("%s: 401: give the server's token with --token-file or TOOLSEARCH_TOKEN", url)
	default:
		return fmt.Errorf("%s: %s", url, resp.Status)
	}
	var body struct {
		Ready *bool `json:"ready"`
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, maxReadyzBytes)).Decode(&body); err != nil || body.Ready == nil {
		return fmt.Errorf("%s: the answer is not toolsearch's readiness report; is another program on that address?", url)
	}
	if !*body.Ready {
		return fmt.Errorf("%s: not ready", url)
	}
	return nil
}
