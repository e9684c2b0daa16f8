@coworker
Feature: Session backup and checkpoints
  coworker-v3.md §session_backup_get/checkpoint/restore/delete_checkpoint →
  §session_backup_state {reason: requested | manual_checkpoint | restore |
  delete, backup}; §Backup / Checkpoint Flow. Each scenario has its own
  session, so its checkpoints are its own; but a restore rewrites the
  target's working directory, which every session shares, and deleting a
  checkpoint removes stored data: those scenarios change the target
  (@mutates-target), and restores run alone (@serial) so that no other
  session's work races them.

  Background:
    Given a client connects
    And the client receives "server_hello"
    And I remember its "sessionId" as "sid"

  @id:coworker.backup.get
  @req:coworker.session-backup-state.emitted @req:coworker.session-backup-get.definition @req:coworker.type.session-backup-state @req:coworker.session-backup-state.reasons @req:coworker.flow.backup
  Scenario: session_backup_get is answered with the backup state
    coworker-v3.md §session_backup_get: "Request backup/checkpoint state for
    the active session"; §session_backup_state {reason: "requested"}, the
    backup of this session.

    When the client sends:
      """
      {"type": "session_backup_get", "sessionId": "{sid}"}
      """
    Then the client receives "session_backup_state" with:
      """
      {"reason": "requested"}
      """
    And its "sessionId" is "{sid}"
    And its "backup.sessionId" is "{sid}"
    And its "backup.checkpoints" is an array
    And its "backup.originalSnapshot.kind" is a string

  @id:coworker.backup.checkpoint
  @req:coworker.session-backup-checkpoint.definition @req:coworker.type.session-backup-checkpoint @req:coworker.session-backup-state.emitted @req:coworker.session-backup-state.reasons
  Scenario: session_backup_checkpoint creates a manual checkpoint
    coworker-v3.md §session_backup_checkpoint: "Create a manual checkpoint
    immediately"; §SessionBackupCheckpoint: trigger "manual" for a manual
    request; §session_backup_state reason manual_checkpoint.

    When the client sends:
      """
      {"type": "session_backup_checkpoint", "sessionId": "{sid}"}
      """
    Then the client receives "session_backup_state" with:
      """
      {"reason": "manual_checkpoint"}
      """
    And its "backup.checkpoints" contains {"trigger": "manual"}

  @id:coworker.backup.restore-checkpoint @mutates-target @serial
  @req:coworker.session-backup-restore.definition @req:coworker.session-backup-state.emitted @req:coworker.session-backup-state.reasons @req:coworker.flow.backup
  Scenario: session_backup_restore restores a checkpoint
    coworker-v3.md §session_backup_restore: "Restore the workspace to ... a
    specific checkpoint"; §Backup / Checkpoint Flow: session_backup_state
    {reason: "restore"}.

    When the client sends:
      """
      {"type": "session_backup_checkpoint", "sessionId": "{sid}"}
      """
    And the client receives "session_backup_state" with:
      """
      {"reason": "manual_checkpoint"}
      """
    And I remember its "backup.checkpoints.0.id" as "cp"
    And the client sends:
      """
      {"type": "session_backup_restore", "sessionId": "{sid}", "checkpointId": "{cp}"}
      """
    Then the client receives "session_backup_state" with:
      """
      {"reason": "restore"}
      """
    And its "backup.sessionId" is "{sid}"
    And the effect cannot be observed: coworker-v3.md defines no message that shows the working directory's files, so that they were restored is not seen

  @id:coworker.backup.restore-original @mutates-target @serial
  @req:coworker.session-backup-restore.definition @req:coworker.session-backup-restore.shape @req:coworker.session-backup-state.reasons
  Scenario: session_backup_restore without checkpointId restores the original snapshot
    coworker-v3.md §session_backup_restore: "Restore to original snapshot"
    when no checkpointId is given.

    When the client sends:
      """
      {"type": "session_backup_restore", "sessionId": "{sid}"}
      """
    Then the client receives "session_backup_state" with:
      """
      {"reason": "restore"}
      """
    And the effect cannot be observed: coworker-v3.md defines no message that shows the working directory's files, so that the original snapshot was restored is not seen

  @id:coworker.backup.delete-checkpoint @mutates-target
  @req:coworker.session-backup-delete-checkpoint.definition @req:coworker.session-backup-state.emitted @req:coworker.session-backup-state.reasons
  Scenario: session_backup_delete_checkpoint deletes the checkpoint
    coworker-v3.md §session_backup_delete_checkpoint: "Delete a checkpoint
    (metadata + stored patch)"; §session_backup_state reason delete.

    When the client sends:
      """
      {"type": "session_backup_checkpoint", "sessionId": "{sid}"}
      """
    And the client receives "session_backup_state" with:
      """
      {"reason": "manual_checkpoint"}
      """
    And its "backup.checkpoints" has 1 item
    And I remember its "backup.checkpoints.0.id" as "cp"
    And the client sends:
      """
      {"type": "session_backup_delete_checkpoint", "sessionId": "{sid}", "checkpointId": "{cp}"}
      """
    Then the client receives "session_backup_state" with:
      """
      {"reason": "delete"}
      """
    And its "backup.checkpoints" has 0 items

  @id:coworker.backup.delete-unknown
  @req:coworker.session-backup.unknown-checkpoint @req:coworker.error-reference.backup-error @req:coworker.error-reference.validation-failed
  Scenario: Deleting a checkpoint that does not exist is refused
    coworker-v3.md §session_backup_delete_checkpoint; §Error Reference:
    backup_error (backup operation failure) or validation_failed (invalid
    field). Interpretation: either code is acceptable; nothing is deleted.
    Neither code is only about this (agent-coworker also answers "Session
    backup is unavailable" with backup_error), so the refusal must name the
    checkpoint.

    When the client sends:
      """
      {"type": "session_backup_delete_checkpoint", "sessionId": "{sid}", "checkpointId": "cp-missing-{unique}"}
      """
    Then the client receives "error"
    And its "code" is one of ["backup_error", "validation_failed"]
    And the refusal names one of "cp-missing", "unknown checkpoint", "checkpoint not found", "no such checkpoint", "checkpointId", "checkpoint id"
    And the client receives no "session_backup_state" within 300ms
