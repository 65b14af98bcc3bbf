package web

import (
	"crypto/subtle"
	"net/http"
	"strings"
)

func validBearer(r *http.Request, token string) bool {
	got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if !ok {
		// Browsers cannot set headers on EventSource and page loads; the
		// status page passes the token as a query parameter instead.
		got = r.URL.Query().Get("token")
	}
	return got != "" && subtle.ConstantTimeCompare([]byte(got), []byte(token)) == 1
}
