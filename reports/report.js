// wsconform report page. Every string that came from the wire is inserted
// as text (esc() before any innerHTML), never as markup. Wire logs are
// rendered from the embedded JSON only when their scenario or session is
// opened and near the viewport, a chunk of rows at a time, so that a report
// of thousands of frames opens at once; filters toggle one class per item;
// the reader's scroll position is kept across every change of the page.
(function () {
  'use strict';
  var started = performance.now();
  var D = JSON.parse(document.getElementById('wsc-data').textContent);
  var body = document.body;
  var items = [].slice.call(document.querySelectorAll('details.item'));
  var total = items.length;
  var noun = body.dataset.noun || 'item';
  var CHUNK = 500;        // wire rows rendered at a time
  var ROWS = 100;         // wire rows per layout chunk
  var EAGER = 3000;       // frames rendered at load, for open items
  var PRETTY_MAX = 262144; // longest payload pretty-printed
  var MAX_CONNS = 60;     // connections drawn in a timeline
  var BUCKETS = 120;      // frame ticks per timeline row
  var SEVS = { info: 1, warning: 2, error: 3 };
  var SEVWORD = ['info', 'warning', 'error'];
  // connection colours: no red or green, which mean failed and passed here
  var PALETTE = ['#1f77b4', '#9467bd', '#17becf', '#ff7f0e', '#8c564b', '#e377c2', '#bcbd22', '#7f7f7f'];
  var state = { v: {}, sev: '', dialect: '', target: '', q: '' };
  var wires = {};
  var hay = [];
  var toolbar = document.getElementById('toolbar');
  var shownEl = document.getElementById('shown');
  var qEl = document.getElementById('f-q');
  var sevEl = document.getElementById('f-sev');
  var dialectEl = document.getElementById('f-dialect');
  var targetEl = document.getElementById('f-target');
  var mrows = [].slice.call(document.querySelectorAll('tr.mrow')).map(function (el) {
    return { el: el, items: (el.getAttribute('data-items') || '').split(' ').filter(Boolean).map(Number) };
  });
  var mgroups = [].slice.call(document.querySelectorAll('tbody.mgroup'));
  var spacer = body.appendChild(document.createElement('div'));
  spacer.className = 'spacer';

  var esc = wscJSON.esc;
  function plural(n, w) { return n + ' ' + w + (n === 1 ? '' : 's'); }
  function fmtMs(v) {
    if (v < 10) return v.toFixed(2) + ' ms';
    if (v < 1000) return v.toFixed(1) + ' ms';
    if (v < 60000) return (v / 1000).toFixed(2) + ' s';
    var m = Math.floor(v / 60000);
    return m + 'm' + ('0' + Math.floor((v % 60000) / 1000)).slice(-2) + 's';
  }
  function fmtSize(n) {
    if (n < 1024) return n + ' B';
    if (n < 1048576) return (n / 1024).toFixed(1) + ' KiB';
    return (n / 1048576).toFixed(1) + ' MiB';
  }

  // JSON pretty-printing is shared with replay diffs and the live view
  // (json.js, loaded first).
  var prettyLines = wscJSON.prettyLines, linesHTML = wscJSON.linesHTML;
  function frameText(f) {
    if (f[5] === 'close') return 'close ' + f[11] + (f[9] ? ' ' + f[9] : '');
    if (f[10] & 1) return f[9].replace(/(.{76})/g, '$1\n');
    return f[9];
  }
  function payloadHTML(f) {
    if (f[5] === 'close') return '<span class="j-l">close ' + esc(f[11]) + '</span>' + (f[9] ? ' ' + esc(f[9]) : '');
    if (f[10] & 1) return '<span class="dim">binary, ' + esc(fmtSize(f[8])) + ', base64:</span>\n' + esc(frameText(f));
    var lines = prettyLines(f[9]);
    return lines ? linesHTML(lines) : esc(f[9]);
  }

  // ---- per-item wire state
  function wireFor(n) {
    if (wires[n]) return wires[n];
    var d = D.items[n], el = items[n];
    var w = { n: n, d: d, el: el.querySelector('.wire'), done: 0, started: false, pos: {}, marks: {}, rel: {}, colors: {}, low: [] };
    var nc = 0;
    function color(c) { if (!(c in w.colors)) w.colors[c] = PALETTE[nc++ % PALETTE.length]; }
    (d.c || []).forEach(function (c) { color(c[0]); });
    d.f.forEach(function (f, i) { w.pos[f[0]] = i; color(f[3]); });
    d.x.forEach(function (x) {
      if (x[0]) (w.marks[x[0]] = w.marks[x[0]] || []).push(x);
      x[4].forEach(function (r) { (w.rel[r] = w.rel[r] || []).push(x); });
    });
    wires[n] = w;
    return w;
  }
  function frameMatches(w, i) {
    if (!state.q) return false;
    if (w.low[i] == null) { var f = w.d.f[i]; w.low[i] = (f[6] + ' ' + f[7] + ' ' + f[9]).toLowerCase(); }
    return terms().every(function (t) { return w.low[i].indexOf(t) >= 0; });
  }
  function rowHTML(w, i) {
    var f = w.d.f[i], idx = f[0], m = w.marks[idx], r = w.rel[idx];
    var cls = 'wr fr ' + (f[4] === 'c2s' ? 'c2s' : 's2c');
    if (m) {
      var worst = -1;
      m.forEach(function (x) { if (x[5]) worst = Math.max(worst, x[1]); });
      cls += worst < 0 ? ' bad-0 client' : ' bad-' + worst;
    }
    if (r) cls += ' rel';
    if (frameMatches(w, i)) cls += ' match';
    var type = f[5] === 'close' ? 'close ' + f[11] : f[6] || (f[5] !== 'text' ? f[5] : '');
    var preview = f[10] & 1 ? '[binary] ' + f[9].slice(0, 120) : f[5] === 'close' ? f[9] : f[9].slice(0, 300).replace(/\s+/g, ' ');
    var h = '<div class="' + cls + '" id="' + esc(w.d.a + '-f' + idx) + '" data-i="' + i + '">' +
      '<span class="n">' + esc(idx) + '</span><span class="t">' + esc(f[1]) + '</span><span class="dt">+' + esc(fmtMs(f[2])) + '</span>' +
      '<span class="c" style="--cc:' + w.colors[f[3]] + '">' + esc(f[3]) + '</span>' +
      '<span class="dir" title="' + (f[4] === 'c2s' ? 'client to server' : 'server to client') + '">' + (f[4] === 'c2s' ? '→' : '←') + '</span>' +
      '<span class="ty">' + esc(type) + '</span><span class="sq">' + esc(f[7]) + '</span>' +
      '<span class="sz">' + esc(fmtSize(f[8])) + (f[10] & 2 ? ' ✂' : '') + '</span><span class="p">' + esc(preview) + '</span></div>';
    return (m || r) ? h + fxHTML(w, i) : h;
  }
  function fxHTML(w, i) {
    var f = w.d.f[i], idx = f[0], h = '<div class="fx" data-for="' + esc(idx) + '">';
    (w.marks[idx] || []).forEach(function (x) {
      h += '<p class="fnote sev-' + (x[5] ? x[1] : 'c') + '">' + (x[5] ? esc(SEVWORD[x[1]]) : 'sent by the tester, not judged:') +
        ' <a href="#' + esc(x[3]) + '">' + esc(x[2]) + '</a> ' + esc(x[6]) +
        (x[7] ? ' <span class="bgtag">background (not what this scenario tested)</span>' : '') + '</p>';
    });
    (w.rel[idx] || []).forEach(function (x) {
      h += '<p class="fnote relnote">related to <a href="#' + esc(x[3]) + '">' + esc(x[2]) + '</a> on frame #' + esc(x[0]) + '</p>';
    });
    h += '<pre>' + payloadHTML(f) + '</pre>';
    if (f[10] & 2) h += '<p class="dim">Cut: the report keeps the start of this ' + esc(fmtSize(f[8])) + ' payload.</p>';
    return h + '</div>';
  }
  function toggleRow(tr) {
    var w = wireFor(+tr.closest('details.item').dataset.n), i = +tr.dataset.i;
    var chunk = tr.parentElement;
    var next = tr.nextElementSibling;
    if (next && next.classList.contains('fx')) next.remove();
    else tr.insertAdjacentHTML('afterend', fxHTML(w, i));
    chunk.style.containIntrinsicSize = '';
  }
  function setAllRows(w, open) {
    if (!w.tbody) return;
    keepScroll(function () {
      [].slice.call(w.tbody.querySelectorAll('.fr')).forEach(function (tr) {
        var next = tr.nextElementSibling, has = next && next.classList.contains('fx');
        if (open && !has) tr.insertAdjacentHTML('afterend', fxHTML(w, +tr.dataset.i));
        if (!open && has && !tr.matches('.bad-0,.bad-1,.bad-2,.rel')) next.remove();
      });
    });
  }
  function buildTable(w) {
    var d = w.d, conns = Object.keys(w.colors).length;
    w.el.innerHTML = '<div class="whead"><span>' + esc(plural(d.f.length, 'frame')) + ' · ' + esc(plural(conns, 'connection')) +
      ' · click a row for its payload</span><button type="button" data-act="pl-all">expand all payloads</button>' +
      '<button type="button" data-act="pl-none">collapse</button></div>' +
      '<div class="wl"><div class="wr wth"><span class="n">#</span><span class="t">time</span><span class="dt">elapsed</span>' +
      '<span class="c">conn</span><span class="dir"></span><span class="ty">type</span><span class="sq">' + esc(d.s) +
      '</span><span class="sz">size</span><span class="p">payload</span></div><div class="wbody"></div></div><div class="wmore"></div>';
    w.tbody = w.el.querySelector('.wbody');
    w.more = w.el.querySelector('.wmore');
  }
  // Rows go in chunks of ROWS; a chunk off screen skips layout
  // (content-visibility), so a log of thousands of rows stays cheap.
  function appendRows(w, upto) {
    var parts = [];
    for (var i = w.done; i < upto; i += ROWS) {
      var rows = [], end = Math.min(upto, i + ROWS), tall = 0;
      for (var k = i; k < end; k++) {
        var r = rowHTML(w, k);
        rows.push(r);
        if (r.indexOf('class="fx"') >= 0) tall += 160;
      }
      parts.push('<div class="wchunk" style="contain-intrinsic-size:auto ' + ((end - i) * 22 + tall) + 'px">' + rows.join('') + '</div>');
    }
    w.tbody.insertAdjacentHTML('beforeend', parts.join(''));
    w.done = upto;
    var left = w.d.f.length - w.done;
    w.more.innerHTML = left > 0 ? 'Showing ' + w.done + ' of ' + w.d.f.length + ' frames. <button type="button" data-act="more">show ' +
      Math.min(CHUNK, left) + ' more</button><button type="button" data-act="all">show all</button>' : '';
  }
  // renderItem draws an item's timeline, diffs and wire log, up to the
  // row at position need when given.
  function renderItem(n, need) {
    var w = wireFor(n);
    if (!w.started) {
      w.started = true;
      renderTimeline(w);
      renderDiffs(w);
      if (w.el) buildTable(w);
    }
    if (!w.el) return w;
    var target = Math.max(w.done || Math.min(CHUNK, w.d.f.length), need == null ? 0 : need + 1);
    if (target > w.done) appendRows(w, Math.min(target, w.d.f.length));
    return w;
  }

  // ---- side-by-side JSON diff of a finding's related frame and its frame.
  // Both are shown with their object keys sorted (a replay may reorder
  // keys), literals exactly as sent.
  function parseTree(s) {
    var i = 0, n = s.length, depth = 0;
    function sp() { while (i < n && (s[i] === ' ' || s[i] === '\n' || s[i] === '\r' || s[i] === '\t')) i++; }
    function str() {
      var j = i + 1;
      while (j < n && s[j] !== '"') { if (s[j] === '\\') j++; j++; }
      if (j >= n) throw 0;
      var t = s.slice(i, j + 1); i = j + 1; return t;
    }
    function list(close, member) {
      if (++depth > 64) throw 0;
      i++; var out = []; sp();
      if (s[i] === close) { i++; depth--; return out; }
      for (;;) {
        out.push(member()); sp();
        if (s[i] === ',') { i++; continue; }
        if (s[i] === close) { i++; depth--; return out; }
        throw 0;
      }
    }
    function val() {
      sp();
      if (i >= n) throw 0;
      if (s[i] === '{') return { o: list('}', function () { sp(); if (s[i] !== '"') throw 0; var k = str(); sp(); if (s[i] !== ':') throw 0; i++; return [k, val()]; }) };
      if (s[i] === '[') return { a: list(']', val) };
      if (s[i] === '"') return { l: str() };
      var j = i; while (j < n && ',:]}'.indexOf(s[j]) < 0 && ' \n\r\t'.indexOf(s[j]) < 0) j++;
      if (j === i) throw 0;
      var t = s.slice(i, j); i = j; return { l: t };
    }
    try { var v = val(); sp(); return i === n ? v : null; } catch (e) { return null; }
  }
  function canonLines(node) {
    var out = [];
    function emit(v, ind, pre, post) {
      var pad = '  '.repeat(Math.min(ind, 32));
      var kids = v.o ? v.o.slice().sort(function (a, b) { return a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0; }) : v.a;
      if (!kids) { out.push(pad + pre + v.l + post); return; }
      var open = v.o ? '{' : '[', close = v.o ? '}' : ']';
      if (!kids.length) { out.push(pad + pre + open + close + post); return; }
      out.push(pad + pre + open);
      kids.forEach(function (k, x) {
        var sep = x < kids.length - 1 ? ',' : '';
        if (v.o) emit(k[1], ind + 1, k[0] + ': ', sep); else emit(k, ind + 1, '', sep);
      });
      out.push(pad + close + post);
    }
    emit(node, 0, '', '');
    return out;
  }
  function diffText(f) {
    var t = f[5] === 'text' && f[9].length <= PRETTY_MAX ? parseTree(f[9]) : null;
    return t ? canonLines(t) : frameText(f).split('\n');
  }
  function lcsDiff(a, b) {
    var n = a.length, m = b.length, ops = [];
    if (n * m > 360000) {
      for (var q = 0; q < Math.max(n, m); q++) ops.push(a[q] === b[q] ? ['=', a[q], b[q]] : ['~', a[q], b[q]]);
      return ops;
    }
    var L = new Int32Array((n + 1) * (m + 1)), i, j;
    for (i = n - 1; i >= 0; i--) for (j = m - 1; j >= 0; j--)
      L[i * (m + 1) + j] = a[i] === b[j] ? L[(i + 1) * (m + 1) + j + 1] + 1 : Math.max(L[(i + 1) * (m + 1) + j], L[i * (m + 1) + j + 1]);
    i = 0; j = 0;
    var dels = [], inss = [];
    function flush() {
      for (var k = 0; k < Math.max(dels.length, inss.length); k++) ops.push(['~', dels[k], inss[k]]);
      dels = []; inss = [];
    }
    while (i < n || j < m) {
      if (i < n && j < m && a[i] === b[j]) { flush(); ops.push(['=', a[i], b[j]]); i++; j++; }
      else if (j >= m || (i < n && L[(i + 1) * (m + 1) + j] >= L[i * (m + 1) + j + 1])) dels.push(a[i++]);
      else inss.push(b[j++]);
    }
    flush();
    return ops;
  }
  function renderDiffs(w) {
    [].slice.call(items[w.n].querySelectorAll('.jdiff')).forEach(function (el) {
      var a = w.d.f[w.pos[el.dataset.a]], b = w.d.f[w.pos[el.dataset.b]];
      if (!a || !b) {
        el.innerHTML = '<p class="dim">Frame #' + esc(a ? el.dataset.b : el.dataset.a) + ' is not in the wire log, so no side-by-side diff.</p>';
        return;
      }
      var ta = diffText(a), tb = diffText(b);
      var ops = lcsDiff(ta, tb), rows = [], CTX = 2;
      var near = ops.map(function () { return false; });
      ops.forEach(function (o, k) { if (o[0] !== '=') for (var d = -CTX; d <= CTX; d++) if (ops[k + d]) near[k + d] = true; });
      var skipped = 0;
      ops.forEach(function (o, k) {
        if (!near[k]) { skipped++; return; }
        if (skipped) { rows.push('<tr class="gap"><td colspan="2">… ' + plural(skipped, 'unchanged line') + '</td></tr>'); skipped = 0; }
        var ca = o[0] === '~' && o[1] != null ? ' class="del"' : '', cb = o[0] === '~' && o[2] != null ? ' class="ins"' : '';
        rows.push('<tr><td' + ca + '>' + esc(o[1] == null ? '' : o[1]) + '</td><td' + cb + '>' + esc(o[2] == null ? '' : o[2]) + '</td></tr>');
      });
      if (skipped) rows.push('<tr class="gap"><td colspan="2">… ' + plural(skipped, 'unchanged line') + '</td></tr>');
      el.innerHTML = '<table class="jd"><thead><tr><th>frame #' + esc(a[0]) + ' on ' + esc(a[3]) + ' (earlier)</th><th>frame #' +
        esc(b[0]) + ' on ' + esc(b[3]) + ' (this finding) · keys sorted</th></tr></thead><tbody>' + rows.join('') + '</tbody></table>';
    });
  }

  // ---- connection timeline of a session, with reconnect lineage
  function renderTimeline(w) {
    var el = items[w.n].querySelector('.timeline'), d = w.d;
    if (!el || !d.c || !d.c.length) return;
    var span = Math.max(d.e, 0.001), ids = {}, kids = {}, roots = [], order = [], seen = {};
    d.c.forEach(function (c) { ids[c[0]] = c; });
    d.c.forEach(function (c) {
      if (c[1] && ids[c[1]] && c[1] !== c[0]) (kids[c[1]] = kids[c[1]] || []).push(c); else roots.push(c);
    });
    function walk(c, depth) {
      if (seen[c[0]]) return;
      seen[c[0]] = true; order.push([c, depth]);
      (kids[c[0]] || []).forEach(function (k) { walk(k, depth + 1); });
    }
    roots.forEach(function (c) { walk(c, 0); });
    d.c.forEach(function (c) { walk(c, 0); });
    var byConn = {};
    d.f.forEach(function (f) { (byConn[f[3]] = byConn[f[3]] || []).push(f); });
    function pct(v) { return (100 * Math.min(Math.max(v, 0), span) / span).toFixed(3); }
    var h = ['<div class="tl-axis"><span></span><div class="ticks"><span>0</span><span>+' + esc(fmtMs(span / 2)) + '</span><span>+' +
      esc(fmtMs(span)) + '</span></div></div>'];
    order.slice(0, MAX_CONNS).forEach(function (o) {
      var c = o[0], depth = o[1], open = c[2], close = c[3] < 0 ? span : c[3];
      var end = c[3] < 0 ? 'still open' : 'closed' + (c[4] ? ' ' + c[4] : '') + (c[5] ? ' ' + c[5] : '') + (c[6] ? ' by ' + c[6] : '');
      var title = c[0] + (c[1] ? ', reconnects ' + c[1] : '') + ' · ' + c[7] + ' · ' + plural(c[8], 'frame') + ' · ' + end;
      var row = '<div class="tl-row"><div class="tl-lab" style="padding-left:' + Math.min(depth, 8) * 12 + 'px" title="' + esc(title) + '">' +
        (depth ? '↳ ' : '') + '<b>' + esc(c[0]) + '</b> <span class="dim">' + esc(c[3] < 0 ? 'open' : (c[4] || '') + (c[6] ? ' ' + c[6] : '')) +
        '</span></div><div class="tl-track" style="--cc:' + w.colors[c[0]] + '"><div class="tl-bar' + (c[3] < 0 ? ' open' : '') + '" style="left:' +
        pct(open) + '%;width:' + (pct(close) - pct(open)).toFixed(3) + '%"></div>';
      var up = new Array(BUCKETS).fill(0), dn = new Array(BUCKETS).fill(0), most = 1;
      (byConn[c[0]] || []).forEach(function (f) {
        var b = Math.min(BUCKETS - 1, Math.floor(BUCKETS * Math.max(f[2], 0) / span));
        if (f[4] === 'c2s') most = Math.max(most, ++up[b]); else most = Math.max(most, ++dn[b]);
      });
      for (var b = 0; b < BUCKETS; b++) {
        var left = (100 * (b + 0.5) / BUCKETS).toFixed(3);
        if (up[b]) row += '<i class="up" style="left:' + left + '%;height:' + (4 + 9 * up[b] / most).toFixed(1) + 'px"></i>';
        if (dn[b]) row += '<i class="dn" style="left:' + left + '%;height:' + (4 + 9 * dn[b] / most).toFixed(1) + 'px"></i>';
      }
      var marks = 0;
      d.x.forEach(function (x) {
        var i = w.pos[x[0]], f = i == null ? null : d.f[i];
        if (!f || f[3] !== c[0] || !x[5] || marks++ > 50) return;
        row += '<a class="tl-x sev-' + SEVWORD[x[1]] + '" href="#' + esc(d.a + '-f' + f[0]) + '" style="left:' + pct(f[2]) + '%" title="' +
          esc(x[2] + ' on frame #' + f[0] + ': ' + x[6]) + '"></a>';
      });
      h.push(row + '</div></div>');
    });
    if (order.length > MAX_CONNS) h.push('<p class="dim">… and ' + (order.length - MAX_CONNS) + ' more connections (see the table).</p>');
    h.push('<p class="tl-legend"><i style="background:var(--c2s)"></i>client → server <i style="background:var(--s2c)"></i>server → client' +
      ' <i style="background:var(--fail);height:8px;width:8px;border-radius:50%"></i>finding (click: its frame)' +
      (d.f.length < d.c.reduce(function (s, c) { return s + c[8]; }, 0) ? ' · ticks show the frames kept in the wire log' : '') + '</p>');
    el.innerHTML = h.join('');
  }

  // ---- filters
  function terms() { return state.q.toLowerCase().split(/\s+/).filter(Boolean); }
  function haystack(n) {
    if (hay[n] == null) {
      var parts = [items[n].querySelector('summary').textContent, items[n].querySelector('.body').textContent];
      D.items[n].f.forEach(function (f) { parts.push(f[3], f[6], f[9]); });
      hay[n] = parts.join('\n').toLowerCase();
    }
    return hay[n];
  }
  function matches(n) {
    var ds = items[n].dataset;
    if (Object.keys(state.v).length && !state.v[ds.verdict]) return false;
    if (state.sev && +ds.sev < SEVS[state.sev]) return false;
    if (state.dialect && ds.dialect !== state.dialect) return false;
    if (state.target && ds.target !== state.target) return false;
    if (state.q) {
      var h = haystack(n);
      return terms().every(function (t) { return h.indexOf(t) >= 0; });
    }
    return true;
  }
  function apply() {
    var shown = 0, vis = [];
    items.forEach(function (el, n) {
      vis[n] = matches(n);
      if (vis[n]) shown++;
      if (el.classList.contains('hid') === vis[n]) el.classList.toggle('hid', !vis[n]);
    });
    mrows.forEach(function (r) { r.el.classList.toggle('hid', !r.items.some(function (n) { return vis[n]; })); });
    mgroups.forEach(function (g) { g.classList.toggle('hid', !g.querySelector('tr.mrow:not(.hid)')); });
    shownEl.textContent = shown + ' of ' + plural(total, noun);
    body.dataset.shown = shown;
    [].slice.call(document.querySelectorAll('.chip')).forEach(function (c) { c.setAttribute('aria-pressed', state.v[c.dataset.v] ? 'true' : 'false'); });
    Object.keys(wires).forEach(function (n) {
      var w = wires[n];
      if (!w.tbody || !vis[n]) return;
      [].slice.call(w.tbody.querySelectorAll('.fr')).forEach(function (tr) { tr.classList.toggle('match', frameMatches(w, +tr.dataset.i)); });
    });
    writeParams();
  }
  function filtered() { keepScroll(apply); }
  function readParams() {
    var p = new URLSearchParams(location.search);
    (p.get('verdict') || '').split(',').forEach(function (v) { if (v) state.v[v] = true; });
    state.sev = SEVS[p.get('severity')] ? p.get('severity') : '';
    state.dialect = p.get('dialect') || '';
    state.target = p.get('target') || '';
    state.q = p.get('q') || '';
    sevEl.value = state.sev; qEl.value = state.q;
    if (dialectEl) dialectEl.value = state.dialect;
    if (targetEl) targetEl.value = state.target;
  }
  function writeParams() {
    var p = new URLSearchParams(location.search);
    function set(k, v) { if (v) p.set(k, v); else p.delete(k); }
    set('verdict', Object.keys(state.v).join(','));
    set('severity', state.sev); set('dialect', state.dialect); set('target', state.target); set('q', state.q);
    var s = p.toString();
    try { history.replaceState(history.state, '', (s ? '?' + s : location.pathname) + location.hash); } catch (e) { /* file: URLs may refuse */ }
  }
  function clearFilters() {
    state = { v: {}, sev: '', dialect: '', target: '', q: '' };
    sevEl.value = ''; qEl.value = '';
    if (dialectEl) dialectEl.value = '';
    if (targetEl) targetEl.value = '';
  }

  // ---- scroll keeping: whatever changes above or around the reader, the
  // element at the top of the viewport stays where it was.
  function toolbarBottom() { return Math.max(0, toolbar.getBoundingClientRect().bottom); }
  function visible(el) { return el.isConnected && el.getClientRects().length > 0; }
  function keepScroll(fn) {
    if (window.scrollY < 2) { fn(); return; }
    var y = toolbarBottom() + 4, at = document.elementFromPoint(Math.min(window.innerWidth / 2, 400), y);
    var cands = [];
    var first = at && at.closest('.fr, .fx, tr, .finding, li, p, h2, h3, summary, details.item, section');
    if (first) cands.push(first);
    var item = at && at.closest('details.item');
    for (var k = 0, s = item || first; s && k < 40; k++) { s = s.nextElementSibling; if (s) cands.push(s); }
    var tops = cands.map(function (c) { return c.getBoundingClientRect().top; });
    fn();
    spacer.style.height = '0px';
    for (var i = 0; i < cands.length; i++) {
      if (!visible(cands[i])) continue;
      // A filter can leave too little page below to scroll back to where
      // the reader was: the spacer at the end makes the room.
      var y = window.scrollY + cands[i].getBoundingClientRect().top - tops[i];
      var room = y - (document.documentElement.scrollHeight - window.innerHeight);
      if (room > 0) spacer.style.height = Math.ceil(room) + 'px';
      window.scrollTo(window.scrollX, y);
      return;
    }
  }

  // ---- navigation to items, findings and frames
  function flash(el) { el.classList.remove('flash'); void el.offsetWidth; el.classList.add('flash'); }
  function go(id, push) {
    var el = document.getElementById(id), m = /^(.*)-f(\d+)$/.exec(id);
    if (!el && m) {
      var it = document.getElementById(m[1]);
      if (it && it.matches('details.item')) {
        var w = wireFor(+it.dataset.n);
        if (w.pos[m[2]] == null) return 'missing';
        it.open = true;
        renderItem(w.n, w.pos[m[2]]);
        el = document.getElementById(id);
      }
    }
    if (!el) return false;
    var item = el.closest('details.item');
    if (item && item.classList.contains('hid')) { clearFilters(); apply(); }
    for (var p = el; p; p = p.parentElement) if (p.tagName === 'DETAILS' && !p.open) p.open = true;
    if (item) renderItem(+item.dataset.n);
    if (el.matches('.fr')) {
      var next = el.nextElementSibling;
      if (!next || !next.classList.contains('fx')) toggleRow(el);
    }
    el.scrollIntoView({ block: el.matches('.fr, tr') ? 'center' : 'start' });
    flash(el);
    if (push) { try { history.pushState(null, '', '#' + id); } catch (e) { /* file: */ } }
    return true;
  }

  document.addEventListener('click', function (e) {
    var a = e.target.closest('a[href^="#"]');
    if (a) {
      if (a.classList.contains('count')) { e.preventDefault(); state.v = {}; state.v[a.dataset.v] = true; filtered(); go('items', true); return; }
      var id = decodeURIComponent(a.getAttribute('href').slice(1)), r = go(id, true);
      if (r) e.preventDefault();
      if (r === 'missing' && !a.dataset.missing) { a.dataset.missing = '1'; a.insertAdjacentHTML('afterend', ' <span class="dim">(not kept in the wire log)</span>'); }
      return;
    }
    var b = e.target.closest('button');
    if (b) {
      var act = b.dataset.act, item = b.closest('details.item');
      if (b.dataset.v) { if (state.v[b.dataset.v]) delete state.v[b.dataset.v]; else state.v[b.dataset.v] = true; filtered(); }
      else if (act === 'clear') { clearFilters(); filtered(); }
      else if (act === 'expand' || act === 'collapse') keepScroll(function () { items.forEach(function (el) { if (!el.classList.contains('hid')) el.open = act === 'expand'; }); });
      else if (act === 'more' || act === 'all') { var w = wireFor(+item.dataset.n); appendRows(w, act === 'all' ? w.d.f.length : Math.min(w.d.f.length, w.done + CHUNK)); }
      else if (act === 'pl-all' || act === 'pl-none') setAllRows(wireFor(+item.dataset.n), act === 'pl-all');
      else if (act === 'copy') {
        var code = b.parentElement.querySelector('code'), done = function () { b.textContent = 'copied'; };
        if (navigator.clipboard) navigator.clipboard.writeText(code.textContent).then(done, function () { selectText(code); });
        else selectText(code);
      }
      return;
    }
    var tr = e.target.closest('.fr');
    if (tr && !String(window.getSelection())) toggleRow(tr);
  });
  function selectText(el) { var r = document.createRange(); r.selectNodeContents(el); var s = window.getSelection(); s.removeAllRanges(); s.addRange(r); }

  // Opening an item renders it when it is near the viewport, otherwise
  // when it scrolls near (expand all opens hundreds at once).
  var io = 'IntersectionObserver' in window ? new IntersectionObserver(function (es) {
    es.forEach(function (e) {
      if (!e.isIntersecting) return;
      io.unobserve(e.target);
      var it = e.target.closest('details.item');
      if (it.open) keepScroll(function () { renderItem(+it.dataset.n); });
    });
  }, { rootMargin: '800px 0px' }) : null;
  function later(n) {
    var it = items[n], ph = it.querySelector('.wire, .timeline');
    if (!io || !ph) { renderItem(n); return; }
    io.observe(ph);
  }
  document.addEventListener('toggle', function (e) {
    var it = e.target;
    if (!it.matches || !it.matches('details.item') || !it.open || (wires[it.dataset.n] && wires[it.dataset.n].started)) return;
    var r = it.getBoundingClientRect();
    if (r.top < window.innerHeight * 2 && r.bottom > -window.innerHeight) renderItem(+it.dataset.n); else later(+it.dataset.n);
  }, true);

  var qTimer;
  qEl.addEventListener('input', function () { clearTimeout(qTimer); qTimer = setTimeout(function () { state.q = qEl.value.trim(); filtered(); }, 200); });
  sevEl.addEventListener('change', function () { state.sev = sevEl.value; filtered(); });
  if (dialectEl) dialectEl.addEventListener('change', function () { state.dialect = dialectEl.value; filtered(); });
  if (targetEl) targetEl.addEventListener('change', function () { state.target = targetEl.value; filtered(); });
  document.addEventListener('keydown', function (e) {
    if (e.key === '/' && document.activeElement !== qEl && !/INPUT|SELECT|TEXTAREA/.test(document.activeElement.tagName)) { e.preventDefault(); qEl.focus(); }
  });
  window.addEventListener('beforeprint', function () { items.forEach(function (el, n) { if (el.open && !el.classList.contains('hid')) renderItem(n); }); });
  function setToolbarVar() { document.documentElement.style.setProperty('--tb', toolbar.offsetHeight + 'px'); }
  window.addEventListener('resize', setToolbarVar);
  window.addEventListener('hashchange', function () { if (location.hash.length > 1) go(decodeURIComponent(location.hash.slice(1)), false); });

  // ---- start
  readParams();
  apply();
  setToolbarVar();
  var budget = EAGER;
  items.forEach(function (el, n) {
    if (!el.open || el.classList.contains('hid')) return;
    if (budget > 0) { budget -= Math.min(CHUNK, D.items[n].f.length) || 1; renderItem(n); } else later(n);
  });
  if (location.hash.length > 1) go(decodeURIComponent(location.hash.slice(1)), false);
  body.dataset.initMs = Math.round(performance.now() - started);
  body.dataset.ready = '1';
})();

// Requirements coverage: the chips of a card open the table filtered by
// their status; the table filters by status, evidence, level, dialect and
// text, one class per row.
(function () {
  'use strict';
  var box = document.getElementById('cov-table-box');
  if (!box) return;
  var rows = [].slice.call(box.querySelectorAll('tr.crow'));
  var hay = rows.map(function (r) { return r.textContent.toLowerCase(); });
  var sel = { status: document.getElementById('cov-status'), ev: document.getElementById('cov-ev'),
    level: document.getElementById('cov-level'), dialect: document.getElementById('cov-dialect') };
  var q = document.getElementById('cov-q');
  var shown = document.getElementById('cov-shown');
  function val(el) { return el ? el.value : ''; }
  function apply() {
    var st = val(sel.status), ev = val(sel.ev), lv = val(sel.level), di = val(sel.dialect);
    var words = q.value.toLowerCase().split(/\s+/).filter(Boolean);
    var n = 0;
    rows.forEach(function (r, i) {
      var d = r.dataset;
      var ok = (!st || d.status === st) && (!ev || d.ev === ev) && (!lv || d.level === lv) && (!di || d.dialect === di) &&
        words.every(function (w) { return hay[i].indexOf(w) >= 0; });
      r.classList.toggle('hid', !ok);
      if (ok) n++;
    });
    shown.textContent = n + ' of ' + rows.length;
  }
  Object.keys(sel).forEach(function (k) { if (sel[k]) sel[k].addEventListener('change', apply); });
  q.addEventListener('input', apply);
  document.addEventListener('click', function (e) {
    var b = e.target.closest('button.cchip');
    if (!b) return;
    sel.status.value = b.dataset.cs;
    if (sel.ev) sel.ev.value = 'stated';
    apply();
    box.open = true;
    box.scrollIntoView({ block: 'start' });
  });
})();
