package coworker

import (
	"fmt"
	"strings"
)

// Tool and command metadata and execute_command (§list_tools, §list_commands,
// §execute_command, §Command Execution).

type toolsEvent struct {
	head
	Tools []string `json:"tools"`
}

type commandInfo struct {
	Name        string   `json:"name"`
	Description string   `json:"description,omitempty"`
	Source      string   `json:"source"`
	Hints       []string `json:"hints"`
}

type commandsEvent struct {
	head
	Commands []commandInfo `json:"commands"`
}

// listTools answers the built-in tools, plus the MCP tools while MCP is
// enabled for the session.
func (s *session) listTools(p *payload) func() {
	return func() {
		tools := append([]string(nil), baseTools...)
		if s.enableMcp {
			tools = append(tools, mcpTools...)
		}
		s.emit(toolsEvent{head: s.h("tools"), Tools: tools})
	}
}

// commands are the session's slash commands: built-ins, MCP prompts while
// MCP is enabled, and enabled skills ("Includes built-ins, config-defined
// templates, and enabled skills").
func (s *session) commands() []command {
	out := append([]command(nil), builtinCommands...)
	if s.enableMcp {
		out = append(out, mcpCommands...)
	}
	for _, sk := range s.skills {
		if sk.enabled && !sk.deleted {
			out = append(out, command{Name: sk.Name, Description: sk.Description, Source: "skill",
				Hints: []string{"$ARGUMENTS"}, Template: "Use the " + sk.Name + " skill: $ARGUMENTS"})
		}
	}
	return out
}

func (s *session) listCommands(p *payload) func() {
	return func() {
		ev := commandsEvent{head: s.h("commands"), Commands: []commandInfo{}}
		for _, c := range s.commands() {
			ev.Commands = append(ev.Commands, commandInfo{Name: c.Name, Description: c.Description, Source: c.Source, Hints: c.Hints})
		}
		s.emit(ev)
	}
}

// executeCommand expands the command's template and runs a normal agent
// turn with it; the echo is the command line, "/review HEAD~2..HEAD" as
// §Command Execution shows. An unknown name fails validation.
func (s *session) executeCommand(p *payload) func() {
	name := p.name("name")
	args, _ := p.optStr("arguments")
	cmid, _ := p.optStr("clientMessageId")
	return func() {
		var cmd *command
		for _, c := range s.commands() {
			if c.Name == name {
				cmd = &c
				break
			}
		}
		if cmd == nil {
			s.fail(codeValidationFailed, srcSession, fmt.Sprintf("Unknown command %q: send list_commands for this session's commands", clip(name)))
			return
		}
		line := "/" + name
		if args != "" {
			line += " " + args
		}
		echo := userMessageEcho{head: s.h("user_message"), Text: line, ClientMessageID: cmid}
		s.startTurn(echo, expand(cmd.Template, args))
	}
}

// expand fills a command template: $ARGUMENTS is the whole argument
// string, $1…$9 its whitespace-separated words (missing ones are empty).
func expand(template, args string) string {
	fields := strings.Fields(args)
	out := template
	for i := 9; i >= 1; i-- {
		v := ""
		if i <= len(fields) {
			v = fields[i-1]
		}
		out = strings.ReplaceAll(out, fmt.Sprintf("$%d", i), v)
	}
	return strings.TrimSpace(strings.ReplaceAll(out, "$ARGUMENTS", args))
}
