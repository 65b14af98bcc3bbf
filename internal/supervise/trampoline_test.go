//go:build linux

package supervise

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Modes of the test binary for TestExecKeepsDeathSignal, set up in init:
// the checks must run on the main thread, where Go runs init.
const (
	execOffMainEnv   = "SUPERVISE_TEST_EXEC_OFF_MAIN" // become the reporter from a thread other than the main one
	reportDeathEnv   = "SUPERVISE_TEST_REPORT_DEATH"  // print the parent-death signal and exit
	offMainExecError = 3
)

func init() {
	switch {
	case os.Getenv(reportDeathEnv) != "":
		// After execve the only thread is the one that called it.
		var sig int32
		if err := unix.Prctl(unix.PR_GET_PDEATHSIG, uintptr(unsafe.Pointer(&sig)), 0, 0, 0); err != nil {
			fmt.Println("error", err)
		}
		fmt.Println(sig)
		os.Exit(0)
	case os.Getenv(execOffMainEnv) != "":
		// main keeps the main thread, so the goroutine below runs on
		// another: as the trampoline may, once Go has moved it.
		runtime.LockOSThread()
		env := append(os.Environ(), reportDeathEnv+"=1")
		go func() {
			err := execWithDeathSignal(os.Args[0], os.Args[:1], env, syscall.SIGKILL, os.Getppid())
			fmt.Fprintln(os.Stderr, err)
			os.Exit(offMainExecError)
		}()
		select {}
	}
}

// The parent-death signal is kept per thread, and execve keeps only the
// calling thread's: a trampoline that Go has moved off the thread the hub
// started became a command that outlived a killed hub.
func TestExecKeepsDeathSignal(t *testing.T) {
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), execOffMainEnv+"=1")
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if got, want := strings.TrimSpace(string(out)), fmt.Sprint(int(syscall.SIGKILL)); got != want {
		t.Errorf("the command's parent-death signal = %s, want %s", got, want)
	}
}

// A hub that died before the command could start leaves the trampoline
// another parent: it must not become a command nobody stops.
func TestExecRefusesAnOrphan(t *testing.T) {
	errc := make(chan error)
	go func() { // the call keeps its thread locked; the thread ends with the goroutine
		errc <- execWithDeathSignal("/bin/true", []string{"true"}, nil, syscall.SIGKILL, os.Getppid()+1)
	}()
	if err := <-errc; err == nil || !strings.Contains(err.Error(), "supervisor ended") {
		t.Errorf("exec under another parent = %v, want a refusal", err)
	}
}
