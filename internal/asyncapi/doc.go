// Package asyncapi turns a dialect into an AsyncAPI 3.0 document and an
// AsyncAPI 3.0 document into a dialect. AsyncAPI describes the shapes and
// directions of messages, request/reply pairs and their correlation ids;
// what it has no place for (which member orders events and per what, how a
// client resumes, what a replay must equal, how connections tie into a
// session, the evidence and words behind each requirement) travels in the
// x-wsconform extension, whose JSON Schema is xwsconform.schema.json. An
// imported document is laid out as schemas/<d>/ is and registered with the
// dialect registry, so validate, wsproxy, replay and gate judge it with the
// same check engine as the built-in dialects.
//
// The document describes the server: a "receive" operation is a message
// the server receives (client→server), a "send" operation one it sends.
// x-wsconform.perspective "client" flips that for a document written from
// the client's side.
package asyncapi
