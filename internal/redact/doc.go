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
// What counts as a credential is also a shape (shapes.go): tokens
// recognised by how they look, wherever they are quoted — in any string
// of a frame, in text frames that are not JSON, in close reasons and
// error texts, in URLs and header values: Bearer <token>, OpenAI and
// Anthropic keys (sk-…, sk-proj-…, sk-ant-…), Stripe keys, JWTs, GitHub
// tokens (ghp_, gho_, ghu_, ghs_, ghr_, github_pat_), AWS access key ids
// (AKIA…, ASIA…) and secret access keys after their name, Slack tokens
// (xoxb-…) and Google API keys (AIza…). A shape is a whole word with a
// distinctive prefix and a minimum length, so UUIDs, event and message
// ids, hashes and base64 data are left alone.
//
// A string member whose value is itself a JSON object or array (a tool's
// args_json, a config sent as text) is decoded, redacted like a frame (up
// to maxNest strings deep) and encoded back into its string, so the outer
// JSON stays valid.
//
// How a redacted value looks — one style, a marker that says it was
// redacted and how long it was:
//
//   - a string, in JSON, headers and text, becomes «redacted: 32 chars»
//     (the length in characters), however short it was; an empty string
//     stays empty;
//   - in a URL, and as the value of a name=value pair in text (a URL
//     quoted in an error, --var host_token=… in a rerun command), the
//     same marker in the form a URL and a shell word hold without
//     escaping or quoting: redacted(32);
//   - a JSON number becomes the smallest number with the same layout:
//     4711 → 1000, 0.25 → 0.00, -12.5e3 → -10.0e0 (still a number, same
//     length, never larger than the original);
//   - booleans and null stay (they carry one bit, not a credential);
//   - an object or array under a credential name keeps its member names
//     and structure, with every string and number in it redacted;
//   - a header value keeps an Authorization scheme ("Bearer «redacted:
//     40 chars»") and cookie names and attributes ("sid=«redacted: 16
//     chars»; Path=/; HttpOnly");
//   - in a binary payload that is not UTF-8 text, a token keeps its
//     length, so that a length-prefixed format still parses:
//     redacted(40)---------------------------- (Binary).
//
// Older versions wrote a same-length mask of asterisks ("*****") where a
// marker would have been longer than the string: IsMarker still
// recognises it, so that redacting an old recording again changes nothing
// and a replay knows its value is unknown.
//
// Redacted JSON stays valid JSON when it was. Member names, layout,
// member order and duplicates are kept byte for byte, so a redacted frame
// is judged offline like the original (its message type and ordering
// members are never credential names). A marker can be longer than what
// it replaces: a payload grows by at most 19 bytes per redacted value,
// MaxLen bounds it. A value that is already a marker is left as it is,
// so redacting twice changes nothing.
//
// Redaction belongs where artifacts are written, never before judging: the
// check engine sees the real frames, and what it found is redacted on the
// way out (a finding's Expected and Actual included; Scrubber replaces the
// secret values a report's frames and URLs revealed wherever else they
// are quoted).
//
// Limits: a secret shorter than MinLiteral characters is only redacted
// where it is named, not wherever it is quoted; a credential that has
// neither a credential name nor a known shape (a password in a chat
// text) is not found; in a binary payload that is not UTF-8 only the
// shapes and the secrets revealed elsewhere are found, not a credential
// under a name (MessagePack, protobuf), nor one compressed or in another
// encoding, and reports say so; JSON in a string deeper than maxNest is
// searched for shapes only.
package redact
