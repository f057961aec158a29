// stridescope live explorer. The page is complete without this module (the
// server renders it from the URL); this makes it live: every edit goes to
// the server over /ws (docs/protocol.md), which validates it with core,
// computes with compute and answers with templ-rendered fragments plus the
// arrays that link the two views. Large views are drawn on canvases from
// binary frames.

import { roomClient, roomFocus } from './rooms.js';
import { liveSocket, wentOffline, showFieldErrors, typed, sent, takeOwnAnswer, openedQuery, put, settle, refused, copyButtons, swapIn, reveal, boxValue, langSuffix } from './live.js';
import { num, listOf, t as tr } from './words.js';
import { offsetsOf, offsetOf as offsetAt, disjoint, holderOf } from './layout.js';
import { editHistory } from './history.js';
import { clamp, strip, panels, offsetRamp, overlayOf, panelCaptions, rgba, paintStrip, markPixels, CAPTION, canvasKey, NAV_KEYS, nudgeButtons } from './canvas.js';
import { PROTOCOL_VERSION as V, FRAME_HEADER_LEN as HDR, FRAME } from './protocol.js';

const $ = (s, r = document) => r.querySelector(s);
const $$ = (s, r = document) => [...r.querySelectorAll(s)];
const COLORS = { tail: [244, 246, 248], hole: [205, 212, 220], used: [168, 218, 220], shared: [244, 162, 97], mark: [230, 57, 70] };

export function start() {
  const form = $('#controls'), picture = $('#picture'), dot = $('#dot');
  const st = { seq: 0, ws: null, meta: null, offsets: null, counts: null, frames: 0, got: 0,
    structural: new Set(), push: new Set(), nav: new Set(), focus: null, hover: null, canvases: {} };
  document.body.dataset.live = 'connecting';
  copyButtons();
  nudgeButtons();
  const room = roomClient('layout', { apply: applyRoom });
  // Focus ids: 'l:3' logical element 3, 'b:7' buffer cell 7.
  const focusId = (t) => (t.kind === 'l' ? 'l:' + t.i : 'b:' + t.o);
  const focus = roomFocus(room, picture, {
    focused: () => st.focus && focusId(st.focus),
    show: (id) => { const [k, n] = id.split(':'); if (k === 'l' || k === 'b') show(k === 'l' ? { kind: 'l', i: +n } : { kind: 'b', o: +n }, false); },
    clear: unshow,
  });

  // ---- the websocket ----
  // connect opens the socket; liveSocket opens it again after a drop,
  // with the jittered backoff every page uses (a class whose server
  // restarts does not come back all at once, nor 10 s late).
  function connect() {
    liveSocket({
      // The form holds the state the server drew: the URL's, or a tour
      // step's own when the URL only says how to show it (?room=, ?labels=).
      // A state the rows cannot hold (nine dimensions, a list longer than
      // the sizes) goes as typed, so that its error stays.
      // A state typed while the socket was down (or before it first opened,
      // or sent and never answered) is an edit: the address bar, which
      // holds the history entry's state, and the links that follow it take
      // it once it is answered.
      open(ws) {
        st.ws = ws;
        // The page's own answer (takeOwnAnswer) needs no asking again.
        const q = typed(form) || formQuery(), own = q === st.own;
        st.own = null;
        // The state the page shows, sent again, is no new history entry.
        if (!own) send(q, true, false, q === history.state?.ss?.q || q === st.shown);
        room.open((m) => ws.send(JSON.stringify(m)));
      },
      text: onText,
      binary: onBinary,
      closed: () => wentOffline(st, room),
    });
  }
  // send sends an edit: structural ones rewrite every field from the
  // answer, push ones always make a history entry, nav ones (Back,
  // Forward, the first state) leave the history as it is.
  function send(query, structural = false, push = false, nav = false) {
    if (!st.ws) { return false; }
    sent(form, query);
    st.seq++; st.again = () => send(query, structural, push, nav);
    if (structural) st.structural.add(st.seq);
    if (push) st.push.add(st.seq);
    if (nav) st.nav.add(st.seq);
    st.ws.send(JSON.stringify({ v: V, type: 'edit', seq: st.seq, query }));
    picture.dataset.state = 'computing';
    return true;
  }
  let timer = 0;
  const sendSoon = () => { clearTimeout(timer); timer = setTimeout(() => { timer = 0; send(formQuery()); }, 150); };
  // Back and Forward are the viewer's own moves: a following viewer
  // detaches first, as with any edit of their own.
  const hist = editHistory(form, { go: (q) => { room.local(); send(q, true, false, true); }, cancel: () => clearTimeout(timer), reset: (q) => send(q, true, true) });
  hist.start(openedQuery(form, formQuery));

  function onText(m) {
    if (m.type === 'hello') { document.body.dataset.live = 'ready'; $('#live-note').hidden = false; $('#offline-note').hidden = true; $('button.apply').hidden = true; hist.show(); return; }
    if (room.message(m)) return;
    if (m.seq !== st.seq) return; // a newer edit supersedes it
    if (m.type === 'done') return finish();
    if (m.type === 'error') {
      const again = st.again;
      // Not sent again once a newer edit went, or is about to (typing).
      refused(m, picture, () => { if (st.seq === m.seq && !timer) again(); });
      return;
    }
    if (m.type !== 'result') return;
    showFieldErrors(form, m.errors, m.warnings);
    refill(m.form, st.structural.has(m.seq));
    st.shown = typed(form) || formQuery(); // the form as this answer left it
    const how = st.nav.has(m.seq) ? 'none' : st.push.has(m.seq) || st.structural.has(m.seq) ? 'push' : 'edit';
    // A state with errors is drawn only when the answer carries the
    // picture of its last valid state (an entry of the history).
    st.invalid = !settle(m, form, picture, 'tensor', setURL, how);
    if (st.invalid && !m.meta) return;
    const h = m.html; // none in the page's own answer: the page is its html
    if (h) {
      const k = h.keys || {};
      swapIn($('#logical'), h.logical, k.logical); swapIn($('#buffer'), h.buffer, k.buffer); swapIn($('#facts'), h.facts, k.facts);
      $('[data-testid=logical-sub]').textContent = h.logicalSub; $('[data-testid=buffer-sub]').textContent = h.bufferSub;
    }
    const meta = st.meta = m.meta;
    // A disjoint layout's offsets are worked out where they are needed
    // (live.js holderOf for a cell's element): a canvas of 2^24 elements
    // needs no fresh 64 MiB array of them.
    st.n = meta.logicalMode === 'none' ? 0 : meta.logicalCount;
    st.apart = disjoint(meta.sizes, meta.strides);
    st.offsets = st.apart && meta.logicalMode === 'canvas' ? null : offsetsOf(meta.sizes, meta.strides, st.n);
    st.counts = m.counts ? Uint8Array.from(m.counts, (c) => Math.min(c, 255)) : new Uint8Array(meta.bufferMode === 'none' ? 0 : meta.cells);
    st.frames = m.stream ? m.stream.countFrames : 0; st.got = 0;
    st.canvases = {};
    picture.dataset.seq = m.seq;
    if (!m.stream) finish(); else { picture.dataset.state = 'streaming'; progress(); }
  }

  function onBinary(buf) {
    const d = new DataView(buf);
    if (d.getUint8(1) !== V || d.getUint32(4, true) !== st.seq || !st.meta) return;
    const kind = d.getUint8(0), first = Number(d.getBigUint64(16, true));
    if (kind === FRAME.counts) st.counts.set(new Uint8Array(buf, HDR), first);
    else if (kind === FRAME.touched) {
      const w = new Uint32Array(buf, HDR), base = first * 64, n = st.counts.length, counts = st.counts;
      for (let k = 0; k < w.length; k++) {
        const x = w[k];
        if (x === 0) continue;
        const c0 = base + k * 32;
        if (x === 0xffffffff && c0 + 32 <= n) { counts.fill(1, c0, c0 + 32); continue; }
        for (let y = x, b = 0; y; y >>>= 1, b++) if (y & 1) { const c = c0 + b; if (c < n) counts[c] = 1; }
      }
    }
    st.got++; progress();
  }
  function progress() {
    for (const p of $$('.progress', picture)) { p.hidden = st.got >= st.frames; p.value = st.frames ? (100 * st.got) / st.frames : 100; }
  }
  function finish() {
    if (!st.meta) return;
    progress();
    if (st.meta.logicalMode === 'canvas') drawLogical();
    if (st.meta.bufferMode === 'canvas') drawBuffer();
    picture.dataset.state = st.invalid ? 'invalid' : 'done';
    // The form's focus is the typed state's, not the picture's, when the
    // picture is the last valid state.
    // It stays the page's focus (st.focus, which the rooms show again when
    // the pointer leaves the picture): a flat index kept from before an
    // edit that changed the sizes would name another element.
    const sel = st.invalid ? '' : form.elements.sel.value, cell = st.invalid ? '' : form.elements.cell.value;
    st.focus = sel ? { kind: 'l', i: indexOf(sel.split(',').map(Number)) } : cell ? { kind: 'b', o: +cell } : null;
    if (st.focus) show(st.focus, false);
    focus.drawn();
  }

  // ---- rooms: a viewer applies the presenter's state like its own edit ----
  function applyRoom(s, fresh) {
    const again = fresh || s.query !== st.roomQuery;
    if (again) { st.roomQuery = s.query; send(s.query, true); }
    focus.take(s, !again && picture.dataset.state === 'done'); // else shown when the picture is drawn
  }
  // unshow clears the highlight: the page as when nothing is pointed at.
  function unshow() {
    clearMarks();
    markCanvas('logical', []); markCanvas('buffer', []);
    const hint = document.createElement('span');
    hint.className = 'hint'; hint.textContent = tr('dot.hint');
    dot.replaceChildren(hint);
  }

  // ---- the form ----
  function formQuery() {
    const f = form.elements, parts = [];
    const add = (k, v) => parts.push(k + '=' + encodeURIComponent(v).replace(/%2C/gi, ','));
    const vals = (name) => $$(`input[name=${name}]:not(:disabled)`, form).map(boxValue);
    add('dt', f.dt.value);
    add('sizes', vals('sizes').join(','));
    if (f.mode.value !== 'packed') {
      const s = vals('strides');
      add('strides', s.join(','));
      if (s.every((x) => x === '')) add('mode', 'explicit');
    }
    for (const [k, n] of [['total', 'total'], ['align', 'align'], ['sel', 'sel'], ['cell', 'cell']]) if (f[n].value.trim()) add(k, f[n].value.trim());
    if (f.labels.value !== 'letters') add('labels', f.labels.value);
    return parts.join('&');
  }
  function refill(f, all) {
    const rows = $$('tr.dim', form), errs = $$('tr.dim-errors', form);
    rows.forEach((row, i) => {
      const on = i < f.sizes.length, [size, stride] = $$('input', row);
      put(row, 'hidden', !on); put(errs[i], 'hidden', !on); put(size, 'disabled', !on); put(stride, 'disabled', !on);
      put($('th', row), 'textContent', f.dimLabels[i] || '');
      if (all) put(size, 'value', f.sizes[i] || '');
      if (f.packed) put(stride, 'value', f.packedStrides ? String(f.packedStrides[i] ?? '') : '');
      else if (all) put(stride, 'value', f.strides[i] ?? '');
      put(stride, 'readOnly', false); // typing one makes the strides explicit
    });
    if (!all) return;
    const e = form.elements;
    put(e.dt, 'value', f.dt); put(e.rank, 'value', String(Math.min(Math.max(f.sizes.length, 1), 8))); e.mode.value = f.packed ? 'packed' : 'explicit';
    put(e.total, 'value', f.total); put(e.align, 'value', f.align); put(e.labels, 'value', f.labels); put(e.sel, 'value', f.sel); put(e.cell, 'value', f.cell);
  }
  // setURL shows a state in the address bar: how is a history.write's,
  // or 'none' for a state from the history itself.
  function setURL(q, how, sent = q) {
    room.publish({ query: q });
    // A viewer following the room keeps the room's address; one exploring
    // on their own has their edits in it, as on the page itself.
    if (room.following || how === 'none') return;
    hist.write(room.path() + '?' + q + room.urlSuffix() + langSuffix(), sent, how);
  }

  // A viewer who edits explores on their own (rooms.js).
  for (const ev of ['input', 'change', 'submit']) form.addEventListener(ev, room.local, true);
  $('.presets').addEventListener('click', (e) => e.target.closest('a[data-preset]') && room.local(), true);
  form.addEventListener('input', (e) => {
    if (e.target.type !== 'text') return;
    // Typing a stride while packed is selected makes the strides explicit:
    // the other boxes keep the packed strides they show.
    if (e.target.name === 'strides' && form.elements.mode.value === 'packed') { form.elements.mode.value = 'explicit'; clearTimeout(timer); send(formQuery(), false, true); return; }
    sendSoon();
  });
  form.addEventListener('change', (e) => {
    const n = e.target.name;
    if (n === 'rank') send(formQuery() + '&rank=' + e.target.value, true);
    else if (n === 'mode') send(formQuery(), true);
    else if (n === 'dt' || n === 'labels') send(formQuery(), false, true);
  });
  form.addEventListener('submit', (e) => { if (send(formQuery(), true)) e.preventDefault(); });
  $('.presets').addEventListener('click', (e) => {
    const a = e.target.closest('a[data-preset]');
    if (!a) return;
    const f = form.elements, q = 'preset=' + a.dataset.preset + '&dt=' + f.dt.value + '&labels=' + f.labels.value;
    if (send(q, true, true)) { hist.picked(q); e.preventDefault(); }
  });

  // ---- linking the views ----
  const coordOf = (i) => { const s = st.meta.sizes, c = new Array(s.length); for (let d = s.length - 1; d >= 0; d--) { c[d] = i % s[d]; i = Math.floor(i / s[d]); } return c; };
  const indexOf = (c) => c.reduce((i, v, d) => i * st.meta.sizes[d] + v, 0);
  const dotText = (c, o) => `{${c}} · {${st.meta.strides}} = ${c.map((v, k) => v + '×' + st.meta.strides[k]).join(' + ')} = ${o}`;
  function holders(o) {
    if (!st.offsets) { const i = holderOf(st.meta.sizes, st.meta.strides, o); return i >= 0 && i < st.n ? [i] : []; }
    const out = [];
    for (let i = 0; i < st.offsets.length; i++) if (st.offsets[i] === o) out.push(i);
    return out;
  }
  // offsetOf is logical element i's buffer offset.
  const offsetOf = (i) => (st.offsets ? st.offsets[i] : offsetAt(st.meta.sizes, st.meta.strides, i));

  // clearMarks unmarks every cell: none linked, none selected (the
  // server's aria-selected too, which names the selected cell to a screen
  // reader as the class shows it).
  function clearMarks() {
    for (const el of $$('.lc.linked, .bc.linked, .lc.sel, .bc.sel', picture)) el.classList.remove('linked', 'sel');
    for (const el of $$('[aria-selected=true]', picture)) el.setAttribute('aria-selected', 'false');
  }
  function select(el) {
    el?.classList.add('sel');
    el?.setAttribute('aria-selected', 'true');
  }

  // show highlights one target: {kind:'l', i} a logical element or {kind:'b', o} a buffer cell.
  function show(t, isFocus) {
    if (!st.meta || !t || (t.kind === 'l' && !(t.i >= 0 && t.i < st.meta.logicalCount)) || (t.kind === 'b' && !(t.o >= 0 && t.o < st.meta.cells))) return;
    clearMarks();
    let lmarks = [], bmarks = [];
    if (t.kind === 'l') {
      const o = st.n ? offsetOf(t.i) : null, c = coordOf(t.i);
      lmarks = [t.i]; if (o !== null) bmarks = [o];
      select($(`#l-${t.i}`)); $(`#b-${o}`)?.classList.add('linked');
      dot.textContent = o === null ? tr('js.element', { c }) : dotText(c, o);
      if (isFocus) { form.elements.sel.value = c.join(','); form.elements.cell.value = ''; }
    } else {
      const hs = st.n ? holders(t.o) : [];
      bmarks = [t.o]; lmarks = hs;
      select($(`#b-${t.o}`));
      for (const i of hs) $(`#l-${i}`)?.classList.add('linked');
      const list = listOf(hs, (i) => `(${coordOf(i)})`);
      dot.textContent = hs.length === 0 ? (t.o > st.meta.last ? tr('js.buffer.unused', { o: t.o }) : tr('js.buffer.padding', { o: t.o }))
        : hs.length === 1 ? tr('js.buffer.holds', { o: t.o, list }) : tr('js.buffer.shared', { o: t.o, n: num(hs.length), list });
      if (isFocus) { form.elements.cell.value = String(t.o); form.elements.sel.value = ''; }
    }
    markCanvas('logical', lmarks); markCanvas('buffer', bmarks);
    // Once every mark and the caption are written: reveal reads the
    // layout, which the next frame then need not work out again.
    if (t.kind === 'l') reveal(bmarks.length ? $(`#b-${bmarks[0]}`) : null, picture);
    else if (lmarks.length) reveal($(`#l-${lmarks[0]}`), picture);
    const cur = st.canvases[t.kind === 'l' ? 'logical' : 'buffer'];
    if (cur) cur.cursor = t.kind === 'l' ? t.i : t.o;
    room.publish({ focus: focusId(t) });
    if (isFocus) { st.focus = t; setURL(formQuery(), 'replace'); }
  }

  picture.addEventListener('pointerover', (e) => {
    const c = e.target.closest('.lc, .bc');
    if (c) show(c.classList.contains('lc') ? { kind: 'l', i: +c.dataset.i } : { kind: 'b', o: +c.dataset.o }, false);
  });
  picture.addEventListener('focusin', (e) => {
    const c = e.target.closest('.lc, .bc');
    if (!c) return;
    const grid = c.closest('#logical, #buffer');
    for (const x of $$('[tabindex="0"]', grid)) if (x !== c) x.tabIndex = -1;
    c.tabIndex = 0;
    show(c.classList.contains('lc') ? { kind: 'l', i: +c.dataset.i } : { kind: 'b', o: +c.dataset.o }, true);
  });
  picture.addEventListener('keydown', (e) => {
    const c = e.target.closest('.lc, .bc'), k = e.key;
    if (!c || !st.meta) return;
    let next = null;
    if (c.classList.contains('lc')) {
      const s = st.meta.sizes, r = s.length, co = coordOf(+c.dataset.i);
      const step = (d, by) => { if (d >= 0 && co[d] + by >= 0 && co[d] + by < s[d]) { co[d] += by; return true; } return false; };
      const moved = { ArrowRight: () => step(r - 1, 1), ArrowLeft: () => step(r - 1, -1), ArrowDown: () => step(r - 2, 1), ArrowUp: () => step(r - 2, -1),
        PageDown: () => step(r - 3, 1), PageUp: () => step(r - 3, -1), Home: () => { co[r - 1] = 0; return true; }, End: () => { co[r - 1] = s[r - 1] - 1; return true; } }[k]?.();
      if (moved) next = $(`#l-${indexOf(co)}`);
      else if (k in { ArrowRight: 1, ArrowLeft: 1, ArrowDown: 1, ArrowUp: 1, PageDown: 1, PageUp: 1 }) e.preventDefault();
    } else {
      const o = +c.dataset.o, cols = +$('.buffer').dataset.cols;
      const to = { ArrowRight: o + 1, ArrowLeft: o - 1, ArrowDown: o + cols, ArrowUp: o - cols, Home: o - (o % cols), End: Math.min(o - (o % cols) + cols, st.meta.cells) - 1 }[k];
      if (to !== undefined) next = $(`#b-${to}`) || c;
    }
    if (next) { e.preventDefault(); next.focus(); }
  });

  // ---- canvases for large views ----
  function bounds() { return { W: clamp(picture.clientWidth - 60, 320, 1100), H: 640 }; }
  function setupCanvas(name, L, n, paint) {
    const cv = $(`#${name}-canvas`);
    if (!cv) return;
    const ov = overlayOf(cv, L);
    if (name === 'logical') panelCaptions(ov, L, st.meta.sizes, st.meta.labels);
    const ctx = cv.getContext('2d'), img = ctx.createImageData(L.w, L.h);
    paint(img.data);
    ctx.putImageData(img, 0, 0);
    const c = st.canvases[name] = { ctx, img, L, cursor: -1 }; // -1: nothing selected on it yet
    const at = (e) => { const r = cv.getBoundingClientRect(); return L.fromPixel(Math.floor(((e.clientX - r.left) / r.width) * L.w), Math.floor(((e.clientY - r.top) / r.height) * L.h)); };
    const target = (k) => (name === 'logical' ? { kind: 'l', i: k } : { kind: 'b', o: k });
    // One lookup per frame, of the latest position (a buffer cell's
    // holders scan every offset): a fast pointer is not left behind.
    let raf = 0, last = -1;
    cv.onpointermove = (e) => {
      last = at(e);
      if (last >= 0 && !raf) raf = requestAnimationFrame(() => { raf = 0; if (last >= 0) show(target(last), false); });
    };
    cv.onclick = (e) => { const k = at(e); if (k >= 0) { c.cursor = k; show(target(k), true); } };
    // The keys move as in the DOM grids; #dot, a live region, names the
    // cell reached.
    cv.onkeydown = (e) => {
      if (!NAV_KEYS.has(e.key)) return;
      e.preventDefault();
      // With nothing selected yet the first key (or arrow button)
      // selects the first element rather than moving past it.
      const k = c.cursor < 0 ? 0 : canvasKey(e.key, c.cursor, n, L, name === 'logical' ? st.meta.sizes : null);
      if (k >= 0) { c.cursor = k; show(target(k), true); }
    };
    cv.onfocus = () => show(target(Math.max(0, c.cursor)), true);
  }
  function markCanvas(name, ks) {
    const c = st.canvases[name];
    if (!c) return;
    markPixels(c, [[ks, COLORS.mark]]);
  }
  function drawLogical() {
    const m = st.meta, s = m.sizes, r = s.length, n = m.logicalCount, span = Math.max(1, m.last);
    const { W, H } = bounds(), L = (r > 1 && panels(n / (s[r - 1] * s[r - 2]), s[r - 2], s[r - 1], W, H, r > 2 ? CAPTION : 0)) || strip(n, r > 1 ? s[r - 1] : 0, W, H);
    setupCanvas('logical', L, n, (px) => {
      offsetRamp(new Uint32Array(px.buffer), L, n, s, m.strides, st.offsets, span);
    });
  }
  function drawBuffer() {
    const m = st.meta, pitches = m.strides.filter((v, d) => v > 1 && m.sizes[d] > 1), { W, H } = bounds(), L = strip(m.cells, pitches.length ? Math.min(...pitches) : 0, W, H);
    setupCanvas('buffer', L, m.cells, (px) => {
      const counts = st.counts, last = m.last, codeOf = (k) => { const n = counts[k]; return n > 1 ? 3 : n === 1 ? 2 : k <= last ? 1 : 0; };
      paintStrip(px, L, m.cells, codeOf, ['tail', 'hole', 'used', 'shared'].map((k) => rgba(COLORS[k])));
    });
  }

  connect();
  // The picture the server drew is linked now when the page carries its
  // answer; the socket (whose open comes after this) is asked only for
  // what changed since.
  takeOwnAnswer(form, st, formQuery, onText);
}
