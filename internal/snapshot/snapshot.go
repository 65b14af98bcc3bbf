// Package snapshot keeps what toolsearch and its example servers show a
// client (each tool, prompt and resource) as a reviewed file, and fails a
// test when it changes: a changed schema or description changes what every
// model reads and what hosts cache, and should be seen in review as a diff
// of its own.
//
// A snapshot is the value as indented JSON, in testdata/snapshots/NAME.snap
// of the package under test. Struct fields and raw JSON keep their order,
// so that a change of key order, which changes token counts, shows too.
//
//	func TestToolSnapshots(t *testing.T) {
//		snapshot.Check(t, "tools/get_weather", tool)
//	}
//
// When a change is intended, rewrite the files and review the diff:
//
//	UPDATE_SNAPSHOTS=1 go test ./...
//
// It lives at the top of the module, not under the packages that use it,
// because Go lets only packages below internal's parent import it, and its
// users are spread over server/, examples/ and cmd/.
package snapshot

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/pmezard/go-difflib/difflib"
)

// UpdateEnv names the environment variable that, set to 1, makes Check
// write snapshots instead of comparing them.
const UpdateEnv = "UPDATE_SNAPSHOTS"

// Dir is where snapshots go, relative to the package under test.
const Dir = "testdata/snapshots"

// Check compares v, as indented JSON, with the snapshot named name (a
// slash-separated path below Dir, without the .snap). On a mismatch it
// fails t with a unified diff; a missing snapshot fails too, so that CI
// never passes on one nobody committed. With UPDATE_SNAPSHOTS=1 it writes
// the snapshot instead.
func Check(t testing.TB, name string, v any) {
	t.Helper()
	got, err := render(v)
	if err != nil {
		t.Fatalf("snapshot %s: %v", name, err)
	}
	path := filepath.Join(Dir, filepath.FromSlash(name)+".snap")
	if os.Getenv(UpdateEnv) == "1" {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		t.Fatalf("no snapshot %s: write it with %s=1 go test, review it, and commit it", path, UpdateEnv)
	}
	if err != nil {
		t.Fatal(err)
	}
	if d := Diff(string(want), string(got), path); d != "" {
		t.Errorf("%s differs from its snapshot (if the change is intended, run %s=1 go test and review the diff):\n%s", name, UpdateEnv, d)
	}
}

// render is v as the snapshot holds it: indented JSON, HTML characters
// left as they are, and a final newline.
func render(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Diff returns a unified diff from want to got, with three lines of
// context, or "" when they are equal. name labels the file.
func Diff(want, got, name string) string {
	if want == got {
		return ""
	}
	d, err := difflib.GetUnifiedDiffString(difflib.UnifiedDiff{
		A:        difflib.SplitLines(want),
		B:        difflib.SplitLines(got),
		FromFile: name,
		ToFile:   "got",
		Context:  3,
	})
	if err != nil {
		return err.Error()
	}
	return d
}
