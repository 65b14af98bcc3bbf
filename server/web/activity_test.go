package web

import (
	"bytes"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/toolsearch/toolsearch/server"
)

// syncBuffer is a bytes.Buffer that the server and the test may share.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestSessionIDsStayOut: an HTTP session id lets whoever holds it act in
// the session, so the status page, the trace and the log show a short
// hash of it instead, the same one in each.
func TestSessionIDsStayOut(t *testing.T) {
	var trace, log syncBuffer
	s, _ := server.New(testCatalog(t), server.Options{
		Activity: server.NewActivity(10, &trace, false),
		Logger:   slog.New(slog.NewTextHandler(&log, nil)),
	})
	defer s.Close()
	url, _ := startHTTP(t, s, Options{})
	cs := httpClient(t, url, "", "2025-11-25")
	id := cs.ID()
	if id == "" {
		t.Fatal("the HTTP session has no id")
	}
	callText(t, cs, server.ToolSearch, map[string]any{"query": "echo"})
	cs.Close()
	tag := server.SessionTag(id)
	waitFor(t, "the session summary", func() bool { return strings.Contains(log.String(), "session summary") })

	resp, err := http.Get(url + "/status.json")
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	var st Status
	if err := json.Unmarshal(page, &st); err != nil {
		t.Fatal(err)
	}
	for name, out := range map[string]string{"status.json": string(page), "trace": trace.String(), "log": log.String()} {
		if strings.Contains(out, id) {
			t.Errorf("%s holds the session id %s:\n%s", name, id, out)
		}
		if !strings.Contains(out, tag) {
			t.Errorf("%s lacks the session's tag %s:\n%s", name, tag, out)
		}
	}
	if len(st.Activity) == 0 || st.Activity[0].Session != tag {
		t.Errorf("activity %+v, want the session tagged %s", st.Activity, tag)
	}
}
