// Package redact keeps credentials out of the artifacts wsconform writes
// (recordings, HTML, JSON, Markdown and JUnit reports) while keeping their
// shape visible, so that a reader still sees that a token was there, and
// how long it was.
//
// What counts as a credential is a name (names.go): query parameters such
// as token, access_token, host_token, api_key, key, password, secret, auth;
// headers such as Authorization, Proxy-Authorization, Cookie, Set-Cookie and
// X-Api-Key; JSON members such as apiKey, api_key, password, token,
// access_token, refresh_token, secret, client_secret. Names are compared
// case-insensitively, word by word (snake_case, kebab-case and camelCase
// split alike), and a name whose last word is token, secret, password,
// credential(s), cookie or signature counts too (host_token, clientSecret),
// as does one ending in key (x_api_key, privateKey) unless it is a known
// identifier (tool_key, idempotency_key, Sec-WebSocket-Key). Plurals are
// counts, not credentials: inputTokens and max_tokens stay.
//
// How a redacted value looks:
//
//   - a JSON string becomes "«redacted: 32 chars»" (the length in
//     characters), or, when that marker would be longer than the original,
//     a same-length mask "*****"; an empty string stays empty;
//   - a JSON number becomes the smallest number with the same layout:
//     4711 → 1000, 0.25 → 0.00, -12.5e3 → -10.0e0 (still a number, same
//     length, never larger than the original);
//   - booleans and null stay (they carry one bit, not a credential);
//   - an object or array under a credential name keeps its member names
//     and structure, with every string and number in it redacted;
//   - a query value (and the password of a URL's user info) becomes
//     redacted(32), which needs no escaping in a URL;
//   - a header value becomes «redacted: 32 chars», keeping an
//     Authorization scheme ("Bearer «redacted: 40 chars»") and cookie names
//     and attributes ("sid=«redacted: 16 chars»; Path=/; HttpOnly").
//
// Redacted JSON stays valid JSON when it was, and is never longer than
// the original: every replacement is at most as long as what it replaces.
// Member names, layout, member order and duplicates are kept byte for
// byte, so a redacted frame is judged offline like the original (its
// message type and ordering members are never credential names). A value
// that is already a marker is left as it is, so redacting twice changes
// nothing.
//
// Redaction belongs where artifacts are written, never before judging: the
// check engine sees the real frames, and what it found is redacted on the
// way out (a finding's Expected and Actual included; Scrubber replaces the
// secret values a report's frames and URLs revealed wherever else they
// are quoted).
//
// Limits: a secret inside a string that itself holds JSON (a tool's
// args_json) or inside a binary frame is not found; a secret shorter than
// MinLiteral characters is only redacted where it is named, not wherever
// it is quoted.
package redact
