package pgtest

import (
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"strconv"
	"syscall"
)

// owner is who postgres runs as: itself refuses root, so the postgres
// user then; nil is the tests' own user.
type owner struct{ cred *syscall.Credential }

func runAs() (*owner, error) {
	if os.Geteuid() != 0 {
		return &owner{}, nil
	}
	u, err := user.Lookup("postgres")
	if err != nil {
		return nil, fmt.Errorf("running as root, and no postgres user to run the server as: %w", err)
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	return &owner{&syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}}, nil
}

// own gives the folder to the user postgres runs as.
func (o *owner) own(dir string) error {
	if o.cred == nil {
		return nil
	}
	return os.Chown(dir, int(o.cred.Uid), int(o.cred.Gid))
}

// apply runs cmd as o, killed should the tests die first.
func (o *owner) apply(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: o.cred, Pdeathsig: syscall.SIGKILL}
}

// interrupt asks postgres for a fast shutdown.
func interrupt(p *os.Process) { p.Signal(syscall.SIGINT) }
