package web

import (
	"crypto/rand"
	"encoding/hex"
	"sync"
	"time"
)

// Approving a definition the scanner flagged takes two steps, and the
// server, not only the page, holds to them: the first request gets the
// findings and the diff back with a confirmation, the second brings that
// confirmation and the definition's name as the person typed it. A single
// click (on a framed page, should a browser ignore frame-ancestors) or a
// request replayed from a log cannot supply either: the confirmation is
// random, bound to the name and the whole digest, used once, and soon
// stale.
const (
	// confirmTTL is how long a confirmation stays good: time to read a
	// diff, not to leave the page open overnight.
	confirmTTL = 10 * time.Minute
	// maxConfirmations bounds those outstanding: each first step makes
	// one, and a script could ask for many.
	maxConfirmations = 64
)

// confirmations are the outstanding second steps.
type confirmations struct {
	mu      sync.Mutex
	byToken map[string]confirmation
}

// confirmation is what a confirmation token approves, until when.
type confirmation struct {
	name, digest string
	expires      time.Time
}

// issue returns a new confirmation for the definition name with digest.
func (c *confirmations) issue(name, digest string) string {
	var b [16]byte
	rand.Read(b[:]) // never fails (crypto/rand)
	token := hex.EncodeToString(b[:])
	now := time.Now()
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.byToken == nil {
		c.byToken = map[string]confirmation{}
	}
	c.dropStale(now)
	if len(c.byToken) >= maxConfirmations {
		c.dropSoonest()
	}
	c.byToken[token] = confirmation{name: name, digest: digest, expires: now.Add(confirmTTL)}
	return token
}

// redeem reports whether token confirms the definition name with digest,
// and uses it up: a token confirms once, even when it does not match.
func (c *confirmations) redeem(token, name, digest string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	got, ok := c.byToken[token]
	delete(c.byToken, token)
	return ok && got.name == name && got.digest == digest && time.Now().Before(got.expires)
}

func (c *confirmations) dropStale(now time.Time) {
	for token, cf := range c.byToken {
		if !now.Before(cf.expires) {
			delete(c.byToken, token)
		}
	}
}

// dropSoonest drops the confirmation that would expire first: the oldest.
func (c *confirmations) dropSoonest() {
	var oldest string
	for token, cf := range c.byToken {
		if oldest == "" || cf.expires.Before(c.byToken[oldest].expires) {
			oldest = token
		}
	}
	delete(c.byToken, oldest)
}
