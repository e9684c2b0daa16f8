@coworker
Feature: Skills
  coworker-v3.md §list_skills → skills_list, §read_skill → skill_content,
  §disable_skill, §enable_skill, §delete_skill: global skills move between
  ~/.cowork/skills and ~/.cowork/disabled-skills, or are deleted. The spec
  names no answer for disable/enable/delete; these scenarios read the
  result back with list_skills. Scenarios tagged @reference-fixture use the
  reference server's demo skills (pdf: project; xlsx: global; docx: global,
  disabled), which another server does not have; enable, disable and delete
  change ~/.cowork outside the session (@mutates-target).

  Background:
    Given a client connects
    And the client receives "server_hello"
    And I remember its "sessionId" as "sid"

  @id:coworker.skills.list
  @req:coworker.skills-list.response @req:coworker.list-skills.definition @req:coworker.skills-list.shape
  Scenario: list_skills is answered with skills_list
    coworker-v3.md §list_skills: "Request the list of discovered skills";
    §skills_list: each skill has name, path, source, enabled, triggers and
    description.

    When the client sends:
      """
      {"type": "list_skills", "sessionId": "{sid}"}
      """
    Then the client receives "skills_list"
    And its "sessionId" is "{sid}"
    And its "skills" is an array
    And its "skills.0.name" is a string
    And its "skills.0.source" is one of ["project", "global", "user", "built-in"]
    And its "skills.0.enabled" is a boolean

  @id:coworker.skills.read
  @req:coworker.skill-content.response @req:coworker.read-skill.definition @req:coworker.skill-content.shape
  Scenario: read_skill is answered with skill_content
    coworker-v3.md §read_skill: "Read the contents of a single skill's
    SKILL.md"; §skill_content: the skill's metadata and its content. The skill
    read is the first one list_skills names.

    When the client sends:
      """
      {"type": "list_skills", "sessionId": "{sid}"}
      """
    And the client receives "skills_list"
    And I remember its "skills.0.name" as "skill"
    And the client sends:
      """
      {"type": "read_skill", "sessionId": "{sid}", "skillName": "{skill}"}
      """
    Then the client receives "skill_content"
    And its "skill.name" is "{skill}"
    And its "content" is a string

  @id:coworker.skills.front-matter-stripped @reference-fixture
  @req:coworker.skill-content.front-matter @req:coworker.skill-content.response
  Scenario: skill_content is the SKILL.md without its front matter
    coworker-v3.md §skill_content: "SKILL.md content with any leading YAML
    front matter stripped (so it renders cleanly in UIs)".

    When the client sends:
      """
      {"type": "read_skill", "sessionId": "{sid}", "skillName": "pdf"}
      """
    Then the client receives "skill_content"
    And its "content" contains "# PDF Skill"
    And its "skill.source" is "project"

  @id:coworker.skills.disable @reference-fixture @mutates-target
  @req:coworker.disable-skill.definition @req:coworker.list-skills.disabled-marked @req:coworker.skills-list.response
  Scenario: disable_skill disables a global skill
    coworker-v3.md §disable_skill: "Disable a global skill"; §list_skills:
    disabled global skills are "marked with enabled: false".

    When the client sends:
      """
      {"type": "disable_skill", "sessionId": "{sid}", "skillName": "xlsx"}
      """
    And the client sends:
      """
      {"type": "ping", "sessionId": "{sid}"}
      """
    And the client receives "pong"
    And the client sends:
      """
      {"type": "list_skills", "sessionId": "{sid}"}
      """
    Then the client receives "skills_list"
    And its "skills" contains {"name": "xlsx", "enabled": false}
    And the client has received no "error"

  @id:coworker.skills.enable @reference-fixture @mutates-target
  @req:coworker.enable-skill.definition @req:coworker.list-skills.disabled-marked @req:coworker.skills-list.response
  Scenario: enable_skill enables a disabled global skill
    coworker-v3.md §enable_skill: "Enable a global skill by moving it from
    ~/.cowork/disabled-skills/<name> back to ~/.cowork/skills/<name>".

    When the client sends:
      """
      {"type": "enable_skill", "sessionId": "{sid}", "skillName": "docx"}
      """
    And the client sends:
      """
      {"type": "ping", "sessionId": "{sid}"}
      """
    And the client receives "pong"
    And the client sends:
      """
      {"type": "list_skills", "sessionId": "{sid}"}
      """
    Then the client receives "skills_list"
    And its "skills" contains {"name": "docx", "enabled": true}
    And the client has received no "error"

  @id:coworker.skills.delete @reference-fixture @mutates-target
  @req:coworker.delete-skill.definition @req:coworker.skills-list.response
  Scenario: delete_skill removes a global skill
    coworker-v3.md §delete_skill: "Delete a global skill directory
    permanently"; it is no longer discovered.

    When the client sends:
      """
      {"type": "list_skills", "sessionId": "{sid}"}
      """
    And the client receives "skills_list"
    And its "skills" has 4 items
    And the client sends:
      """
      {"type": "delete_skill", "sessionId": "{sid}", "skillName": "xlsx"}
      """
    And the client sends:
      """
      {"type": "ping", "sessionId": "{sid}"}
      """
    And the client receives "pong"
    And the client sends:
      """
      {"type": "list_skills", "sessionId": "{sid}"}
      """
    Then the client receives "skills_list"
    And its "skills" has 3 items
    And the client has received no "error"

  @id:coworker.skills.read-unknown
  @req:coworker.read-skill.unknown @req:coworker.error-reference.validation-failed
  Scenario: read_skill of an unknown skill is refused
    coworker-v3.md §read_skill: reads "a single skill". Interpretation: a
    name that is no discovered skill is validation_failed, and the refusal
    names the skill (validation_failed is the code of every invalid field).

    When the client sends:
      """
      {"type": "read_skill", "sessionId": "{sid}", "skillName": "no-such-skill-{unique}"}
      """
    Then the client receives "error"
    And its "code" is "validation_failed"
    And the refusal names one of "no-such-skill", "unknown skill", "skill not found", "no such skill"
    And the client receives no "skill_content" within 300ms

  @id:coworker.skills.non-global-refused @reference-fixture @mutates-target
  @req:coworker.disable-skill.non-global @req:coworker.error-reference.permission-denied @req:coworker.error-reference.source-permissions
  Scenario: Only global skills can be disabled
    coworker-v3.md §disable_skill: "Disable a global skill by moving it from
    ~/.cowork/skills/<name>". Interpretation: disabling a project skill (the
    reference's demo skill pdf) is a policy refusal, permission_denied from
    the permissions source, which says why: the skill is not global.

    When the client sends:
      """
      {"type": "disable_skill", "sessionId": "{sid}", "skillName": "pdf"}
      """
    Then the client receives "error"
    And its "code" is "permission_denied"
    And its "source" is "permissions"
    And the refusal names one of "global", "project"
