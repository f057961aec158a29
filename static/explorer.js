// stridescope live explorer. The page is complete without this module (the
// server renders it from the URL); this makes it live: every edit goes to
// the server over /ws (docs/protocol.md), which validates it with core,
// computes with compute and answers with templ-rendered fragments plus the
// arrays that link the two views. Large views are drawn on canvases from
// binary frames. The edits, the socket, the URL and the room are the edit
// client's (client.js); this module is the explorer's view: its form's
// query, the answers drawn, the logical view and the buffer linked.
// explorer-canvas.js draws the views of more than 4,096 cells: it and the
// three canvas modules it imports are loaded after a page's first frame
// when its picture is cells (ready for an edit that needs them), and
// with the page when it is drawn on canvases (ops/layout's view).

import { editClient, drawingModule } from './client.js';
import { $, $$, put, swapIn, viewIn, reveal, boxValue, gridLinks } from './live.js';
import { dimRows } from './dims.js';
import { num, listOf, t as tr } from './words.js';
import { offsetsOf, offsetOf as offsetAt, disjoint, holderOf, holdersAt, coordOf as coordIn, indexOf as indexIn, dotText, moveCoord, bufferMove } from './layout.js';
import { FRAME } from './protocol.js';

// MARKS is the most elements a buffer cell's mark lights (markPixels draws
// no more).
const MARKS = 100000;

export function start() {
  const form = $('#controls'), picture = $('#picture'), dot = $('#dot');
  const st = { meta: null, offsets: null, counts: null, focus: null, canvases: {} };
  // Focus ids: 'l:3' logical element 3, 'b:7' buffer cell 7.
  const focusId = (t) => (t.kind === 'l' ? 'l:' + t.i : 'b:' + t.o);
  const client = editClient(form, picture, {
    page: 'layout', what: 'tensor', pushes: ['dt', 'labels', 'order'],
    formQuery, onForm, onResult, onFrame, onDone,
    presetQuery: (a) => 'preset=' + a.dataset.preset + '&dt=' + form.elements.dt.value + '&labels=' + form.elements.labels.value,
    focus: {
      focused: () => st.focus && focusId(st.focus),
      show: (id) => { const [k, n] = id.split(':'); if (k === 'l' || k === 'b') show(k === 'l' ? { kind: 'l', i: +n } : { kind: 'b', o: +n }, false); },
      clear: unshow,
    },
  });
  const room = client.room;
  let C = null; // the canvases' functions (explorer-canvas.js), once loaded
  const canvases = drawingModule(picture, () => import('./explorer-canvas.js').then((mod) => { C = mod.layoutCanvases({ picture, st, show }); }));
  const markCanvas = (name, ks) => C?.markCanvas(name, ks);

  // ---- the answers ----
  function onForm(m, sent) { refill(m.form, !!sent.structural); }
  function onResult(m) {
    const h = m.html; // none in the page's own answer: the page is its html
    if (h) {
      const k = h.keys || {};
      viewIn($('#logical'), h.logical, k.logical, m.meta.logicalMode); viewIn($('#buffer'), h.buffer, k.buffer, m.meta.bufferMode); swapIn($('#facts'), h.facts, k.facts);
      $('[data-testid=logical-sub]').textContent = h.logicalSub; $('[data-testid=buffer-sub]').textContent = h.bufferSub;
    }
    const meta = st.meta = m.meta;
    // A disjoint layout's offsets are worked out where they are needed
    // (layout.js holderOf for a cell's element): a canvas of 2^24
    // elements needs no fresh 64 MiB array of them.
    st.n = meta.logicalMode === 'none' ? 0 : meta.logicalCount;
    st.apart = disjoint(meta.sizes, meta.strides);
    // Nor does an overlapping one: a cell's elements are found row by
    // row (holdersAt) when it is pointed at.
    st.offsets = meta.logicalMode === 'canvas' ? null : offsetsOf(meta.sizes, meta.strides, st.n);
    // A buffer of cells held at most once comes as compute's bitmap
    // (touched frames), which is kept as it came and drawn a pixel at a
    // time: 2 MiB at 2^24 cells rather than a 16 MiB byte per cell.
    const touched = m.stream?.countKind === 'touched';
    st.touched = touched ? new Uint32Array(2 * Math.ceil(meta.cells / 64)) : null;
    st.counts = touched ? null : m.counts ? Uint8Array.from(m.counts, (c) => Math.min(c, 255)) : new Uint8Array(meta.bufferMode === 'none' ? 0 : meta.cells);
    st.canvases = {};
    // A picture without frames is complete with its result: it is linked
    // now, not a message later (its done comes all the same).
    if (!m.stream) client.finish();
  }
  function onFrame(kind, first, payload) {
    if (kind === FRAME.counts) st.counts?.set(payload(Uint8Array), first);
    else if (kind === FRAME.touched) st.touched?.set(payload(Uint32Array), 2 * first);
  }
  // onDone draws the canvases; the first picture that needs them waits
  // for their module (its promise tells the client when it is drawn),
  // unless a newer answer came.
  function onDone() {
    const m = st.meta;
    if (!C && (m.logicalMode === 'canvas' || m.bufferMode === 'canvas')) return canvases().then(() => { if (st.meta === m) draw(); });
    draw();
  }
  function draw() {
    if (st.meta.logicalMode === 'canvas') C.drawLogical();
    if (st.meta.bufferMode === 'canvas') C.drawBuffer();
    // The form's focus is the typed state's, not the picture's, when the
    // picture is the last valid state.
    // It stays the page's focus (st.focus, which the rooms show again when
    // the pointer leaves the picture): a flat index kept from before an
    // edit that changed the sizes would name another element.
    const sel = client.invalid ? '' : form.elements.sel.value, cell = client.invalid ? '' : form.elements.cell.value;
    st.focus = sel ? { kind: 'l', i: indexOf(sel.split(',').map(Number)) } : cell ? { kind: 'b', o: +cell } : null;
    if (st.focus) show(st.focus, false);
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
    if (f.mode.value === 'rows') {
      // The server computes the strides: they follow the sizes.
      add('mode', 'rows');
      if (f.order.value) add('order', f.order.value);
      if (f.pitch.value.trim()) add('pitch', f.pitch.value.trim());
    } else if (f.mode.value !== 'packed') {
      const s = vals('strides');
      add('strides', s.join(','));
      if (s.every((x) => x === '')) add('mode', 'explicit');
    }
    for (const [k, n] of [['total', 'total'], ['align', 'align'], ['sel', 'sel'], ['cell', 'cell']]) if (f[n].value.trim()) add(k, f[n].value.trim());
    if (f.labels.value !== 'letters') add('labels', f.labels.value);
    return parts.join('&');
  }
  function refill(f, all) {
    dimRows(form, f.sizes.length, f.dimLabels, (row, i) => {
      const [size, stride] = $$('input', row);
      if (all) put(size, 'value', f.sizes[i] || '');
      if (f.packed) put(stride, 'value', f.packedStrides ? String(f.packedStrides[i] ?? '') : '');
      else if (all || f.rows) put(stride, 'value', f.strides[i] ?? '');
      put(stride, 'readOnly', false); // typing one makes the strides explicit
    });
    if (!all) return;
    const e = form.elements;
    put(e.dt, 'value', f.dt); put(e.rank, 'value', String(Math.min(Math.max(f.sizes.length, 1), 8))); e.mode.value = f.packed ? 'packed' : f.rows ? 'rows' : 'explicit';
    put(e.order, 'value', f.order || ''); put(e.pitch, 'value', f.pitch || '');
    for (const o of e.order.options) put(o, 'disabled', o.value !== '' && o.value.length !== f.sizes.length);
    put(e.total, 'value', f.total); put(e.align, 'value', f.align); put(e.labels, 'value', f.labels); put(e.sel, 'value', f.sel); put(e.cell, 'value', f.cell);
  }

  form.addEventListener('input', (e) => {
    if (e.target.type !== 'text') return;
    if (!client.typedStride(e)) client.soon(() => client.send(formQuery()));
  });
  form.addEventListener('submit', (e) => { if (client.send(formQuery(), { structural: true })) e.preventDefault(); });

  // ---- linking the views ----
  const coordOf = (i) => coordIn(st.meta.sizes, i);
  const indexOf = (c) => indexIn(st.meta.sizes, c);
  // holders are the elements at buffer offset o: at most the first
  // MARKS of them, and how many in all (total).
  function holders(o) {
    if (!st.offsets && st.apart) { const i = holderOf(st.meta.sizes, st.meta.strides, o); return i >= 0 && i < st.n ? [i] : []; }
    if (!st.offsets) { const h = holdersAt(st.meta.sizes, st.meta.strides, st.n, o, MARKS); return Object.assign(h.list, { total: h.count }); }
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
      dot.textContent = o === null ? tr('js.element', { c }) : dotText(c, st.meta.strides);
      if (isFocus) { form.elements.sel.value = c.join(','); form.elements.cell.value = ''; }
    } else {
      const hs = st.n ? holders(t.o) : [];
      bmarks = [t.o]; lmarks = hs;
      select($(`#b-${t.o}`));
      for (const i of hs) $(`#l-${i}`)?.classList.add('linked');
      const list = listOf(hs, (i) => `(${coordOf(i)})`), count = hs.total ?? hs.length;
      dot.textContent = count === 0 ? (t.o > st.meta.last ? tr('js.buffer.unused', { o: t.o }) : tr('js.buffer.padding', { o: t.o }))
        : count === 1 ? tr('js.buffer.holds', { o: t.o, list }) : tr('js.buffer.shared', { o: t.o, n: num(count), list });
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
    if (isFocus) { st.focus = t; client.setURL(formQuery(), 'replace'); }
  }

  const cellTarget = (c) => (c.classList.contains('lc') ? { kind: 'l', i: +c.dataset.i } : { kind: 'b', o: +c.dataset.o });
  gridLinks(picture, '#logical, #buffer', () => !!st.meta, (c, isFocus) => show(cellTarget(c), isFocus), (c, k, e) => {
    if (c.classList.contains('lc')) {
      const co = coordOf(+c.dataset.i);
      if (moveCoord(st.meta.sizes, co, k)) return $(`#l-${indexOf(co)}`);
      if (k in { ArrowRight: 1, ArrowLeft: 1, ArrowDown: 1, ArrowUp: 1, PageDown: 1, PageUp: 1 }) e.preventDefault();
      return null;
    }
    const to = bufferMove(k, +c.dataset.o, +$('.buffer').dataset.cols, st.meta.cells);
    return to === undefined ? null : $(`#b-${to}`) || c;
  });

  client.start();
}
