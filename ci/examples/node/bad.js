#!/usr/bin/env node
'use strict';
// bad.js: the same client with a planted bug. On a reconnect it resumes from
// 5 events past the last one it received: an event_id it never saw, so the
// server skips 5 events the user never gets. The process still exits 0 (the
// run finishes from its point of view); `wsconform gate --dialect minicodex
// --fault drop-after=8 -- node bad.js` fails it with minicodex.resume-unseen.
require('./client').run({
  name: 'bad.js',
  // BUG (planted): off by five. The correct value is lastReceived.
  resumeFrom: (lastReceived) => (lastReceived === null ? null : lastReceived + 5),
});
