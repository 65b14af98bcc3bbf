package main

import (
	"io"
	"strings"
	"testing"

	"github.com/toolsearch/toolsearch/cmd/toolsearch/internal/hosts"
)

// TestClientConfigUnknownHost checks that a host toolsearch does not know
// is answered with the hosts it knows.
func TestClientConfigUnknownHost(t *testing.T) {
	err := runClientConfig(t.Context(), []string{"zed"}, io.Discard)
	if err == nil {
		t.Fatal("client-config zed: no error")
	}
	for _, want := range append([]string{`unknown host "zed"`}, hosts.Names()...) {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("client-config zed: %v; want it to name %s", err, want)
		}
	}
}
