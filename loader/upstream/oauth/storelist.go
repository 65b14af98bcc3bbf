package oauth

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"

	"github.com/toolsearch/toolsearch/internal/atomicfile"
)

var _ GrantLister = (*Store)(nil)

// PrincipalGrants implements GrantLister over the files: each file of the
// server's (its name begins with the server's) that names a principal and
// lies where that principal's key puts it. A grant written before files
// named their principal is not listed until it is stored again (its next
// refresh, or a new login); one that names a principal but does not decode
// is listed with Err.
func (s *Store) PrincipalGrants(ctx context.Context, server, resource string) ([]StoredGrant, error) {
	entries, err := os.ReadDir(s.dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, &fileReadError{err}
	}
	prefix := atomicfile.NamePart(server) + "-"
	var out []StoredGrant
	for _, e := range entries {
		name := e.Name()
		if !e.Type().IsRegular() || !strings.HasPrefix(name, prefix) || !strings.HasSuffix(name, ".json") {
			continue
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		file := filepath.Join(s.dir, name)
		k, ok := s.keyOf(file, server, resource)
		if !ok {
			continue
		}
		g, stamp, err := s.LoadGrant(ctx, k)
		switch {
		case errors.Is(err, ErrUnavailable):
			return nil, err
		case err != nil:
			out = append(out, StoredGrant{Key: k, Stamp: stamp, Err: err})
		case g == nil:
			out = append(out, StoredGrant{Key: k, Stamp: stamp, Err: errOtherVersion})
		default:
			out = append(out, StoredGrant{Key: k, Grant: g, Stamp: stamp})
		}
	}
	return out, nil
}

// errOtherVersion is a grant stored in a form this version does not read.
var errOtherVersion = errors.New("the login was stored by another version of toolsearch: log in again")

// keyOf reads whose grant of server at resource a file holds: the
// principal it names, when the file is where that principal's key puts it
// (not the shared login's, nor another server's that shares the prefix).
func (s *Store) keyOf(file, server, resource string) (GrantKey, bool) {
	data, err := atomicfile.ReadFile(file, atomicfile.MaxConfig)
	if err != nil {
		return GrantKey{}, false
	}
	var head struct{ Principal, Server, Resource string }
	if json.Unmarshal(data, &head) != nil || head.Principal == "" || head.Server != server || head.Resource != resource {
		return GrantKey{}, false
	}
	k := GrantKey{Principal: head.Principal, Server: server, Resource: resource}
	return k, s.path(k) == file
}
