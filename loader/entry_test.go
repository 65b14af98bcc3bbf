package loader

import "testing"

func TestPolicyStricterThan(t *testing.T) {
	order := []Policy{PolicyCallable, PolicyVisibleOnly, PolicyHidden}
	for i, p := range order {
		for j, q := range order {
			if got := p.StricterThan(q); got != (i > j) {
				t.Errorf("%s.StricterThan(%s) = %v", p, q, got)
			}
		}
	}
	if Policy("").StricterThan(PolicyCallable) || PolicyCallable.StricterThan("") {
		t.Error(`"" is not callable`)
	}
}
