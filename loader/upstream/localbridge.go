package upstream

import (
	"encoding/json"

	"github.com/toolsearch/toolsearch/loader/problem"
)

// localBridge reads an entry's "bridge": true, by which the operator says
// that the entry's URL serves `toolsearch bridge` in front of a program
// they run (a stdio server moved out of a team's replicas), so that its
// quarantine default is a stdio server's, not a remote one's. Only the
// entry says so: nothing a server sends (its name, its instructions, a
// header) can, or any remote server could claim to be local.
func (d *entryDecoder) localBridge(cfg *ServerConfig) {
	raw, ok := d.fields["bridge"]
	if !ok || jsonKind(raw) == "null" {
		return
	}
	key := d.key + ".bridge"
	var on bool
	if err := json.Unmarshal(raw, &on); err != nil {
		d.errorf(key, "want true or false, got %s", jsonKind(raw))
		return
	}
	if !on {
		return
	}
	if cfg.Type == TypeStdio {
		d.report(key, problem.SeverityWarning, `ignored: "bridge": true marks an http entry that reaches a toolsearch bridge; a stdio entry is a local program already`)
		return
	}
	cfg.LocalBridge = true
	d.report(d.key, problem.SeverityHint, `a toolsearch bridge of a local program ("bridge": true): its first listing is trusted as a stdio server's is, unless its settings name a quarantine mode`)
}
