//go:build linux

package supervise

import (
	"net"
	"os"
	"syscall"
	"testing"
)

func TestStatusError(t *testing.T) {
	tests := []struct {
		ws   syscall.WaitStatus
		want string // "" for nil
	}{
		{0, ""},
		{3 << 8, "exit status 3"},
		{syscall.WaitStatus(syscall.SIGKILL), "signal: killed"},
		{syscall.WaitStatus(syscall.SIGSEGV) | 0x80, "signal: segmentation fault (core dumped)"},
	}
	for _, tt := range tests {
		err := statusError(tt.ws)
		if got := ""; err != nil {
			got = err.Error()
			if got != tt.want {
				t.Errorf("statusError(%#x) = %q, want %q", uint32(tt.ws), got, tt.want)
			}
		} else if tt.want != "" {
			t.Errorf("statusError(%#x) = nil, want %q", uint32(tt.ws), tt.want)
		}
	}
}

// socketPair returns both ends of a Unix stream socket pair as UnixConns.
func socketPair(t *testing.T) (a, b *net.UnixConn) {
	t.Helper()
	fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	conn := func(fd int) *net.UnixConn {
		f := os.NewFile(uintptr(fd), "socket")
		defer f.Close()
		c, err := net.FileConn(f)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		return c.(*net.UnixConn)
	}
	return conn(fds[0]), conn(fds[1])
}

// The hub's reader hands on requests with the descriptors they carry, and
// stops at the first that makes no sense: a start without its
// descriptors, a line that is not JSON, one longer than maxMessage.
func TestReadRequests(t *testing.T) {
	devnull, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer devnull.Close()
	null := int(devnull.Fd())
	tests := []struct {
		name   string
		send   func(c *net.UnixConn)
		wantOK []string // ops handed on before the end
	}{
		{"a start with its descriptors, then a kill", func(c *net.UnixConn) {
			s := &sender{conn: c}
			s.send(message{Op: "start", ID: 1, Path: "/bin/true", Argv: []string{"true"}}, null, null, null)
			s.send(message{Op: "kill", ID: 1, Pid: 5})
		}, []string{"start", "kill"}},
		{"a start without descriptors", func(c *net.UnixConn) {
			(&sender{conn: c}).send(message{Op: "start", ID: 1, Path: "/bin/true", Argv: []string{"true"}})
			(&sender{conn: c}).send(message{Op: "kill", ID: 1, Pid: 5})
		}, nil},
		{"not JSON", func(c *net.UnixConn) {
			c.Write([]byte("{\n"))
			(&sender{conn: c}).send(message{Op: "kill", ID: 1, Pid: 5})
		}, nil},
		{"too long", func(c *net.UnixConn) {
			c.Write(make([]byte, maxMessage+1))
			(&sender{conn: c}).send(message{Op: "kill", ID: 1, Pid: 5})
		}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			prog, hub := socketPair(t)
			reqs := make(chan request)
			go readRequests(hub, reqs)
			go func() {
				tt.send(prog)
				prog.Close()
			}()
			var got []string
			for r := range reqs {
				got = append(got, r.Op)
				if r.Op == "start" && len(r.files) != startFDs {
					t.Errorf("a start came with %d descriptors", len(r.files))
				}
				closeAll(r.files)
			}
			if len(got) != len(tt.wantOK) || (len(got) > 0 && got[0] != tt.wantOK[0]) {
				t.Errorf("handed on %v, want %v", got, tt.wantOK)
			}
		})
	}
}

// A program killed with the hub's reports unread resets the socket, and
// recvmsg fails with ECONNRESET and -1 bytes: the reader ends as at a close
// rather than taking the -1 as a length (the hub panicked, and left the
// killed program's servers running).
func TestReadRequestsEndsAtAReset(t *testing.T) {
	prog, hub := socketPair(t)
	if _, err := hub.Write([]byte("{\"op\":\"exit\"}\n")); err != nil {
		t.Fatal(err)
	}
	(&sender{conn: prog}).send(message{Op: "kill", ID: 1, Pid: 5})
	prog.Close() // with the hub's line unread: a reset, not an end of file
	reqs := make(chan request)
	go readRequests(hub, reqs)
	var got []string
	for r := range reqs {
		got = append(got, r.Op)
	}
	if len(got) != 1 || got[0] != "kill" {
		t.Errorf("handed on %v, want [kill]", got)
	}
}
