package web

import (
	"fmt"
	"net"
	"strings"
)

// CheckBind refuses to serve a non-loopback address without a token: an
// MCP gateway reachable from the network would hand its tools to anyone.
func CheckBind(addr, token string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("--http %q: %v", addr, err)
	}
	if isLoopbackHost(host) || token != "" {
		return nil
	}
	return fmt.Errorf("--http %s listens beyond this machine: set a bearer token with --token-file or TOOLSEARCH_TOKEN, or bind 127.0.0.1", addr)
}

func isLoopbackHost(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(strings.Trim(host, "[]"))
	return ip != nil && ip.IsLoopback()
}
