// Replay diffs (the "replay" template of report.html.tmpl): every row is
// rendered by the server, long runs of identical rows folded in <details>,
// so that nothing here grows with the number of rows. A row opened shows
// both payloads, pretty-printed here once (json.js, loaded first); the
// buttons open or close every differing row of one diff. Works on any page
// holding the fragment, also on fragments added after load.
var wscReplay = (function () {
  'use strict';
  function pretty(root) {
    [].slice.call(root.querySelectorAll('pre.rpj:not([data-pretty])')).forEach(function (pre) {
      pre.setAttribute('data-pretty', '1');
      var lines = wscJSON.prettyLines(pre.textContent);
      if (lines) pre.innerHTML = wscJSON.linesHTML(lines);
    });
  }
  document.addEventListener('toggle', function (e) {
    var el = e.target;
    if (el.open && el.matches && el.matches('details.rr')) pretty(el);
  }, true);
  document.addEventListener('click', function (e) {
    var b = e.target.closest && e.target.closest('button[data-ract]');
    if (!b) return;
    var open = b.getAttribute('data-ract') === 'open';
    [].slice.call(b.closest('.rdiff').querySelectorAll('details.rr:not(.op-same)')).forEach(function (r) { r.open = open; });
  });
  return { pretty: pretty };
})();
