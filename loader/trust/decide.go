package trust

// Why a definition is held, as operators and the model read it.
const (
	ReasonFlagged    = "flagged by the scanner"
	ReasonChanged    = "changed since it was approved"
	ReasonNew        = "new since the server's first listing"
	ReasonUnapproved = "not approved yet: every definition of this server waits for a person (quarantine: all, the default for remote servers: HTTP, SSE, and stdio bridges to them)"
	ReasonUnreadable = "the approvals file cannot be read"
)

// A Verdict is what Decide found for one definition.
type Verdict struct {
	Held   bool
	Reason string // why it is held
	// Trust, when set, says that the definition is trusted by the mode
	// rather than by an approval, and names the reason to record it under
	// (ByFirstListing, ByNewTool) once the listing is real.
	Trust string
}

// Decide says whether an entry's definition (its digest) waits for
// approval, under the source's mode: see the package documentation.
// flagged says whether the scanner found anything in it.
//
// A flagged definition waits until a person approves it: what a listing
// trusted on its own (ByFirstListing, ByNewTool) does not count, since the
// scanner may learn of a problem later (another server's tool it shadows,
// a new rule).
func (s *Store) Decide(mode Mode, key, entry, digest string, flagged bool) Verdict {
	if flagged {
		if s.anyApproval(key, entry, digest, func(a Approval) bool { return a.Digest == digest && byPerson(a) }) {
			return Verdict{}
		}
		return Verdict{Held: true, Reason: ReasonFlagged}
	}
	if s.Approved(key, entry, digest) {
		return Verdict{}
	}
	if mode == ModeOff {
		return Verdict{}
	}
	if s.Err() != nil {
		return Verdict{Held: true, Reason: ReasonUnreadable}
	}
	known := s.Known(key)
	approvedBefore := s.anyApproval(key, entry, digest, func(Approval) bool { return true })
	switch {
	case approvedBefore:
		return Verdict{Held: true, Reason: ReasonChanged}
	case mode == ModeAll:
		return Verdict{Held: true, Reason: ReasonUnapproved}
	case !known:
		return Verdict{Trust: ByFirstListing}
	case mode == ModeChanged:
		return Verdict{Trust: ByNewTool}
	}
	return Verdict{Held: true, Reason: ReasonNew}
}
