//go:build unix

package reports_test

import (
	"os/exec"
	"syscall"
)

// killGroup makes a timeout kill Chromium with all its helper processes.
func killGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
}
