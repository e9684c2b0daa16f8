package perf

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"
)

// tcpRelayEnv, in the environment of a process that imports perf, makes
// it a bare TCP relay to the address it names instead of what it was
// built for (see init). Relay starts the tcp-relay subject so, from its
// own executable, when wsproxy runs as a process of its own: both relays
// then cross the same process boundary, and neither shares the client's
// and upstream's Go runtime.
const tcpRelayEnv = "WSCONFORM_PERF_TCP_RELAY"

func init() {
	if addr := os.Getenv(tcpRelayEnv); addr != "" {
		if err := serveTCPRelay(addr, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, "tcp relay:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
}

// serveTCPRelay listens on a free loopback port, prints it on out and
// relays every connection to addr until stdin closes (its parent is gone
// or stops it).
func serveTCPRelay(addr string, out io.Writer) error {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	fmt.Fprintln(out, ln.Addr().String())
	go func() {
		_, _ = io.Copy(io.Discard, os.Stdin)
		os.Exit(0)
	}()
	for {
		a, err := ln.Accept()
		if err != nil {
			return err
		}
		go relayTCP(a, addr, nil)
	}
}

// relayTCP relays a to a new connection to addr with io.Copy both ways;
// track, when set, is told of each connection opened and closed.
func relayTCP(a net.Conn, addr string, track func(net.Conn, bool)) {
	b, err := net.Dial("tcp", addr)
	if err != nil {
		a.Close()
		return
	}
	if track != nil {
		track(a, true)
		track(b, true)
	}
	var wg sync.WaitGroup
	wg.Add(2)
	pipe := func(dst, src net.Conn) {
		defer wg.Done()
		_, _ = io.Copy(dst, src)
		dst.Close()
		src.Close()
	}
	go pipe(a, b)
	go pipe(b, a)
	wg.Wait()
	if track != nil {
		track(a, false)
		track(b, false)
	}
}

// startTCPRelayProcess runs this executable as a tcp relay to addr.
func startTCPRelayProcess(addr string) (*subject, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("tcp relay: %w", err)
	}
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), tcpRelayEnv+"="+addr)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	stderr := &tail{max: 4 << 10}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start tcp relay: %w", err)
	}
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		stdin.Close()
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		return nil, fmt.Errorf("tcp relay did not start: %v: %s", err, stderr)
	}
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	return &subject{name: TCPRelay, url: "ws://" + strings.TrimSpace(line), pid: cmd.Process.Pid, stop: func() (proxyResult, error) {
		stdin.Close()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
		return proxyResult{}, nil
	}}, nil
}
