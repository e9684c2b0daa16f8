package runner

import "strings"

// mentions says whether the text of v (every string and number in it, at
// any depth, as refusalText reads a refusal) names want, compared as a
// refusal's words are: case, spaces, "_" and "-" ignored. An effect whose
// carrier the spec leaves unshaped is still observable by its words:
// myagent's solver.completed is {task, result} and the result's members
// are each server's own, but the scripted agent's reply "You answered:
// yes" is in it wherever the server puts it (issue 24: a server that
// answered "You answered: None" passed a question scenario).
func mentions(v any, want string) bool {
	sw := squash(want)
	return sw != "" && strings.Contains(squash(refusalText(v)), sw)
}
