package snapshot

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fakeT records what Check reports; its Fatal stops Check with a panic
// that check recovers.
type fakeT struct {
	testing.TB
	failed bool
	msg    string
}

func (f *fakeT) Helper() {}
func (f *fakeT) Errorf(format string, args ...any) {
	f.failed = true
	f.msg = fmt.Sprintf(format, args...)
}
func (f *fakeT) Fatalf(format string, args ...any) {
	f.Errorf(format, args...)
	panic(f)
}
func (f *fakeT) Fatal(args ...any) { f.Fatalf("%v", args...) }

func check(name string, v any) (f *fakeT) {
	f = &fakeT{}
	defer func() {
		if r := recover(); r != nil && r != f {
			panic(r)
		}
	}()
	Check(f, name, v)
	return f
}

func TestCheck(t *testing.T) {
	t.Chdir(t.TempDir())
	tool := map[string]any{"name": "get_weather", "description": "Weather <now> & later.", "lines": []string{"a", "b", "c", "d", "e", "f", "g", "h"}}

	if f := check("tools/get_weather", tool); !f.failed || !strings.Contains(f.msg, "UPDATE_SNAPSHOTS=1") {
		t.Errorf("a missing snapshot: failed %v, %q", f.failed, f.msg)
	}
	t.Setenv(UpdateEnv, "1")
	if f := check("tools/get_weather", tool); f.failed {
		t.Fatalf("writing: %s", f.msg)
	}
	data, err := os.ReadFile(filepath.Join(Dir, "tools", "get_weather.snap"))
	if err != nil || !strings.Contains(string(data), `"Weather <now> & later."`) || !strings.HasSuffix(string(data), "}\n") {
		t.Fatalf("snapshot written: %q, %v", data, err)
	}
	t.Setenv(UpdateEnv, "")
	if f := check("tools/get_weather", tool); f.failed {
		t.Errorf("the same value: %s", f.msg)
	}
	tool["lines"] = []string{"a", "b", "c", "d", "E", "f", "g", "h"}
	f := check("tools/get_weather", tool)
	if !f.failed {
		t.Fatal("a changed value passed")
	}
	// A diff of the changed line with its context, not the whole file.
	for _, want := range []string{"--- testdata/snapshots/tools/get_weather.snap", "+++ got", `-    "e",`, `+    "E",`} {
		if !strings.Contains(f.msg, want) {
			t.Errorf("the report lacks %q:\n%s", want, f.msg)
		}
	}
	if strings.Contains(f.msg, `"name"`) {
		t.Errorf("the report shows lines far from the change:\n%s", f.msg)
	}
}
