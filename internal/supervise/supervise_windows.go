package supervise

import (
	"errors"
	"fmt"
	"os/exec"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/windows"
)

// sys is what a Supervisor holds on Windows: the command's job object.
type sys struct {
	job windows.Handle // 0 once released
}

// Init needs to start no supervisor on Windows: job objects do its work.
// It lets Enabled report so.
func Init() { enabled.Store(true) }

// terminated is the exit code of processes ended with their job, as
// os.Process.Kill gives.
const terminated = 1

// Wrap changes cmd, which must not have started, so that it runs in a job
// object of its own that ends with it: it starts suspended (Started
// assigns it to the job and lets it run) and in a process group of its
// own, which keeps a console's Ctrl-C meant for this program from
// reaching it. ExtraFiles are not supported. A command whose cmd.Err is
// set is left to fail as it would have. Options.Report changes nothing:
// the command's own exit code is its process's.
func Wrap(cmd *exec.Cmd, opts Options) (*Supervisor, error) {
	s, err := newSupervisor(cmd, opts)
	if err != nil || cmd.Err != nil {
		return s, err
	}
	job, err := newJob()
	if err != nil {
		return nil, fmt.Errorf("supervise: %w", err)
	}
	s.job = job
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.CreationFlags |= windows.CREATE_SUSPENDED | windows.CREATE_NEW_PROCESS_GROUP
	return s, nil
}

// newJob creates a job object whose processes all end when its last handle
// closes. The handle is not inheritable: it stays this program's only.
func newJob() (windows.Handle, error) {
	job, err := windows.CreateJobObject(nil, nil)
	if err != nil {
		return 0, fmt.Errorf("creating a job object: %w", err)
	}
	info := windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION{
		BasicLimitInformation: windows.JOBOBJECT_BASIC_LIMIT_INFORMATION{LimitFlags: windows.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE},
	}
	if _, err := windows.SetInformationJobObject(job, windows.JobObjectExtendedLimitInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info))); err != nil {
		windows.CloseHandle(job)
		return 0, fmt.Errorf("setting up a job object: %w", err)
	}
	return job, nil
}

// Started assigns the started command to its job and lets it run; call it
// once cmd.Start has returned, whether it succeeded or not. If the command
// cannot be put in its job, Started kills it before it has run anything
// and returns why; the caller still waits for it.
func (s *Supervisor) Started() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.job == 0 {
		return nil
	}
	if s.cmd.Process == nil {
		s.release()
		return nil
	}
	err := s.assign()
	if err == nil {
		err = resume(s.pid())
	}
	if err != nil {
		_ = s.cmd.Process.Kill()
		s.release()
		return fmt.Errorf("supervise: %w", err)
	}
	return nil
}

// assign puts the suspended command in the job.
func (s *Supervisor) assign() error {
	var err error
	if herr := s.cmd.Process.WithHandle(func(h uintptr) {
		err = windows.AssignProcessToJobObject(s.job, windows.Handle(h))
	}); herr != nil {
		return herr
	}
	if err != nil {
		return fmt.Errorf("assigning the process to its job object: %w", err)
	}
	return nil
}

// resume lets the threads of the suspended process pid run: a process
// started suspended has one, whose handle os.StartProcess has closed.
func resume(pid int) error {
	snap, err := windows.CreateToolhelp32Snapshot(windows.TH32CS_SNAPTHREAD, 0)
	if err != nil {
		return fmt.Errorf("listing threads: %w", err)
	}
	defer windows.CloseHandle(snap)
	resumed := 0
	e := windows.ThreadEntry32{Size: uint32(unsafe.Sizeof(windows.ThreadEntry32{}))}
	for err = windows.Thread32First(snap, &e); err == nil; err = windows.Thread32Next(snap, &e) {
		if e.OwnerProcessID != uint32(pid) {
			continue
		}
		th, err := windows.OpenThread(windows.THREAD_SUSPEND_RESUME, false, e.ThreadID)
		if err != nil {
			return fmt.Errorf("opening thread %d: %w", e.ThreadID, err)
		}
		_, err = windows.ResumeThread(th)
		windows.CloseHandle(th)
		if err != nil {
			return fmt.Errorf("resuming thread %d: %w", e.ThreadID, err)
		}
		resumed++
	}
	if !errors.Is(err, windows.ERROR_NO_MORE_FILES) {
		return fmt.Errorf("listing threads: %w", err)
	}
	if resumed == 0 {
		return fmt.Errorf("process %d has no thread to resume", pid)
	}
	return nil
}

// Stop ends the running command and everything it started, at once, and
// returns what exited delivers: the result of cmd.Wait, which another
// goroutine runs.
func (s *Supervisor) Stop(exited <-chan error) error {
	s.terminate(0)
	return <-exited
}

// Cleanup ends what the command left running once it has exited by itself
// and been waited for, and returns when that is gone or after the grace.
func (s *Supervisor) Cleanup() { s.terminate(s.grace) }

// Kill ends the command and everything it started, without waiting.
func (s *Supervisor) Kill() { s.terminate(0) }

// terminate ends every process of the job, waits up to wait for them to be
// gone, and releases the job.
func (s *Supervisor) terminate(wait time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.job == 0 {
		return
	}
	_ = windows.TerminateJobObject(s.job, terminated)
	deadline := time.Now().Add(wait)
	for poll := time.Millisecond; activeProcesses(s.job) > 0 && time.Now().Before(deadline); poll = min(2*poll, 100*time.Millisecond) {
		time.Sleep(min(poll, time.Until(deadline)))
	}
	s.release()
}

// release closes the job's handle, which ends whatever is still in it.
// The caller holds s.mu.
func (s *Supervisor) release() {
	windows.CloseHandle(s.job)
	s.job = 0
}

// basicAccounting is JOBOBJECT_BASIC_ACCOUNTING_INFORMATION, which
// golang.org/x/sys/windows does not define.
type basicAccounting struct {
	TotalUserTime, TotalKernelTime                       int64
	ThisPeriodTotalUserTime, ThisPeriodTotalKernelTime   int64
	TotalPageFaultCount, TotalProcesses, ActiveProcesses uint32
	TotalTerminatedProcesses                             uint32
}

// activeProcesses counts the processes still in job; 0 if it cannot tell.
func activeProcesses(job windows.Handle) uint32 {
	var info basicAccounting
	if err := windows.QueryInformationJobObject(job, windows.JobObjectBasicAccountingInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info)), nil); err != nil {
		return 0
	}
	return info.ActiveProcesses
}

// Result has no report to read on Windows: the command's exit code is its
// own process's (ok is false).
func (s *Supervisor) Result() (ws syscall.WaitStatus, startErr error, ok bool) {
	return ws, nil, false
}
