package coworker

import (
	"fmt"
	"slices"
)

// Session backup and checkpoints (§session_backup_*, §session_backup_state,
// §Backup / Checkpoint Flow, §Important Behaviors: automatic checkpoints).
// No file is touched: checkpoints are records with deterministic sizes.

// maxCheckpoints bounds a session's checkpoints; past it the oldest is
// compacted away, so memory does not grow with the session's length.
const maxCheckpoints = 64

type checkpoint struct {
	ID         string `json:"id"`
	Index      int    `json:"index"`
	CreatedAt  string `json:"createdAt"`
	Trigger    string `json:"trigger"`
	Changed    bool   `json:"changed"`
	PatchBytes int    `json:"patchBytes"`
}

type backupState struct {
	checkpoints []checkpoint
	made        int // checkpoints ever made: the next index is made+1
}

type snapshot struct {
	Kind string `json:"kind"`
}

type backupPublic struct {
	Status           string       `json:"status"`
	SessionID        string       `json:"sessionId"`
	WorkingDirectory string       `json:"workingDirectory"`
	BackupDirectory  *string      `json:"backupDirectory"`
	CreatedAt        string       `json:"createdAt"`
	OriginalSnapshot snapshot     `json:"originalSnapshot"`
	Checkpoints      []checkpoint `json:"checkpoints"`
}

type backupStateEvent struct {
	head
	Reason string       `json:"reason"`
	Backup backupPublic `json:"backup"`
}

// checkpoint records a checkpoint; the caller holds the lock. A workspace
// counts as changed once a turn completed (the scripted agent "works" in
// every turn), and the patch grows with the turns.
func (s *session) checkpoint(trigger string) {
	b := &s.backup
	b.made++
	cp := checkpoint{
		ID: fmt.Sprintf("cp-%04d", b.made), Index: b.made, CreatedAt: s.env.Stamp(),
		Trigger: trigger, Changed: s.completed > 0, PatchBytes: 512 * s.completed,
	}
	if len(b.checkpoints) >= maxCheckpoints {
		b.checkpoints = slices.Delete(b.checkpoints, 0, 1)
	}
	b.checkpoints = append(b.checkpoints, cp)
}

func (s *session) emitBackup(reason string) {
	dir := homeDir + "/.cowork/session-backups/" + s.id
	s.emit(backupStateEvent{head: s.h("session_backup_state"), Reason: reason, Backup: backupPublic{
		Status: "ready", SessionID: s.id, WorkingDirectory: s.cfg.WorkingDirectory, BackupDirectory: &dir,
		CreatedAt: s.created, OriginalSnapshot: snapshot{Kind: "directory"},
		Checkpoints: append([]checkpoint{}, s.backup.checkpoints...),
	}})
}

func (s *session) findCheckpoint(id string) int {
	return slices.IndexFunc(s.backup.checkpoints, func(c checkpoint) bool { return c.ID == id })
}

func (s *session) backupGet(p *payload) func() {
	return func() { s.emitBackup("requested") }
}

func (s *session) backupCheckpoint(p *payload) func() {
	return func() {
		s.checkpoint("manual")
		s.emitBackup("manual_checkpoint")
	}
}

// backupRestore restores the original snapshot, or a checkpoint when one
// is named; restoring an unknown checkpoint is a backup_error, the failure
// of the backup manager's restore.
func (s *session) backupRestore(p *payload) func() {
	id, named := p.optStr("checkpointId")
	if named && id == "" {
		p.fail("checkpointId", "must not be empty when present")
	}
	return func() {
		if named && s.findCheckpoint(id) < 0 {
			s.fail(codeBackupError, srcBackup, fmt.Sprintf("restore failed: unknown checkpoint id %q", clip(id)))
			return
		}
		s.emitBackup("restore")
	}
}

// backupDeleteCheckpoint deletes a checkpoint; an unknown id fails
// validation (source backup), as the reference implementation does.
func (s *session) backupDeleteCheckpoint(p *payload) func() {
	id := p.name("checkpointId")
	return func() {
		i := s.findCheckpoint(id)
		if i < 0 {
			s.fail(codeValidationFailed, srcBackup, fmt.Sprintf("Unknown checkpoint id: %s", clip(id)))
			return
		}
		s.backup.checkpoints = slices.Delete(s.backup.checkpoints, i, i+1)
		s.emitBackup("delete")
	}
}
