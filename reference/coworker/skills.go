package coworker

import (
	"fmt"
	"strings"
)

// Skills (§list_skills, §read_skill, §disable_skill, §enable_skill,
// §delete_skill). The catalog is copied into each session, so one client
// disabling or deleting a skill does not change another's view: the
// reference server touches no disk, and sessions stay independent and
// deterministic.

// skill is a catalog skill with the session's state.
type skill struct {
	skillInfo
	enabled bool
	deleted bool
}

func newSkills() []skill {
	out := make([]skill, len(skillCatalog))
	for i, info := range skillCatalog {
		out[i] = skill{skillInfo: info, enabled: info.Enabled}
	}
	return out
}

type skillEntry struct {
	Name        string          `json:"name"`
	Path        string          `json:"path"`
	Source      string          `json:"source"`
	Enabled     bool            `json:"enabled"`
	Triggers    []string        `json:"triggers"`
	Description string          `json:"description"`
	Interface   *skillInterface `json:"interface,omitempty"`
}

type skillsListEvent struct {
	head
	Skills []skillEntry `json:"skills"`
}

type skillContentEvent struct {
	head
	Skill   skillEntry `json:"skill"`
	Content string     `json:"content"`
}

// path is where the skill's SKILL.md lives: global skills move between
// ~/.cowork/skills and ~/.cowork/disabled-skills.
func (sk *skill) path() string {
	switch sk.Source {
	case "project":
		return projectDir + "/.agent/skills/" + sk.Name + "/SKILL.md"
	case "user":
		return homeDir + "/.agent/skills/" + sk.Name + "/SKILL.md"
	case "built-in":
		return "/opt/cowork/skills/" + sk.Name + "/SKILL.md"
	}
	if !sk.enabled {
		return homeDir + "/.cowork/disabled-skills/" + sk.Name + "/SKILL.md"
	}
	return homeDir + "/.cowork/skills/" + sk.Name + "/SKILL.md"
}

func (sk *skill) entry() skillEntry {
	return skillEntry{Name: sk.Name, Path: sk.path(), Source: sk.Source, Enabled: sk.enabled,
		Triggers: sk.Triggers, Description: sk.Description, Interface: sk.Interface}
}

func (s *session) emitSkills() {
	ev := skillsListEvent{head: s.h("skills_list"), Skills: []skillEntry{}}
	for i := range s.skills {
		if !s.skills[i].deleted {
			ev.Skills = append(ev.Skills, s.skills[i].entry())
		}
	}
	s.emit(ev)
}

func (s *session) listSkills(p *payload) func() {
	return func() { s.emitSkills() }
}

// findSkill resolves a skillName: a name that would leave the skills
// directory is refused by the path guard (permission_denied), an unknown
// one fails validation. nil after an error was sent.
func (s *session) findSkill(name string) *skill {
	if strings.ContainsAny(name, `/\`) || strings.Contains(name, "..") {
		s.fail(codePermissionDenied, srcPermissions, fmt.Sprintf("Skill name %q is outside the skills directory", clip(name)))
		return nil
	}
	for i := range s.skills {
		if s.skills[i].Name == name && !s.skills[i].deleted {
			return &s.skills[i]
		}
	}
	s.fail(codeValidationFailed, srcSession, fmt.Sprintf("Unknown skill %q: send list_skills for the discovered skills", clip(name)))
	return nil
}

// globalSkill is findSkill for the operations that move or delete a skill
// directory, which only global skills (~/.cowork/skills) allow.
func (s *session) globalSkill(name, op string) *skill {
	sk := s.findSkill(name)
	if sk != nil && sk.Source != "global" {
		s.fail(codePermissionDenied, srcPermissions, fmt.Sprintf("Cannot %s skill %q: only global skills (~/.cowork/skills) can be, this one is %s", op, name, sk.Source))
		return nil
	}
	return sk
}

func (s *session) readSkill(p *payload) func() {
	name := p.name("skillName")
	return func() {
		if sk := s.findSkill(name); sk != nil {
			s.emit(skillContentEvent{head: s.h("skill_content"), Skill: sk.entry(), Content: sk.Content})
		}
	}
}

// disableSkill, enableSkill and deleteSkill answer with the updated
// skills_list (the spec names no dedicated answer). Disabling a disabled
// skill, or enabling an enabled one, changes nothing and is answered alike.
func (s *session) disableSkill(p *payload) func() {
	name := p.name("skillName")
	return func() {
		if sk := s.globalSkill(name, "disable"); sk != nil {
			sk.enabled = false
			s.emitSkills()
		}
	}
}

func (s *session) enableSkill(p *payload) func() {
	name := p.name("skillName")
	return func() {
		if sk := s.globalSkill(name, "enable"); sk != nil {
			sk.enabled = true
			s.emitSkills()
		}
	}
}

func (s *session) deleteSkill(p *payload) func() {
	name := p.name("skillName")
	return func() {
		if sk := s.globalSkill(name, "delete"); sk != nil {
			sk.deleted = true
			s.emitSkills()
		}
	}
}
