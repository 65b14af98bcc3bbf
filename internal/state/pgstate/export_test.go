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

// ChangeWithoutNotifyForTest records an approval as another writer would,
// bumping the sequence number but sending no NOTIFY: a lost notification.
func ChangeWithoutNotifyForTest(t *testing.T, db *DB, key, entries string) {
	ctx := context.Background()
	if _, err := db.pool.Exec(ctx, "INSERT INTO toolsearch_approvals (key, name, entries) VALUES ($1, $1, $2)", key, entries); err != nil {
		t.Fatal(err)
	}
	if _, err := db.pool.Exec(ctx, "UPDATE toolsearch_sequence SET seq = seq + 1 WHERE name = 'approvals'"); err != nil {
		t.Fatal(err)
	}
}
