// wsproxy live view. Events arrive over Server-Sent Events (/events), a
// batch per message, are queued, and applied once per animation frame to
// a model of the rows; only the rows in view are in the document (see
// render). A row's element is built once and kept: an opened payload or a
// text selection survives every update. Findings come as HTML rendered by
// the report's template; a finding repeated on later frames of a
// connection is one line pointing at the first. With gate --replay the
// replay diffs are fetched again whenever the stream says they changed.
(function () {
  'use strict';
  var cfg = window.wsLiveConfig || {};
  var WINDOW = Math.max(100, cfg.window || 2000);
  var J = window.wscJSON;
  var $ = function (id) { return document.getElementById(id); };
  var list = $('lv-list'), pill = $('lv-pill'), empty = $('lv-empty');

  var conns = {};          // id → {id, s, pa, u, closed, cc, r, by, fr, li}
  var sessions = {};       // id → {id, sev, errors, warnings, el, ul, btn}
  var sessionOrder = [];
  var firsts = new Map();  // repeat key → the record showing that finding in full
  var types = {};
  var queue = [], scheduled = false;
  var following = true, newFrames = 0, removed = 0, dropped = 0, frameRows = 0;
  var taken = 0, lastFrame = 0; // frames the page took in, and the newest one's index
  var lastTop = 0; // the list's scrollTop as we last left it (see the scroll listener)
  var seqLabel = 'seq';
  var filters = { session: '', dir: '', type: '', sev: '', q: '' };
  var SEV = { info: 0, warning: 1, error: 2 };

  // ---- formatting
  function pad(n, w) { n = String(n); while (n.length < w) n = '0' + n; return n; }
  function clock(ms) {
    if (!ms) return '';
    var d = new Date(ms);
    return pad(d.getHours(), 2) + ':' + pad(d.getMinutes(), 2) + ':' + pad(d.getSeconds(), 2) + '.' + pad(d.getMilliseconds(), 3);
  }
  function size(n) {
    n = n || 0;
    if (n < 1024) return n + ' B';
    if (n < 1048576) return (n / 1024).toFixed(1) + ' KiB';
    return (n / 1048576).toFixed(1) + ' MiB';
  }
  function num(n) { return (n || 0).toLocaleString('en-US'); }
  // show sets an element's text and whether it is hidden, leaving it
  // untouched when both are as they were: the counters are painted with
  // every batch, and a write, even of the same text, makes the browser
  // lay the page out again.
  function show(e, text, hidden) {
    if (e.textContent !== text) e.textContent = text;
    if (hidden != null && e.hidden !== hidden) e.hidden = hidden;
  }
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text != null) e.textContent = text;
    return e;
  }

  // ---- filters in the URL
  function readFilters() {
    var u = new URLSearchParams(location.search);
    Object.keys(filters).forEach(function (k) { filters[k] = u.get(k) || ''; });
    $('f-session').value = filters.session;
    if (filters.session && !$('f-session').value) addOption($('f-session'), filters.session);
    $('f-session').value = filters.session;
    $('f-dir').value = filters.dir;
    $('f-type').value = filters.type;
    $('f-sev').value = filters.sev;
    $('f-q').value = filters.q;
    markFilters();
  }
  function writeFilters() {
    var u = new URLSearchParams(location.search);
    Object.keys(filters).forEach(function (k) { if (filters[k]) u.set(k, filters[k]); else u.delete(k); });
    var qs = u.toString();
    history.replaceState(null, '', location.pathname + (qs ? '?' + qs : '') + location.hash);
    markFilters();
  }
  function markFilters() {
    ['session', 'dir', 'type', 'sev', 'q'].forEach(function (k) { $('f-' + k).classList.toggle('on', !!filters[k]); });
  }
  function addOption(sel, value, label) {
    var o = el('option', '', label || value);
    o.value = value;
    sel.appendChild(o);
  }
  function filtering() { return !!(filters.session || filters.dir || filters.type || filters.sev || filters.q); }
  function matches(r) {
    var f = filters;
    if (f.session) {
      var s = r.s || (conns[r.c] && conns[r.c].s) || '';
      if (s !== f.session) return false;
    }
    if (f.dir && r.d !== f.dir) return false;
    if (f.type && r.y !== f.type) return false;
    if (f.sev && r.sev < SEV[f.sev]) return false;
    if (f.q && searchText(r).indexOf(f.q.toLowerCase()) < 0) return false;
    return true;
  }
  function applyFilters() {
    var pin = following ? BOTTOM : anchor();
    view = filtering() ? recs.filter(matches) : recs.slice();
    render(pin);
    paintShown();
  }
  function paintShown() {
    show($('lv-shown'), filtering() ? view.length + ' of ' + recs.length + ' rows' : '');
  }
  function onFilter(k, v) {
    filters[k] = v;
    writeFilters();
    applyFilters();
    markSessionButtons();
  }

  // ---- sidebar: sessions → connections
  function session(id) {
    var s = sessions[id];
    if (s) return s;
    s = sessions[id] = { id: id, sev: -1, errors: 0, warnings: 0 };
    sessionOrder.push(id);
    var ul = $('lv-sessions');
    if (sessionOrder.length === 1) ul.textContent = '';
    s.el = el('li');
    s.btn = el('button', 'lv-sess');
    s.btn.type = 'button';
    s.btn.setAttribute('aria-pressed', String(filters.session === id && id !== ''));
    s.dot = el('span', 'lv-dot');
    s.btn.appendChild(s.dot);
    s.btn.appendChild(el('span', 'sid', id || '(session not known yet)'));
    s.count = el('span', 'lv-n dim');
    s.btn.appendChild(s.count);
    s.btn.title = id ? 'show only session ' + id : 'connections whose session is not known yet';
    s.btn.addEventListener('click', function () {
      if (!id) return;
      var v = filters.session === id ? '' : id;
      $('f-session').value = v;
      onFilter('session', v);
    });
    s.el.appendChild(s.btn);
    s.ul = el('ul', 'lv-conns');
    s.el.appendChild(s.ul);
    if (id === '') ul.insertBefore(s.el, ul.firstChild); else ul.appendChild(s.el);
    if (id) {
      var sel = $('f-session');
      var have = false;
      for (var i = 0; i < sel.options.length; i++) if (sel.options[i].value === id) have = true;
      if (!have) addOption(sel, id);
      if (filters.session === id) sel.value = id;
    }
    paintSession(s);
    return s;
  }
  function paintSession(s) {
    var n = s.ul ? s.ul.children.length : 0;
    var parts = [n + (n === 1 ? ' conn' : ' conns')];
    if (s.errors) parts.push(s.errors + ' ✗');
    if (s.warnings) parts.push(s.warnings + ' !');
    s.count.textContent = parts.join(' · ');
    s.dot.className = 'lv-dot' + (s.sev >= 1 ? ' sev-' + s.sev : '');
    s.el.hidden = s.id === '' && n === 0;
  }
  function markSessionButtons() {
    sessionOrder.forEach(function (id) { sessions[id].btn.setAttribute('aria-pressed', String(!!id && filters.session === id)); });
  }
  function conn(id) {
    var c = conns[id];
    if (!c) c = conns[id] = { id: id, s: '' };
    return c;
  }
  function paintConn(c) {
    var s = session(c.s || '');
    if (!c.li) c.li = el('li');
    if (c.li.parentNode !== s.ul) {
      var old = c.li.parentNode;
      s.ul.appendChild(c.li);
      if (old) for (var k in sessions) if (sessions[k].ul === old) paintSession(sessions[k]);
    }
    c.li.className = c.closed ? 'closed' : 'open';
    c.li.textContent = '';
    c.li.appendChild(el('b', '', c.id));
    var path = '';
    try { path = c.u ? new URL(c.u).pathname : ''; } catch (e) { path = c.u || ''; }
    var text = ' ' + path;
    if (c.pa) text += ' · reconnects ' + c.pa;
    if (c.closed) text += ' · ' + (c.cc || '') + (c.by ? ' by ' + c.by : '');
    c.li.appendChild(document.createTextNode(text));
    c.li.title = (c.u || '') + (c.closed ? ' · closed ' + (c.cc || '') + ' ' + (c.r || '') + ' by ' + (c.by || '') + ' · ' + (c.fr || 0) + ' frames' : ' · open');
    paintSession(s);
  }
  function upsertConn(x) {
    var c = conn(x.id || x.c);
    var moved = false;
    if (x.s != null && x.s !== '' && x.s !== c.s) { c.s = x.s; moved = true; }
    if (x.pa) c.pa = x.pa;
    if (x.u) c.u = x.u;
    if (x.closed) { c.closed = true; c.cc = x.cc; c.r = x.r; c.by = x.by; c.fr = x.fr; }
    paintConn(c);
    return moved;
  }

  // ---- the model: every row the page holds, oldest first, as a record.
  // Only the rows in view, and a margin above and below, are in the
  // document; spacers stand for the others, sized from the rows' heights
  // (measured once drawn, estimated before). A following page at 5,000
  // frames/s so builds a screenful of rows per animation frame instead of
  // every row that came, and lays out a screenful instead of the window.
  // A record: its frame (f) or event (ev), frame index (i), connection,
  // session, direction, type, cells (the row's text; a frame's made when
  // first drawn), class and id;
  // severity and findings (fx); whether its payload is open; its height
  // once drawn (h), element once built (el), place in the view (top, gen),
  // search text once asked (q); gone once trimmed.
  var recs = [];
  var byIndex = new Map(); // frame index → its record
  var view = [];           // the records the filters pass, in order
  var drawn = [];          // the records in the document, in order
  var gen = 0;             // bumped by every layout: rec.gen === gen means rec is in view at rec.top
  var total = 0;           // the height of the view, in pixels
  var ROW_H = 23;          // a plain row's height (measured on the first one drawn)
  var OVER = 400;          // pixels drawn beyond the viewport, above and below
  var BOTTOM = {};         // render's pin: the end of the view at the bottom
  // A row shows the start of its payload: enough to fill the column on a
  // wide screen, and no more (400 characters instead of 160 cost the page
  // half again as much layout under load).
  var PREVIEW = 256;
  // While following traffic faster than a screenful between two draws,
  // nobody reads the rows as they pass: the page then draws at most every
  // BUSY_EVERY ms (the rows are all taken in, and drawn the moment the
  // user scrolls or the traffic slows).
  var BUSY_EVERY = 250;
  var lastDraw = 0, sinceDraw = 0, later = 0;
  var topPad = el('div', 'lv-pad'), botPad = el('div', 'lv-pad');
  list.appendChild(topPad);
  list.appendChild(botPad);

  var proto = (function () {
    var r = el('div', 'lv-r');
    var l = el('div', 'lv-l');
    ['t', 'c', 'd', 'y', 'q', 'z', 'p'].forEach(function (k) { l.appendChild(el('span', k)); });
    r.appendChild(l);
    return r;
  })();
  // frameRec is a frame's record. Its cells are made when first asked
  // (cellsOf): a page following fast traffic takes in thousands of frames
  // a second and draws a few dozen.
  function frameRec(f) {
    if (f.y && !types[f.y]) { types[f.y] = 1; addOption($('lv-types'), f.y); }
    var ctl = f.o !== 'text' && f.o !== 'binary';
    return { f: f, i: f.i, c: f.c, s: '', d: f.d, y: f.y || '', sev: -1, id: 'live-f' + f.i,
      cls: 'lv-r ' + (f.d || '') + (ctl ? ' ctl' : ''), cells: null };
  }
  function cellsOf(r) {
    if (r.cells) return r.cells;
    var f = r.f, y = f.y || (f.o === 'text' ? '(no type)' : '');
    if (f.o === 'close') y = '[close' + (f.cc ? ' ' + f.cc : '') + ']';
    else if (f.o !== 'text' && f.o !== 'binary') y = '[' + f.o + ']';
    else if (f.o === 'binary') y = '[binary]';
    var p = f.p || '';
    r.cells = [clock(f.t), f.c, f.d === 'c2s' ? '→' : '←', y, f.q || '', size(f.z), p.length > PREVIEW ? p.slice(0, PREVIEW) : p];
    return r.cells;
  }
  function eventRec(ev, y, p) {
    return { ev: ev, c: ev.c || '', s: ev.s || '', d: '', y: '', sev: -1, cls: 'lv-r lv-ev',
      cells: [clock(ev.t), ev.c || '', '', y, '', '', p] };
  }
  // searchText is what the text filter searches in a row: its type,
  // connection and payload, and its findings' rules and messages. Built
  // when first asked (most pages never search), forgotten when a finding
  // is added.
  function searchText(r) {
    if (r.q == null) {
      var t = r.f ? (r.f.y || '') + ' ' + r.f.c + ' ' + (r.f.p || '') : r.cells[3] + ' ' + r.c + ' ' + r.cells[6];
      (r.fx || []).forEach(function (e) { t += ' ' + (e.x.ru || '') + ' ' + (e.x.m || ''); });
      r.q = t.toLowerCase();
    }
    return r.q;
  }
  // build makes a record's element, once: later draws reuse it, so an
  // opened payload, a folded JSON block or an opened finding stay as the
  // user left them when the row scrolls out of view and back.
  function build(rec) {
    var r = proto.cloneNode(true), s = r.firstChild.children;
    var cells = cellsOf(rec);
    for (var k = 0; k < 7; k++) s[k].textContent = cells[k];
    r.className = rec.cls;
    if (rec.id) r.id = rec.id;
    if (rec.f) { s[4].title = rec.f.q ? seqLabel + '=' + rec.f.q : ''; s[3].title = cells[3]; }
    r._rec = rec;
    rec.el = r;
    (rec.fx || []).forEach(function (e) { findingInto(rec, e.x, e.first); });
    if (rec.open) openPayload(rec, true);
    return r;
  }
  // addFinding shows finding x on record r: in full, or, when first (the
  // record showing the same finding in full) is given, as one line
  // pointing at it. Either way the row's severity and search text take it
  // in, so the filters find a repeat as they find the first.
  function addFinding(r, x, first) {
    (r.fx || (r.fx = [])).push({ x: x, first: first });
    r.sev = Math.max(r.sev, x.sv || 0);
    r.q = null;
    r.h = 0; // measured again when drawn
    if (r.el) findingInto(r, x, first);
  }
  function findingInto(r, x, first) {
    var e = r.el;
    var box = e.lastChild && e.lastChild.className === 'lv-fx' ? e.lastChild : null;
    if (!box) { box = el('div', 'lv-fx'); e.appendChild(box); }
    if (first) box.appendChild(repeatLine(x, first));
    else if (x.h) box.insertAdjacentHTML('beforeend', x.h);
    else box.appendChild(el('p', 'sev-' + ['info', 'warning', 'error'][x.sv || 0], (x.ru || '') + ': ' + (x.m || '')));
    for (var k = 0; k <= 2; k++) e.classList.toggle('sev-' + k, k === r.sev);
  }

  // ---- repeated findings: the first finding of a kind on a connection
  // (same rule, message type and member pointer) is shown in full, its
  // repeats as one line pointing at it, so that 24 frames breaking the
  // schema the same way are not 24 cards. The full card is still the
  // report's (x.h), added to the line when it is opened.
  function repeatKey(x) {
    return x.i ? [x.c || x.s || '', x.ru || '', x.y || '', x.pt || ''].join('\u0000') : '';
  }
  // firstOf returns the record showing x in full if the page still holds
  // it (and it is not r itself); otherwise r becomes that record and it
  // returns null.
  function firstOf(x, r) {
    var k = repeatKey(x);
    if (!k) return null;
    var f = firsts.get(k);
    if (f && f !== r && byIndex.get(f.i) === f) return f;
    if (f !== r) firsts.set(k, r);
    return null;
  }
  function repeatLine(x, first) {
    var sev = ['info', 'warning', 'error'][x.sv || 0];
    var d = el('details', 'lv-rep sev-' + sev);
    var s = el('summary');
    s.appendChild(el('span', 'sev', sev));
    s.appendChild(el('code', 'rule', x.ru || ''));
    s.appendChild(document.createTextNode(' same as '));
    var a = el('a', 'lv-first', 'frame #' + first.i);
    a.href = '#' + first.id;
    s.appendChild(a);
    s.appendChild(el('span', 'lv-repm dim', x.m || ''));
    d.appendChild(s);
    d.addEventListener('toggle', function () {
      if (d.open && !d._full && x.h) { d._full = true; d.insertAdjacentHTML('beforeend', x.h); }
    });
    return d;
  }
  // showFirst scrolls to the row a repeat points at and flashes it; when
  // the page no longer holds that row or the filters hide it, the repeat
  // opens in place instead.
  function showFirst(a) {
    var t = byIndex.get(+a.hash.slice('#live-f'.length));
    if (!t || t.gen !== gen) { a.closest('details').open = true; return; }
    pause();
    render({ rec: t, off: -Math.max(0, (list.clientHeight - (t.h || ROW_H)) / 2) });
    t.el.classList.remove('flash');
    void t.el.offsetWidth; // restart the animation
    t.el.classList.add('flash');
  }

  // ---- opening a payload: pretty-printed, collapsible JSON
  function jsonTree(s) {
    var lines = J && J.prettyLines(s);
    if (!lines) return null;
    var root = el('pre', 'jt');
    var stack = [{ c: root }];
    lines.forEach(function (l) {
      var toks = l.filter(function (t) { return t[1].trim() !== ''; });
      var first = toks[0] && toks[0][1], last = toks.length ? toks[toks.length - 1][1] : '';
      var line = el('div', 'jl');
      line.innerHTML = J.linesHTML([l]);
      if ((first === '}' || first === ']') && stack.length > 1) {
        var b = stack.pop();
        line.classList.add('jx');
        b.blk.appendChild(line);
        return;
      }
      var top = stack[stack.length - 1].c;
      if (last === '{' || last === '[') {
        var blk = el('div', 'jb'), kids = el('div', 'jc');
        line.classList.add('jo');
        line.setAttribute('data-close', last === '{' ? '}' : ']');
        blk.appendChild(line);
        blk.appendChild(kids);
        top.appendChild(blk);
        stack.push({ blk: blk, c: kids });
        return;
      }
      top.appendChild(line);
    });
    return root;
  }
  // openPayload opens or closes a frame's payload (shows it open, when
  // keep: a row built again as the user left it).
  function openPayload(rec, keep) {
    var f = rec.f, r = rec.el;
    if (!f || !r) return;
    if (!r._pl) {
      var pl = el('div', 'lv-pl');
      var meta = el('p', 'lv-meta');
      var what = [size(f.z), f.o];
      if (f.b) what.push('base64');
      if (f.cut) what.push('first ' + size(f.p ? f.p.length : 0) + ' shown (the recording has it all)');
      if (f.q) what.push(seqLabel + ' ' + f.q);
      what.push('frame #' + f.i + ' on ' + f.c);
      meta.textContent = what.join(' · ');
      var tree = f.b ? null : jsonTree(f.p || '');
      var raw = el('pre', 'lv-raw', f.p || '');
      if (tree) {
        raw.hidden = true;
        var tog = el('button', '', 'raw');
        tog.type = 'button';
        tog.addEventListener('click', function (e) {
          e.stopPropagation();
          raw.hidden = !raw.hidden; tree.hidden = !tree.hidden;
          tog.textContent = raw.hidden ? 'raw' : 'pretty';
          schedule();
        });
        meta.appendChild(tog);
      }
      pl.appendChild(meta);
      if (tree) pl.appendChild(tree);
      pl.appendChild(raw);
      r.insertBefore(pl, r.firstChild.nextSibling);
      r._pl = pl;
    }
    if (!keep) rec.open = !rec.open;
    r.classList.toggle('open', !!rec.open);
  }
  list.addEventListener('click', function (e) {
    var first = e.target.closest('a.lv-first');
    if (first) { e.preventDefault(); showFirst(first); return; }
    var jo = e.target.closest('.jo');
    if (jo) { jo.parentNode.classList.toggle('shut'); schedule(); return; }
    var line = e.target.closest('.lv-l');
    if (!line || selecting()) return;
    var rec = line.parentNode._rec;
    if (rec && rec.f) {
      openPayload(rec);
      if (rec !== view[view.length - 1]) pause();
      schedule();
    }
  });
  // An opened or closed finding changes its row's height.
  list.addEventListener('toggle', function () { schedule(); }, true);
  window.addEventListener('resize', function () { schedule(); });

  // ---- drawing the view
  // layout places the view's records one under the other.
  function layout() {
    gen++;
    var y = 0;
    for (var k = 0; k < view.length; k++) {
      var r = view[k];
      r.top = y; r.gen = gen;
      y += r.h || estimate(r);
    }
    total = y;
  }
  // estimate is a row's height before it was drawn.
  function estimate(r) {
    var h = ROW_H;
    (r.fx || []).forEach(function (e) { h += e.first ? 24 : 110; });
    return h;
  }
  // indexAt is the view's record at height y (0 when the view is empty).
  function indexAt(y) {
    var lo = 0, hi = view.length - 1;
    while (lo < hi) {
      var mid = (lo + hi + 1) >> 1;
      if (view[mid].top <= y) lo = mid; else hi = mid - 1;
    }
    return lo;
  }
  // anchor is what the user sees at the top of the list: the record there
  // and how far into it, so that a render keeps it in place while rows
  // are added, trimmed, filtered or measured above it.
  function anchor() {
    var y = list.scrollTop;
    for (var k = 0; k < drawn.length; k++) {
      var e = drawn[k].el;
      if (e.offsetTop + e.offsetHeight <= y) continue;
      if (e.offsetTop <= y) return { rec: drawn[k], off: y - e.offsetTop };
      break; // y is in the spacer above the drawn rows (the user scrolled far)
    }
    if (!view.length) return null;
    var r = view[indexAt(y)];
    return { rec: r, off: y - r.top };
  }
  // render draws the rows around the pin: BOTTOM (following), a record
  // and an offset into it (see anchor), or the current scroll position
  // (null). Rows drawn for the first time are measured, and when a height
  // differs from its estimate the view is laid out and drawn again.
  function render(pin) {
    var y = 0;
    for (var pass = 0; pass < 3; pass++) {
      layout();
      var V = list.clientHeight;
      if (pin === BOTTOM) y = Math.max(0, total - V + 40);
      else if (pin && pin.rec.gen === gen) y = Math.max(0, pin.rec.top + pin.off);
      else if (pin) y = 0; // the record is gone (trimmed or filtered out)
      else y = list.scrollTop;
      var a = view.length ? indexAt(y - OVER) : 0;
      var b = view.length ? indexAt(y + V + OVER) + 1 : 0;
      place(view.slice(a, b));
      topPad.style.height = (a < view.length ? view[a].top : total) + 'px';
      botPad.style.height = (b < view.length ? total - view[b].top : 0) + 'px';
      if (!measure()) break;
    }
    if (pin === BOTTOM) list.scrollTop = list.scrollHeight;
    else list.scrollTop = y;
    lastTop = list.scrollTop;
  }
  // place puts exactly the records want in the document, in order,
  // leaving in place the rows already there.
  function place(want) {
    var keep = new Set(want);
    for (var k = 0; k < drawn.length; k++) if (!keep.has(drawn[k])) drawn[k].el.remove();
    var node = topPad.nextSibling;
    for (k = 0; k < want.length; k++) {
      var e = want[k].el || build(want[k]);
      if (e === node) node = node.nextSibling;
      else list.insertBefore(e, node);
    }
    drawn = want;
  }
  // measure takes the heights of the drawn rows; it reports whether any
  // changed.
  function measure() {
    var changed = false;
    for (var k = 0; k < drawn.length; k++) {
      var r = drawn[k], h = r.el.offsetHeight;
      if (!h || h === r.h) continue;
      if (!r.fx && !r.open && !r.ev && ROW_H !== h) { ROW_H = h; changed = true; }
      if (h !== (r.h || estimate(r))) changed = true;
      r.h = h;
    }
    return changed;
  }

  // ---- following
  function atBottom() { return list.scrollHeight - list.scrollTop - list.clientHeight < 8; }
  function selecting() {
    var s = window.getSelection && window.getSelection();
    return !!(s && !s.isCollapsed && s.anchorNode && list.contains(s.anchorNode));
  }
  function pause() { following = false; }
  function paintPill() {
    show(pill, newFrames + (newFrames === 1 ? ' new frame ↓' : ' new frames ↓'), following || newFrames === 0);
  }
  // Following stops when the user goes up, not when the list merely stops
  // being at the bottom: the header growing (a notice) or rows trimmed
  // above also move the bottom, and must not end the follow.
  list.addEventListener('scroll', function () {
    var top = list.scrollTop;
    if (atBottom()) following = true;
    else if (top < lastTop - 2) following = false;
    lastTop = top;
    if (following) newFrames = 0;
    paintPill();
    schedule(); // draw what scrolled into view
  }, { passive: true });
  pill.addEventListener('click', function () {
    following = true; newFrames = 0;
    render(BOTTOM);
    paintPill();
  });

  // ---- applying a batch of events, once per animation frame
  function schedule() {
    if (!scheduled) { scheduled = true; requestAnimationFrame(flush); }
  }
  function flush() {
    scheduled = false;
    // Where the user is, taken before the batch changes the view.
    var pin = following && !selecting() ? BOTTOM : anchor();
    var batch = queue;
    queue = [];
    var framesIn = 0;
    for (var i = 0; i < batch.length; i++) if (batch[i].k === 'f') framesIn++;
    var skip = Math.max(0, framesIn - WINDOW); // older than the window: never shown
    var added = 0, refilter = false, filtered = filtering();
    for (i = 0; i < batch.length; i++) {
      var ev = batch[i], r = null;
      switch (ev.k) {
        case 'hello': hello(ev); break;
        case 'stats': stats(ev); break;
        case 'f':
          if (skip > 0) { skip--; removed++; break; }
          r = frameRec(ev);
          byIndex.set(ev.i, r);
          frameRows++;
          taken++;
          lastFrame = ev.i;
          break;
        case 'o':
          upsertConn({ c: ev.c, s: ev.s, u: ev.u });
          var path = ev.u || '';
          try { path = new URL(ev.u).pathname + new URL(ev.u).search; } catch (e) { /* as sent */ }
          r = eventRec(ev, 'open', path + (ev.s ? ' · session ' + ev.s : ''));
          break;
        case 's':
          if (upsertConn({ c: ev.c, s: ev.s, pa: ev.pa })) refilter = true;
          break;
        case 'c':
          upsertConn({ c: ev.c, closed: true, cc: ev.cc, r: ev.r, by: ev.by, fr: ev.fr });
          r = eventRec(ev, 'closed' + (ev.cc ? ' ' + ev.cc : ''), (ev.r ? '"' + ev.r + '" ' : '') + 'by ' + (ev.by || '?') + ' · ' + num(ev.fr) + ' frames');
          break;
        case 'x':
          var s = session(ev.s || '');
          if ((ev.sv || 0) > s.sev) s.sev = ev.sv || 0;
          if (ev.sv === 2) s.errors++; else if (ev.sv === 1) s.warnings++;
          paintSession(s);
          var target = ev.i ? byIndex.get(ev.i) : null;
          if (target) {
            addFinding(target, ev, firstOf(ev, target));
            if (filtered) refilter = true;
          } else {
            r = eventRec(ev, 'finding', ev.i ? 'frame #' + ev.i + ' (not on the page)' : (ev.ru || ''));
            r.d = ev.d || ''; r.y = ev.y || '';
            addFinding(r, ev);
          }
          break;
        case 'd':
          dialect(ev.dl, ev.r, ev.sl);
          break;
        case 'n':
          if (ev.e) r = eventRec(ev, 'error', ev.r || '');
          break;
        case 'replays':
          replays();
          break;
      }
      if (r) {
        recs.push(r);
        if (!filtered || matches(r)) {
          view.push(r);
          if (r.f) added++;
        }
      }
    }
    if (recs.length && empty.parentNode) empty.remove();
    trim();
    if (refilter) view = recs.filter(matches);
    if (added && !following) newFrames += added;
    sinceDraw += added;
    if (!busy(pin)) {
      render(pin);
      lastDraw = performance.now();
      sinceDraw = 0;
    }
    paintPill();
    paintRemoved();
    paintShown();
  }

  // busy says whether to skip this draw (see BUSY_EVERY), and if so makes
  // sure the page draws when the time is up.
  function busy(pin) {
    var wait = BUSY_EVERY - (performance.now() - lastDraw);
    if (pin !== BOTTOM || wait <= 0 || sinceDraw * ROW_H < list.clientHeight) return false;
    if (!later) later = setTimeout(function () { later = 0; schedule(); }, wait);
    return true;
  }

  // trim keeps the newest WINDOW frames (twice that while the user reads
  // above the bottom); a row opened or holding the selection stays.
  function trim() {
    var limit = following ? WINDOW : 2 * WINDOW;
    if (frameRows <= limit) return;
    var sel = window.getSelection && window.getSelection();
    var range = sel && sel.rangeCount && !sel.isCollapsed ? sel.getRangeAt(0) : null;
    var kept = [], k = 0;
    for (; k < recs.length && frameRows > WINDOW; k++) {
      var r = recs[k];
      if (r.open || (range && r.el && r.el.isConnected && range.intersectsNode(r.el))) { kept.push(r); continue; }
      if (r.f) {
        frameRows--; removed++;
        if (byIndex.get(r.i) === r) byIndex.delete(r.i);
      }
      r.gone = true;
    }
    recs = kept.concat(recs.slice(k));
    view = view.filter(function (r) { return !r.gone; });
  }
  function paintRemoved() {
    var e = $('lv-removed');
    show(e, num(removed) + ' older frames off the page', removed === 0);
  }
  function dialect(name, reason, sl) {
    var d = $('lv-dialect');
    d.hidden = false;
    d.textContent = name ? name : 'dialect not detected';
    d.title = reason || '';
    if (sl) { seqLabel = sl; $('lv-seqlabel').textContent = sl; }
  }
  function hello(h) {
    var st = h.state || {};
    (st.conns || []).forEach(function (c) { upsertConn(c); });
    if (st.dialect) dialect(st.dialect, st.reason, h.sl);
    stats({ dropped: dropped, totals: st.totals });
    var har = $('lv-har');
    if (!h.har) { har.setAttribute('aria-disabled', 'true'); har.title = 'no recording to export'; }
  }
  function stats(s) {
    var t = s.totals || {};
    show($('lv-frames'), num(t.frames));
    show($('lv-errors'), num(t.errors));
    show($('lv-warnings'), num(t.warnings));
    if (s.dropped != null && s.dropped > dropped) dropped = s.dropped;
    var e = $('lv-dropped');
    show(e, num(dropped) + ' updates dropped for this page', dropped === 0);
  }

  // ---- the stream
  function connState(state, text) {
    var e = $('lv-conn');
    e.setAttribute('data-state', state);
    e.textContent = text;
    document.body.setAttribute('data-stream', state);
  }
  function onEvent(m) {
    var ev;
    try { ev = JSON.parse(m.data); } catch (e) { return; }
    if (Array.isArray(ev)) for (var i = 0; i < ev.length; i++) queue.push(ev[i]); // a batch
    else queue.push(ev);
    if (queue.length > 8 * WINDOW) compact();
    schedule();
  }
  // compact drops the oldest queued frames while the page is not drawing
  // (a background tab): the rest of the queue is kept.
  function compact() {
    var n = 0, keepFrom = queue.length - 2 * WINDOW;
    queue = queue.filter(function (ev, i) {
      if (ev.k === 'f' && i < keepFrom) { n++; return false; }
      return true;
    });
    removed += n;
  }
  function connect() {
    var es = new EventSource('events');
    es.onopen = function () { connState('live', 'live'); };
    es.onmessage = onEvent;
    es.onerror = function () {
      if (es.readyState === EventSource.CLOSED) connState('stopped', 'stopped');
      else connState('retrying', 'reconnecting… (is wsproxy still running?)');
    };
  }

  // ---- replay diffs (gate --replay), as the report shows them. The
  // stream says when they changed ("replays", also when it opens); the page
  // fetches them (one fetch at a time, one more if told meanwhile) and
  // swaps only the diffs whose HTML changed. What the user opened or closed
  // is kept by a key that survives a fetch (the connections, the row's
  // anchor), and so is the part of the section in view.
  var rep = { busy: false, again: false, html: null, open: new Map() };
  function replays() {
    if (!cfg.replays) return;
    if (rep.busy) { rep.again = true; return; }
    rep.busy = true;
    fetch('replays', { cache: 'no-store' }).then(function (r) { return r.ok ? r.text() : ''; })
      .then(function (html) { if (html) showReplays(html); })
      .catch(function () { /* the proxy stopped */ })
      .then(function () {
        rep.busy = false;
        if (rep.again) { rep.again = false; replays(); }
      });
  }
  function showReplays(html) {
    if (html === rep.html) return;
    rep.html = html;
    var sec = $('lv-replays'), body = $('lv-replays-body');
    sec.hidden = false;
    var anchor = viewAnchor(sec, body);
    var tpl = document.createElement('template');
    tpl.innerHTML = html; // rendered by the report's template, escaped there
    var seen = {}, cur = body.firstElementChild;
    [].slice.call(tpl.content.children).forEach(function (d) {
      var k = diffKey(d, seen), src = d.outerHTML;
      if (cur && cur._key === k && cur._src === src) { cur = cur.nextElementSibling; return; }
      d._key = k; d._src = src;
      restoreOpen(d);
      if (cur && cur._key === k) {
        var next = cur.nextElementSibling;
        body.replaceChild(d, cur);
        cur = next;
      } else body.insertBefore(d, cur);
    });
    while (cur) { var n = cur.nextElementSibling; cur.remove(); cur = n; }
    keepAnchor(sec, body, anchor);
  }
  // diffKey names a diff by its recorded and replayed connections and its
  // side (and which of the same it is): stable while its rows grow.
  function diffKey(d, seen) {
    var ids = d.querySelectorAll(':scope > summary .sid');
    var k = (d.getAttribute('data-conn') || '') + '>' + (ids.length > 1 ? ids[1].textContent : '') + ' ' + (d.getAttribute('data-side') || '');
    seen[k] = (seen[k] || 0) + 1;
    return k + '#' + seen[k];
  }
  // openKey names a details element of a diff: the diff, a row (its
  // anchor holds its index), or a run of identical rows (its first row).
  function openKey(e) {
    var d = e.closest('.rdiff');
    if (!d || !d._key) return '';
    if (e === d) return d._key;
    if (e.classList.contains('rr')) return d._key + ' ' + e.id;
    var first = e.querySelector('details.rr');
    return d._key + ' run ' + (first ? first.id : '');
  }
  function restoreOpen(d) {
    [d].concat([].slice.call(d.querySelectorAll('details'))).forEach(function (e) {
      var k = openKey(e);
      if (rep.open.has(k)) e.open = rep.open.get(k);
    });
  }
  $('lv-replays-body').addEventListener('toggle', function (e) {
    var k = openKey(e.target);
    if (k) rep.open.set(k, e.target.open);
  }, true);
  // viewAnchor is the diff at the top of the section's view and where it
  // is. When that diff is kept as it was, the browser's scroll anchoring
  // keeps it in place (also when rows above it are laid out later); when
  // it was replaced, keepAnchor scrolls the new one to where it was.
  function viewAnchor(sec, body) {
    if (sec.scrollTop === 0) return null;
    var top = sec.getBoundingClientRect().top;
    for (var d = body.firstElementChild; d; d = d.nextElementSibling) {
      var r = d.getBoundingClientRect();
      if (r.bottom > top) return { el: d, key: d._key, off: r.top - top };
    }
    return null;
  }
  function keepAnchor(sec, body, a) {
    if (!a || a.el.parentNode === body) return;
    for (var d = body.firstElementChild; d; d = d.nextElementSibling) {
      if (d._key === a.key) {
        sec.scrollTop += d.getBoundingClientRect().top - sec.getBoundingClientRect().top - a.off;
        return;
      }
    }
  }

  // ---- wiring
  readFilters();
  $('f-session').addEventListener('change', function (e) { onFilter('session', e.target.value); });
  $('f-dir').addEventListener('change', function (e) { onFilter('dir', e.target.value); });
  $('f-sev').addEventListener('change', function (e) { onFilter('sev', e.target.value); });
  $('f-type').addEventListener('change', function (e) { onFilter('type', e.target.value.trim()); });
  var qTimer = 0;
  $('f-q').addEventListener('input', function (e) {
    clearTimeout(qTimer);
    qTimer = setTimeout(function () { onFilter('q', e.target.value.trim()); }, 150);
  });
  $('f-clear').addEventListener('click', function () {
    ['session', 'dir', 'type', 'sev', 'q'].forEach(function (k) { $('f-' + k).value = ''; filters[k] = ''; });
    onFilter('q', '');
  });
  if (!cfg.har) { $('lv-har').setAttribute('aria-disabled', 'true'); $('lv-har').title = 'no recording to export'; }
  session('');
  connect();
  // For tests, benchmarks and the curious: the page's own account of
  // itself (state) and of the rows in view, drawn or not (rows).
  window.wsLive = {
    state: function () {
      var findings = 0, repeats = 0;
      recs.forEach(function (r) { (r.fx || []).forEach(function (e) { if (e.first) repeats++; else findings++; }); });
      return { rows: recs.length, frames: frameRows, shown: view.length, drawn: drawn.length, findings: findings, repeats: repeats,
        following: following, newFrames: newFrames, pill: !pill.hidden, dropped: dropped, removed: removed,
        taken: taken, last: lastFrame, pending: scheduled || !!later, stream: document.body.getAttribute('data-stream') || '' };
    },
    rows: function () {
      return view.map(function (r) {
        return { id: r.id || '', i: r.i || 0, d: r.d || '', y: cellsOf(r)[3], sev: r.sev, open: !!r.open, ev: !!r.ev,
          drawn: !!(r.el && r.el.isConnected), text: cellsOf(r)[6],
          fx: (r.fx || []).map(function (e) { return { rule: e.x.ru || '', first: e.first ? e.first.id : '' }; }) };
      });
    }
  };
})();
