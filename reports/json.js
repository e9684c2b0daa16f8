// Shared by the report page, its replay diffs and wsproxy's live view:
// HTML escaping and JSON pretty-printing. Every string from the wire goes
// through esc() before it joins any markup.
var wscJSON = (function () {
  'use strict';
  var PRETTY_MAX = 262144; // longest payload pretty-printed

  function esc(s) {
    return String(s == null ? '' : s).replace(/[&<>"']/g, function (c) {
      return { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c];
    });
  }

  // ---- JSON pretty-printing without parsing: number literals, duplicate
  // keys and invalid documents are shown exactly as they were sent.
  function prettyLines(s) {
    var t = s.replace(/^\s+/, '');
    if (!t || (t[0] !== '{' && t[0] !== '[') || s.length > PRETTY_MAX) return null;
    var lines = [], cur = [], depth = 0, i = 0, n = s.length, j, k;
    function ws(c) { return c === ' ' || c === '\n' || c === '\r' || c === '\t'; }
    function nl() { lines.push(cur); cur = [['', '  '.repeat(Math.min(depth, 32))]]; }
    while (i < n) {
      var c = s[i];
      if (ws(c)) { i++; continue; }
      if (c === '"') {
        j = i + 1;
        while (j < n && s[j] !== '"') { if (s[j] === '\\') j++; j++; }
        var str = s.slice(i, j + 1);
        i = j + 1;
        k = i; while (k < n && ws(s[k])) k++;
        cur.push([s[k] === ':' ? 'j-k' : 'j-s', str]);
      } else if (c === '{' || c === '[') {
        k = i + 1; while (k < n && ws(s[k])) k++;
        var close = c === '{' ? '}' : ']';
        if (s[k] === close) { cur.push(['', c + close]); i = k + 1; continue; }
        cur.push(['', c]); depth++; i++; nl();
      } else if (c === '}' || c === ']') {
        depth = Math.max(0, depth - 1); nl(); cur.push(['', c]); i++;
      } else if (c === ',') {
        cur.push(['', ',']); i++; nl();
      } else if (c === ':') {
        cur.push(['', ': ']); i++;
      } else {
        j = i; while (j < n && ',:]}"{['.indexOf(s[j]) < 0 && !ws(s[j])) j++;
        if (j === i) j = i + 1;
        var lit = s.slice(i, j); i = j;
        cur.push([/^-?\d/.test(lit) ? 'j-n' : /^(true|false|null)$/.test(lit) ? 'j-l' : '', lit]);
      }
    }
    lines.push(cur);
    return lines;
  }
  function linesHTML(lines) {
    return lines.map(function (l) {
      return l.map(function (t) { return t[0] ? '<span class="' + t[0] + '">' + esc(t[1]) + '</span>' : esc(t[1]); }).join('');
    }).join('\n');
  }

  return { esc: esc, prettyLines: prettyLines, linesHTML: linesHTML, PRETTY_MAX: PRETTY_MAX };
})();
