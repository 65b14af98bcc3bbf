// Package runner runs the scripts that come with skills, out of process,
// so that only what a script prints to stdout enters the model's context.
//
// A [Runner] is made once from [Options] and serves every
// run_skill_script call:
//
//	r := runner.New(runner.Options{Logger: logger})
//	res, err := r.Run(ctx, runner.Request{
//		Skill:    "pdf",
//		SkillDir: "/home/me/.skills/pdf",
//		Script:   "scripts/extract.py",
//		Args:     []string{"report.pdf"},
//	})
//	if err != nil {
//		return err // refused: nothing ran; the message says why
//	}
//	show(res.Text(), res.Failed())
//
// # What runs
//
// The script must be a regular file inside the skill folder once symbolic
// links are followed: absolute paths, "..", and links leading out are
// refused. It runs through the interpreter on its #! line ("env NAME" is
// looked up in PATH), else through the one its extension implies (.py
// python3, .sh bash, .js and .mjs node, .rb ruby, .pl perl), else directly
// if it is executable. Arguments reach it exactly as given: no shell is
// involved.
//
// # Where and with what
//
// Scripts run in the user's project: Request.WorkDir when the caller knows
// it (the MCP client's roots), else Options.WorkDir, by default the
// server's working directory, where the host started it. They find their own folder in
// $SKILL_DIR and their skill's name in $SKILL_NAME. Their environment holds
// only PATH, HOME, LANG, LC_*, TMPDIR, TZ and the names in
// Options.EnvAllow, so that credentials meant for other servers never
// reach them. Stdin is empty unless given, and at most [MaxStdin] bytes.
//
// # What comes back
//
// Stdout is read as it comes and cut at Options.OutputLimit (32 KiB by
// default) with a note of how much was left out; a script printing
// gigabytes runs to its end and costs no more memory than the limit. The
// last Options.StderrTail bytes of stderr (4 KiB) are returned only when the
// script fails, to explain it, and are always logged.
//
// # Limits
//
// A script runs for at most its request's timeout (60 s by default), never
// longer than Options.MaxTimeout (10 min by default). At most
// Options.Concurrency scripts run at once (the number of CPUs by default);
// further requests wait their turn, or until their ctx ends.
//
// # Nothing outlives a script
//
// When time runs out or ctx is cancelled, the script and every process it
// started get SIGTERM, then SIGKILL 2 s later; processes it leaves behind
// when it exits are stopped the same way. On Linux, in a program that
// calls supervise.Init first in main (toolsearch does), the script runs
// under a supervisor that adopts every orphaned descendant as a child
// subreaper: a daemon that left the script's process group and session
// with setsid is stopped too, and everything ends even if the server is
// killed. Elsewhere the script's process group is stopped, which a process
// that leaves the group escapes.
//
// # Shutting down
//
// [Runner.Shutdown] refuses new runs and waits for the running ones; when
// its ctx ends, it stops them as a timeout would and waits for that. A
// server gives it its own grace period (toolsearch: 10 s).
//
// The package needs a Unix system; on Linux it reads /proc to tell live
// processes from zombies.
package runner
