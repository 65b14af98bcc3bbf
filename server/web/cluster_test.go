package web

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/toolsearch/toolsearch/server"
)

// statusJSON fetches /status.json from h as the operator.
func statusJSON(t *testing.T, h http.Handler) Status {
	t.Helper()
	r := httptest.NewRequest(http.MethodGet, "/status.json", nil)
	r.Host = "127.0.0.1:7777"
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	var st Status
	if err := json.Unmarshal(w.Body.Bytes(), &st); err != nil {
		t.Fatalf("/status.json: %d %s", w.Code, w.Body)
	}
	return st
}

func TestStatusShowsTheReplicasAndFlagsAnotherConfiguration(t *testing.T) {
	s, _ := server.New(testCatalog(t), server.Options{})
	defer s.Close()
	var readErr error
	replicas := []ReplicaStatus{
		{ID: "a", Address: "http://10.0.0.1:7777", ConfigDigest: "d1", Upstreams: map[string]string{"weather": "active"}, Self: true},
		{ID: "b", Address: "http://10.0.0.2:7777", ConfigDigest: "d1", Upstreams: map[string]string{"weather": "failed"}},
		{ID: "c", Address: "http://10.0.0.3:7777", ConfigDigest: "d0", Upstreams: map[string]string{"weather": "active"}},
	}
	h := NewHandler(s, Options{Cluster: func() ([]ReplicaStatus, error) { return replicas, readErr }})
	defer h.Close()
	st := statusJSON(t, h)
	if st.Cluster == nil || len(st.Cluster.Replicas) != 3 {
		t.Fatalf("cluster = %+v", st.Cluster)
	}
	for _, r := range st.Cluster.Replicas {
		if want := r.ID == "c"; r.Disagrees != want {
			t.Errorf("replica %s: disagrees = %v, want %v", r.ID, r.Disagrees, want)
		}
	}
	if got := st.Cluster.Replicas[1].Upstreams["weather"]; got != "failed" {
		t.Errorf("b's weather is %q, want its own state, failed", got)
	}
	readErr = errors.New("the shared state (PostgreSQL) cannot be reached")
	if st := statusJSON(t, h); !strings.Contains(st.Cluster.Error, "cannot be reached") || len(st.Cluster.Replicas) != 3 {
		t.Errorf("with the database down: %+v", st.Cluster)
	}
	// With a state of files there is no cluster: the page shows no
	// replicas.
	alone := NewHandler(s, Options{})
	defer alone.Close()
	if st := statusJSON(t, alone); st.Cluster != nil {
		t.Errorf("alone, cluster = %+v", st.Cluster)
	}
}
