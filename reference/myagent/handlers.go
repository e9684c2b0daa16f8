package myagent

import (
	"strings"
)

// session returns the session a message acts on: the connection's, or the
// one its session_id names (the connection then joins it).
func (k *conn) session(m *message) (*session, *protoError) {
	if k.sess != nil {
		if m.SessionID != "" && m.SessionID != k.sess.id {
			return nil, mismatch(m.SessionID, k.sess.id)
		}
		return k.sess, nil
	}
	if m.SessionID == "" {
		return nil, invalid(codeNoSession, "%s needs a session: send user.create_session or name a session_id", m.Event).
			with("field", "session_id")
	}
	return k.join(m.SessionID)
}

// join attaches the connection to the existing session id.
func (k *conn) join(id string) (*session, *protoError) {
	sess, ok := k.srv.acquire(id)
	if !ok {
		return nil, invalid(codeSessionNotFound, "no session %q", id).with("session_id", id)
	}
	sess.join(k)
	k.setSession(sess)
	return sess, nil
}

func mismatch(named, own string) *protoError {
	return invalid(codeSessionMismatch, "this connection belongs to session %q, not %q; open another connection for another session", own, named).
		with("session_id", named).with("connection_session_id", own)
}

// createSession answers user.create_session with agent.session_created, the
// first event (seq 1) of a new session (§Session Lifecycle).
func (k *conn) createSession() *protoError {
	if k.sess != nil {
		return invalid(codeInSession, "this connection already belongs to session %q; open another connection for a new session", k.sess.id).
			with("session_id", k.sess.id)
	}
	sess := k.srv.create()
	k.setSession(sess)
	sess.mu.Lock()
	defer sess.mu.Unlock()
	sess.joinLocked(k)
	sess.emitLocked(&event{Event: evSessionCreated, Content: "session created",
		Metadata: map[string]any{"session_id": sess.id, "config": map[string]any{
			"replay_window":          k.env.ReplayWindow,
			"heartbeat_seconds":      k.env.Heartbeat.Seconds(),
			"prompt_timeout_seconds": k.env.PromptTimeout.Seconds(),
			"max_frame_bytes":        k.env.MaxFrame,
		}}})
	return nil
}

// reconnect handles user.reconnect (join, then agent.state_restored) and
// user.reconnect_with_state (join after replaying the buffered events
// after last_seq, §Event Flow Architecture / 3).
func (k *conn) reconnect(m *message) *protoError {
	id := m.SessionID
	if id == "" && k.sess != nil {
		id = k.sess.id
	}
	switch {
	case id == "":
		return missing(m.Event, "session_id")
	case k.sess != nil && id != k.sess.id:
		return mismatch(id, k.sess.id)
	}
	last, hasLast, perr := m.lastSeq()
	if perr != nil {
		return perr
	}
	sess, fresh := k.sess, false
	if sess == nil {
		var ok bool
		if sess, ok = k.srv.acquire(id); !ok {
			return &protoError{kind: evRecoveryFailed, code: codeSessionNotFound,
				msg:  "session " + id + " is unknown or expired; create a new session",
				meta: map[string]any{"session_id": id, "recovery_action": inCreateSession}}
		}
		fresh = true
	}
	if m.Event == inReconnect {
		k.setSession(sess)
		sess.restore(k)
		return nil
	}
	perr = sess.resume(k, last, hasLast)
	if perr != nil && perr.code == codeSeqAhead {
		// The client's cursor is past anything the session sent: every
		// event it would get next is one it claims to have. It leaves the
		// session (or never joins) and must start over.
		if !fresh {
			sess.leave(k)
			k.setSession(nil)
		}
		k.srv.release(sess)
		return perr
	}
	k.setSession(sess)
	return perr
}

// start handles user.message (the whole pipeline) and user.solve_tasks
// (the solve stage on the given tasks). Without a session the connection
// gets a new one first, announced by agent.session_created.
func (k *conn) start(m *message) *protoError {
	var (
		kind, text = kindMessage, ""
		tasks      []*task
		perr       *protoError
	)
	if m.Event == inMessage {
		if text, perr = m.text(); perr != nil {
			return perr
		}
		tasks = planTasks(text)
	} else {
		if tasks, perr = coerceTasks(m); perr != nil {
			return perr
		}
		kind = kindSolve
		titles := make([]string, 0, len(tasks))
		for _, t := range tasks {
			titles = append(titles, t.Title)
		}
		text = "solve: " + strings.Join(titles, "; ")
	}
	sess := k.sess
	switch {
	case sess != nil:
		if m.SessionID != "" && m.SessionID != sess.id {
			return mismatch(m.SessionID, sess.id)
		}
	case m.SessionID != "":
		if sess, perr = k.join(m.SessionID); perr != nil {
			return perr
		}
	default:
		if perr = k.createSession(); perr != nil {
			return perr
		}
		sess = k.sess
	}
	return sess.begin(kind, text, tasks)
}

// respond checks a user.response and hands it to its step.
func (k *conn) respond(sess *session, m *message) *protoError {
	if _, ok := m.doc["step_id"]; !ok {
		return missing(m.Event, "step_id")
	}
	v, present := m.doc["content"]
	content, ok := v.(map[string]any)
	switch {
	case !present:
		return missing(m.Event, "content")
	case !ok:
		return mistyped(m.Event, "content", "an object")
	}
	return sess.respond(m.StepID, content)
}

// begin starts a run unless one is active.
func (s *session) begin(kind, text string, tasks []*task) *protoError {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.run != nil {
		return invalid(codeRunInProgress, "a pipeline is already running in this session; wait for it or send user.cancel").
			with("status", s.statusLocked())
	}
	s.tasks = tasks
	s.noteLocked("user", text)
	s.startLocked(kind, text, tasks)
	return nil
}

// cancelRun handles user.cancel: the run stops at its next step and
// answers with the stage's cancellation events (run.finish).
func (s *session) cancelRun() *protoError {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.run
	if r == nil || r.stopped {
		return invalid(codeNoActiveRun, "no pipeline is running in this session")
	}
	r.stopped = true
	r.cancel()
	return nil
}

// cancelTask handles user.cancel_task: a running task stops with
// solver.cancelled, a pending one is cancelled when the run reaches it.
func (s *session) cancelTask(ref any) *protoError {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.run == nil || s.run.stopped {
		return invalid(codeNoActiveRun, "no pipeline is running in this session")
	}
	t := findTask(s.run.tasks, ref)
	switch {
	case t == nil:
		return invalid(codeUnknownTask, "the running pipeline has no task %v", ref).with("task_ids", taskIDs(s.run.tasks))
	case t.stopped || (t.status != taskPending && t.status != taskRunning):
		return invalid(codeTaskState, "task %d is %s and cannot be cancelled", t.ID, t.status).
			with("task_id", t.ID).with("task_status", t.status)
	}
	t.stopped = true
	if t.cancel != nil {
		t.cancel()
	}
	return nil
}

// restartTask handles user.restart_task: a failed (or cancelled, or
// skipped) task of the latest run runs again, announced by
// solver.restarted, through aggregation to agent.final_answer.
func (s *session) restartTask(ref any) *protoError {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.run != nil {
		return invalid(codeRunInProgress, "a pipeline is running; restart a task after it ended").with("status", s.statusLocked())
	}
	t := findTask(s.tasks, ref)
	switch {
	case t == nil:
		return invalid(codeUnknownTask, "the latest pipeline has no task %v", ref).with("task_ids", taskIDs(s.tasks))
	case t.status == taskCompleted:
		return invalid(codeTaskState, "task %d completed and cannot be restarted", t.ID).
			with("task_id", t.ID).with("task_status", t.status)
	}
	t.status, t.stopped, t.reply = taskPending, false, ""
	t.retries++
	s.noteLocked("user", "restart task "+itoa(int64(t.ID)))
	s.startLocked(kindRestart, t.text, []*task{t})
	return nil
}
