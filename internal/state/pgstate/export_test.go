package pgstate

import (
	"context"
	"testing"
)

// RawGrantsForTest returns every grant row's stored bytes, as text.
func RawGrantsForTest(t *testing.T, db *DB) string {
	var out string
	rows, err := db.pool.Query(context.Background(), "SELECT sealed FROM toolsearch_grants")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var b []byte
		rows.Scan(&b)
		out += string(b)
	}
	return out
}
