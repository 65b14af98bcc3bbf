package main

import (
	"io"
	"log/slog"
	"net/http"
	"testing"
)

func TestEarlyListenerAnswersNotReadyThenHandsOver(t *testing.T) {
	e := listenEarly("127.0.0.1:0", slog.New(slog.DiscardHandler))
	if e == nil {
		t.Fatal("listenEarly: nil")
	}
	base := "http://" + e.ln.Addr().String()
	resp, err := http.Get(base + "/readyz")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusServiceUnavailable || string(body) != "{\"ready\":false}\n" {
		t.Errorf("readyz while loading: %d %q", resp.StatusCode, body)
	}
	ln := e.take()
	defer ln.Close()
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "serve") })}
	go srv.Serve(ln)
	defer srv.Close()
	http.DefaultClient.CloseIdleConnections()
	resp, err = http.Get(base + "/readyz")
	if err != nil {
		t.Fatal(err)
	}
	body, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(body) != "serve" {
		t.Errorf("after the hand-over: %d %q, want serve's answer", resp.StatusCode, body)
	}
}
