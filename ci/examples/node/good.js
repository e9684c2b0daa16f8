#!/usr/bin/env node
'use strict';
// good.js: a well-behaved minicodex client. On every reconnect it resumes
// from the last event_id it actually received, so the server replays exactly
// what it missed. `wsconform gate --dialect minicodex --fault drop-after=8 --
// node good.js` passes.
require('./client').run({
  name: 'good.js',
  resumeFrom: (lastReceived) => lastReceived,
});
