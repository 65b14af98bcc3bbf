package devsplit

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestDir(t *testing.T) {
	t.Setenv(EnvVar, "")
	wd, _ := os.Getwd()
	root := filepath.Dir(filepath.Dir(wd)) // internal/devsplit
	if got, want := Dir(), filepath.Join(filepath.Dir(root), "shared", "eval", "dev"); got != want {
		t.Errorf("Dir() = %s, want %s (beside the repository)", got, want)
	}
	t.Setenv(EnvVar, "/elsewhere/dev")
	if Dir() != "/elsewhere/dev" || !strings.Contains(Missing(), "/elsewhere/dev") || !strings.Contains(Missing(), EnvVar) {
		t.Errorf("Dir() = %s, Missing() = %s", Dir(), Missing())
	}
}
