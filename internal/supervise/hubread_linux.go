package supervise

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"syscall"
)

// readRequests reads the program's messages and the descriptors they
// carry, until the socket closes or the stream makes no sense; then it
// closes reqs.
func readRequests(conn *net.UnixConn, reqs chan<- request) {
	defer close(reqs)
	var (
		pending []byte
		fds     []*os.File
		buf     = make([]byte, 64<<10)
		oob     = make([]byte, syscall.CmsgSpace(16*4))
	)
	defer func() { closeAll(fds) }()
	for {
		n, oobn, flags, _, err := conn.ReadMsgUnix(buf, oob)
		// A failed recvmsg reports -1 bytes: the program was killed with
		// the hub's reports unread, and the socket was reset.
		n, oobn = max(n, 0), max(oobn, 0)
		if oobn > 0 {
			got, perr := parseRights(oob[:oobn])
			fds = append(fds, got...)
			if perr != nil || flags&syscall.MSG_CTRUNC != 0 {
				fmt.Fprintln(os.Stderr, "toolsearch supervisor: descriptors lost on the control socket")
				return
			}
		}
		pending = append(pending, buf[:n]...)
		for {
			line, rest, found := bytes.Cut(pending, []byte{'\n'})
			if !found {
				break
			}
			var m message
			if err := json.Unmarshal(line, &m); err != nil {
				fmt.Fprintln(os.Stderr, "toolsearch supervisor: bad request:", err)
				return
			}
			r := request{message: m}
			if m.Op == "start" {
				if len(fds) < startFDs {
					fmt.Fprintln(os.Stderr, "toolsearch supervisor: a start came without its descriptors")
					return
				}
				r.files, fds = fds[:startFDs:startFDs], fds[startFDs:]
			}
			reqs <- r
			pending = append(pending[:0], rest...)
		}
		if len(pending) > maxMessage {
			fmt.Fprintln(os.Stderr, "toolsearch supervisor: a request longer than", maxMessage, "bytes")
			return
		}
		if err != nil {
			return
		}
	}
}

// parseRights returns the descriptors of SCM_RIGHTS messages in oob, kept
// from the commands the hub starts but those it hands them to.
func parseRights(oob []byte) ([]*os.File, error) {
	msgs, err := syscall.ParseSocketControlMessage(oob)
	if err != nil {
		return nil, err
	}
	var out []*os.File
	for _, m := range msgs {
		fds, err := syscall.ParseUnixRights(&m)
		if err != nil {
			continue
		}
		for _, fd := range fds {
			syscall.CloseOnExec(fd)
			out = append(out, os.NewFile(uintptr(fd), "passed"))
		}
	}
	return out, nil
}

func closeAll(files []*os.File) {
	for _, f := range files {
		f.Close()
	}
}
