//go:build unix

package upstream

import (
	"errors"
	"testing"

	"github.com/toolsearch/toolsearch/internal/atomicfile"
	"github.com/toolsearch/toolsearch/internal/atomicfile/atomicfiletest"
)

func TestConfigAndCacheRefuseSpecialFiles(t *testing.T) {
	for name, file := range atomicfiletest.SpecialFiles(t) {
		t.Run(name, func(t *testing.T) {
			var nr *atomicfile.NotRegularError
			if _, _, err := LoadConfig(file); !errors.As(err, &nr) {
				t.Errorf("LoadConfig: %v, want a *NotRegularError", err)
			}
			if _, err := loadCache(file, "s"); !errors.As(err, &nr) {
				t.Errorf("loadCache: %v, want a *NotRegularError", err)
			}
		})
	}
}
