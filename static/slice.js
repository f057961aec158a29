// stridescope DML_SLICE1 explorer. The page is complete without this
// module (the server renders it from the URL, and the step-through's
// Back/Step links work); this makes it live: every edit goes to the
// server over /ws with "page":"slice" (docs/protocol.md, "The slice
// explorer"), which validates it with core, copies the input with compute
// and answers with templ-rendered fragments. This module swaps them in,
// links the input, its buffer and the output cell by cell (pointer and
// keyboard, both ways) and plays the copy step by step. A view of more
// than 4,096 cells is drawn on a canvas from the binary frames that follow
// the result (the elements copied, the cells read, the values: all
// computed by the server's compute package).

import { $, $$, liveSocket, wentOffline, showFieldErrors, typed, sent, takeOwnAnswer, openedQuery, put, settle, refused, queryOf, copyButtons, swapIn, reveal, boxValue, langSuffix } from './live.js';
import { num, listOf, t as tr } from './words.js';
import { moveCoord, coordOf, indexOf, dotText, offsetsOf, offsetOf, disjoint, holderOf } from './layout.js';
import { editHistory } from './history.js';
import { roomClient, roomFocus } from './rooms.js';
import { fillInput, sliceOutput, cellCounts, outputEnds, half, halves } from './fill.js';
import { clamp, strip, panels, overlayOf, place, panelCaptions, rgba, rampPacked, rowPixels, pixelRuns, inputCodes, paintStrip, markPixels, CAPTION, canvasKey, NAV_KEYS, nudgeButtons } from './canvas.js';
import { PROTOCOL_VERSION as V, FRAME_HEADER_LEN as HDR, FRAME } from './protocol.js';

// The canvases' colours (slice.css gives the legends' swatches the same).
const C = { outside: [233, 236, 239], win: [189, 215, 245], copied: [42, 157, 143], held: [173, 190, 209], shared: [244, 162, 97],
  hole: [222, 226, 230], tail: [250, 251, 252], plain: [168, 218, 220], cur: [255, 224, 102], mark: [230, 57, 70] };
const bit = (bm, k) => bm !== null && (bm[k >>> 5] >>> (k & 31)) & 1;

// goText writes a float as the server does (Go's strconv 'g', shortest;
// f32: the shortest that reads back as the same float32).
function goText(x, f32) {
  if (!Number.isFinite(x)) return Number.isNaN(x) ? 'NaN' : x > 0 ? '+Inf' : '-Inf';
  if (x === 0) return Object.is(x, -0) ? '-0' : '0';
  let t = x.toExponential();
  if (f32) for (let p = 0; p < 9; p++) { t = x.toExponential(p); if (Math.fround(+t) === x) break; }
  let [m, e] = t.split('e');
  const neg = m[0] === '-', d = m.replace('-', '').replace('.', ''), exp = +e;
  if (exp < -4 || exp >= 6) m = d[0] + (d.length > 1 ? '.' + d.slice(1) : '') + 'e' + (exp < 0 ? '-' : '+') + String(Math.abs(exp)).padStart(2, '0');
  else if (exp < 0) m = '0.' + '0'.repeat(-exp - 1) + d;
  else m = d.length > exp + 1 ? d.slice(0, exp + 1) + '.' + d.slice(exp + 1) : d + '0'.repeat(exp + 1 - d.length);
  return (neg ? '-' : '') + m;
}

export function start() {
  const form = $('#controls'), picture = $('#picture'), dot = $('#dot'), steps = $('#slice-steps');
  const st = { seq: 0, ws: null, meta: null, structural: new Set(), push: new Set(), nav: new Set(), npSeqs: new Set(), t: -1, timer: 0, focus: null, np: '',
    data: {}, frames: 0, got: 0, canvases: {}, marks: { in: {}, out: {}, b: {} } };
  document.body.dataset.live = 'connecting';
  copyButtons();
  nudgeButtons();
  const room = roomClient('slice', { apply: applyRoom });

  // ---- the websocket ----
  liveSocket({
    // The form holds the state the server drew: the URL's, or a tour
    // step's own when the URL only says how to show it (?room=).
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
      if (!own) send(q, true, false, false, q === history.state?.ss?.q || q === st.shown);
      room.open((m) => ws.send(JSON.stringify(m)));
    },
    text: onText,
    binary: onBinary,
    closed: () => wentOffline(st, room),
  });
  // send sends an edit: structural ones rewrite every field from the
  // answer, push ones always make a history entry, np ones come from the
  // expression box, nav ones (Back, Forward, the first state) leave the
  // history as it is.
  // npText is the expression sent, when it is not the box's (a retry).
  function send(query, structural = false, push = false, np = false, nav = false, npText = form.elements.np.value) {
    if (!st.ws) return false;
    sent(form, query);
    st.seq++; st.np = np ? npText : ''; const sentNp = st.np;
    st.again = () => send(query, structural, push, np, nav, sentNp);
    if (nav) st.nav.add(st.seq);
    if (structural) st.structural.add(st.seq);
    if (push) st.push.add(st.seq);
    if (np) st.npSeqs.add(st.seq);
    st.ws.send(JSON.stringify({ v: V, type: 'edit', page: 'slice', seq: st.seq, query }));
    picture.dataset.state = 'computing';
    return true;
  }
  let timer = 0;
  const sendSoon = (np = false) => { clearTimeout(timer); timer = setTimeout(() => { timer = 0; send(np ? npQuery() : formQuery(), false, false, np); }, 150); };
  // Back and Forward are the viewer's own moves: a following viewer
  // detaches first, as with any edit of their own.
  const hist = editHistory(form, { go: (q) => { room.local(); send(q, true, false, false, true); }, cancel: () => clearTimeout(timer), reset: (q) => send(q, true, true) });

  function onText(m) {
    if (m.type === 'hello') { document.body.dataset.live = 'ready'; $('#live-note').hidden = false; $('#offline-note').hidden = true; $('button.apply').hidden = true; hist.show(); showPlayer(); return; }
    if (room.message(m)) return;
    if (m.seq !== st.seq) return; // a newer edit supersedes it
    if (m.type === 'done') { finish(); return; }
    if (m.type === 'error') {
      const again = st.again;
      // Not sent again once a newer edit went, or is about to (typing).
      refused(m, picture, () => { if (st.seq === m.seq && !timer) again(); });
      return;
    }
    if (m.type !== 'result' || m.page !== 'slice') return;
    showFieldErrors(form, m.errors, m.warnings);
    // A window that runs out of the input is reported at its offset; its
    // size is as much to blame (as picture.SliceFormIn marks it).
    for (const e of m.errors || []) {
      const i = e.code === 'slice1.window.outside' && /^inputWindowOffsets\[(\d+)\]$/.exec(e.field);
      if (i) form.querySelector('#f-wsize-' + i[1])?.setAttribute('aria-invalid', 'true');
    }
    refill(m.form, st.structural.has(m.seq) || st.npSeqs.has(m.seq), st.npSeqs.has(m.seq));
    st.shown = typed(form) || formQuery(); // the form as this answer left it
    const h = m.html; // none in the page's own answer: the page is its html
    if (h) swapIn($('#slice-dims'), h.dims, (h.keys || {}).dims);
    // An expression that does not parse changes no window: the URL stays.
    const how = st.nav.has(m.seq) || (!m.ok && st.npSeqs.has(m.seq)) ? 'none' : st.push.has(m.seq) || st.structural.has(m.seq) ? 'push' : 'edit';
    // A slice with errors is drawn only when the answer carries the
    // picture of its last valid slice (an entry of the history).
    st.invalid = !settle(m, form, picture, 'slice', setURL, how);
    if (st.invalid && !m.meta) return;
    stop();
    if (h) {
      const k = h.keys || {};
      swapIn($('#slice-input'), h.input, k.input); swapIn($('#slice-output'), h.output, k.output); swapIn($('#slice-buffer'), h.buffer, k.buffer);
      swapIn($('#slice-facts'), h.facts, k.facts); swapIn(steps, h.steps, k.steps);
      $('#input-sub').textContent = h.inputSub; $('#output-sub').textContent = h.outputSub; $('#buffer-sub').textContent = h.bufferSub;
    }
    const meta = st.meta = m.meta;
    picture.dataset.seq = m.seq;
    // The arrays the canvases are drawn from: the bitmaps from the
    // frames, the rest computed here from the meta (fill.js).
    const s = m.stream || {}, words = (n) => new Uint32Array(2 * Math.ceil(n / 64));
    const inCv = meta.inputMode === 'canvas', bufCv = meta.bufferMode === 'canvas', outCv = meta.outputMode === 'canvas';
    // The input's offsets, values and cell counts depend on the input
    // alone: an edit of the window or the output reuses them.
    const vals = meta.fill && (inCv || bufCv || outCv);
    const key = JSON.stringify([meta.dataType, meta.sizes, meta.strides, meta.inputCount, meta.cells, meta.pattern || '']);
    const input = st.input && st.input.key === key ? st.input : (st.input = { key });
    // A disjoint layout (each element a cell of its own) needs no array
    // of offsets: its rows are walked, its holders worked out.
    input.apart ??= disjoint(meta.sizes, meta.strides);
    const offsets = !input.apart && (inCv || bufCv || vals) ? (input.offsets ??= offsetsOf(meta.sizes, meta.strides, meta.inputCount)) : null;
    const inVals = vals ? (input.values ??= fillInput(meta, offsets)) : null;
    st.data = {
      copied: s.copiedFrames ? words(meta.inputCount) : null, offsets, apart: input.apart,
      counts: bufCv ? (input.counts ??= cellCounts(meta.cells, offsets, meta)) : null, read: s.readFrames ? words(meta.cells) : null,
      inVals, outVals: vals && outCv ? sliceOutput(meta, inVals, st.data?.outVals) : null,
    };
    st.frames = m.stream ? Object.values(s).reduce((a, b) => a + b, 0) : 0; st.got = 0;
    st.canvases = {}; st.marks = { in: {}, out: {}, b: {} };
    if (m.stream) { picture.dataset.state = 'streaming'; progress(); }
    showPlayer();
    st.t = Math.min(m.form.t === '' ? -1 : +m.form.t, meta.steps - 1); // shown with the picture, at done
  }
  function onBinary(buf) {
    const d = new DataView(buf), D = st.data;
    if (d.getUint8(1) !== V || d.getUint32(4, true) !== st.seq || !st.meta) return;
    const kind = d.getUint8(0), first = Number(d.getBigUint64(16, true));
    if (kind === FRAME.copied && D.copied) D.copied.set(new Uint32Array(buf, HDR), 2 * first);
    else if (kind === FRAME.touched && D.read) D.read.set(new Uint32Array(buf, HDR), 2 * first);
    st.got++; progress();
  }
  function progress() {
    for (const p of $$('.progress', picture)) { p.hidden = st.got >= st.frames; p.value = st.frames ? (100 * st.got) / st.frames : 100; }
  }
  // finish draws the canvases once every frame of the edit is in.
  function finish() {
    const m = st.meta;
    if (!m) return;
    progress();
    if (m.inputMode === 'canvas') drawInput();
    if (m.outputMode === 'canvas') drawOutput();
    if (m.bufferMode === 'canvas') drawBuffer();
    picture.dataset.state = st.invalid ? 'invalid' : 'done';
    setStep(st.t, false);
    if (st.focus) link(targetOf(st.focus), false);
    focus.drawn();
  }

  // ---- the form ----
  const vals = (name) => $$(`[name=${name}]:not(:disabled)`, form).map(boxValue);
  function formQuery() {
    const f = form.elements, p = [['dt', f.dt.value], ['sizes', vals('sizes').join(',')]];
    if (f.mode.value !== 'packed') {
      const s = vals('strides');
      p.push(['strides', s.join(',')]);
      if (s.every((x) => x === '')) p.push(['mode', 'explicit']);
    }
    for (const k of ['total', 'align']) if (f[k].value.trim()) p.push([k, f[k].value.trim()]);
    p.push(['woff', vals('woff').join(',')], ['wsize', vals('wsize').join(',')], ['wstride', vals('wstride').join(',')]);
    const out = vals('out');
    if (out.some((x) => x !== '')) p.push(['out', out.join(',')]);
    p.push(['fl', f.fl.value]);
    if (f.vals.value.trim()) p.push(['vals', f.vals.value.trim()]);
    if (f.t.value !== '') p.push(['t', f.t.value]);
    return queryOf(p);
  }
  const npQuery = () => formQuery() + '&' + queryOf([['np', form.elements.np.value], ['use', 'np']]);
  // refill writes the server's form back: every input after a preset, a
  // rank change or an expression (all), the placeholders and packed
  // strides always; the expression box unless the user is typing in it.
  function refill(f, all, typingNP) {
    const n = f.sizes.length;
    for (const row of $$('tr.dim, tr.dim-errors', form)) {
      const i = +row.dataset.dim, on = i < n;
      put(row, 'hidden', !on);
      for (const el of $$('input', row)) put(el, 'disabled', !on);
      put($('th', row), 'textContent', f.dimLabels[i] || '');
      const set = (name, v) => { if (all || name === 'strides' && f.packed) put($(`[name=${name}]`, row), 'value', v ?? ''); };
      set('sizes', f.sizes[i]); set('strides', f.strides[i]); set('woff', f.woff[i]); set('wsize', f.wsize[i]); set('wstride', f.wstride[i]); set('out', f.out[i]);
      put($('[name=out]', row), 'placeholder', f.outMax[i] || '');
      put($('[name=strides]', row), 'readOnly', false); // typing one makes the strides explicit
    }
    const e = form.elements;
    // An invalid window has no expression: the box keeps the last one.
    if (f.np !== '' && (!typingNP || document.activeElement !== e.np)) put(e.np, 'value', f.np);
    if (!all) return;
    put(e.dt, 'value', f.dt); put(e.rank, 'value', String(n)); e.mode.value = f.packed ? 'packed' : 'explicit'; put(e.fl, 'value', f.fl);
    put(e.total, 'value', f.total); put(e.align, 'value', f.align);
    put(e.vals, 'value', f.vals); put(e.t, 'value', f.t);
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

  for (const ev of ['input', 'change', 'submit']) form.addEventListener(ev, room.local, true);
  $('.presets').addEventListener('click', (e) => e.target.closest('a[data-preset]') && room.local(), true);
  form.addEventListener('input', (e) => {
    if (e.target.name === 'np') sendSoon(true);
    else if (e.target.name === 'strides' && form.elements.mode.value === 'packed') {
      // Typing a stride while packed is selected makes the strides
      // explicit: the other boxes keep the packed strides they show.
      form.elements.mode.value = 'explicit'; form.elements.t.value = ''; clearTimeout(timer); send(formQuery(), false, true);
    } else if (e.target.type === 'text' || e.target.name === 'vals') { form.elements.t.value = ''; sendSoon(); }
  });
  form.addEventListener('change', (e) => {
    const n = e.target.name;
    if (n === 'rank') send(formQuery() + '&rank=' + e.target.value, true);
    else if (n === 'mode') send(formQuery(), true);
    else if (n === 'dt' || n === 'fl') send(formQuery(), false, true);
  });
  form.addEventListener('submit', (e) => {
    const np = e.submitter && e.submitter.value === 'np';
    clearTimeout(timer);
    if (!st.ws) return;
    e.preventDefault();
    // Typing in the box already sent its expression: Use sends it once.
    if (np && st.np !== '' && st.np === form.elements.np.value) return;
    send(np ? npQuery() : formQuery(), true, false, np);
  });
  $('.presets').addEventListener('click', (e) => {
    const a = e.target.closest('a[data-preset]');
    if (!a) return;
    const q = queryOf([['preset', a.dataset.preset], ['dt', form.elements.dt.value], ['fl', form.elements.fl.value]]);
    if (send(q, true, true)) { hist.picked(q); e.preventDefault(); }
  });
  hist.start(openedQuery(form, formQuery)); // here: formQuery needs the helpers above

  // ---- linking the input, its buffer and the output ----
  // A target is a cell of a view, DOM or canvas: {kind: 'in' | 'out' | 'b', i};
  // its id (in-5, out-2, b-5) is the DOM cell's, and what rooms share.
  const cellOf = (kind, i) => document.getElementById(kind + '-' + i);
  const mark = (el, cls) => el && el.classList.add(cls);
  const idOf = (t) => t.kind + '-' + t.i;
  const limit = { in: () => st.meta.inputCount, out: () => st.meta.outputCount, b: () => st.meta.cells };
  function targetOf(id) {
    const g = /^(in|out|b)-(\d+)$/.exec(id || '');
    return g && st.meta && +g[2] < limit[g[1]]() ? { kind: g[1], i: +g[2] } : null;
  }
  const label = (el) => el && $('.lbl', el).textContent;
  // Each fact of a cell from its DOM cell when the view is a grid, else
  // from the frames, else worked out from the meta.
  const valueAt = (arr, k) => {
    const dt = st.meta.dataType, v = arr[k];
    if (dt === 'FLOAT16') return goText(half(v), true);
    return dt === 'FLOAT32' ? goText(v, true) : dt === 'FLOAT64' ? goText(v, false) : String(v);
  };
  function inOffset(i) {
    const c = cellOf('in', i);
    if (c) return +c.dataset.o;
    if (st.data.offsets) return st.data.offsets[i];
    return offsetOf(st.meta.sizes, st.meta.strides, i);
  }
  const bufValue = (o) => label(cellOf('b', o)) ?? (st.data.inVals ? valueAt(st.data.inVals, o) : '·');
  const inValue = (i) => label(cellOf('in', i)) ?? bufValue(inOffset(i));
  const outValue = (k) => label(cellOf('out', k)) ?? (k < st.meta.values.length ? st.meta.values[k] : st.data.outVals ? valueAt(st.data.outVals, k) : '·');
  const srcCoord = (oc) => oc.map((v, d) => st.meta.copyStart[d] + st.meta.windowStrides[d] * v);
  const inWindow = (ic) => ic.every((v, d) => v >= st.meta.windowOffsets[d] && v < st.meta.windowOffsets[d] + st.meta.windowSizes[d]);
  // copyOrder is the output element that copies input element i, or -1:
  // whether it is copied comes from the grid or compute's bitmap, which
  // one from CopyStart + InputWindowStrides * OutputCoordinates.
  function copyOrder(i) {
    const c = cellOf('in', i), m = st.meta;
    if (c) return c.dataset.link === undefined ? -1 : +c.dataset.link;
    if (st.data.copied && !bit(st.data.copied, i)) return -1;
    const ic = coordOf(m.sizes, i), oc = [];
    for (let d = 0; d < ic.length; d++) {
      const q = (ic[d] - m.copyStart[d]) / m.windowStrides[d];
      if (!Number.isInteger(q) || q < 0 || q >= m.outputSizes[d]) return -1;
      oc.push(q);
    }
    return indexOf(m.outputSizes, oc);
  }
  // holders are the input elements stored at buffer offset o.
  function holders(o) {
    if (st.meta.inputMode === 'dom') return $$(`#slice-input .lc[data-o="${o}"]`).map((h) => +h.dataset.i);
    const offs = st.data.offsets, out = [];
    if (offs) { for (let i = 0; i < offs.length; i++) if (offs[i] === o) out.push(i); }
    else if (st.data.apart) { const i = holderOf(st.meta.sizes, st.meta.strides, o); if (i >= 0 && i < st.meta.inputCount) out.push(i); }
    return out;
  }
  const isRead = (o) => { const c = cellOf('b', o); return c ? c.classList.contains('read') : !!bit(st.data.read, o); };

  function clearLinks() {
    for (const el of $$('.lc.linked, .bc.linked, .lc.sel, .bc.sel', picture)) el.classList.remove('linked', 'sel');
    for (const k of ['in', 'out', 'b']) { st.marks[k].sel = []; st.marks[k].linked = []; paint(k); }
  }
  // unlink clears the links: the page as when nothing is pointed at.
  const hint = $('.hint', dot)?.cloneNode(true);
  function unlink() { clearLinks(); dot.replaceChildren(...(hint ? [hint.cloneNode(true)] : [])); }
  const focus = roomFocus(room, picture, {
    focused: () => st.focus,
    show: (id) => link(targetOf(id), false),
    clear: unlink,
  });
  // link shows where a cell's value comes from or goes: an output cell,
  // the input cell it copies and that cell's buffer cell; an input cell,
  // its buffer cell and the output cell it is copied to; a buffer cell,
  // every input element stored there and where they go.
  function link(t, isFocus) {
    if (!t || !st.meta) return;
    clearLinks();
    const m = st.meta, marks = { in: [], out: [], b: [] };
    if (t.kind === 'out') {
      const oc = coordOf(m.outputSizes, t.i), ic = srcCoord(oc), src = indexOf(m.sizes, ic), o = inOffset(src);
      marks.in.push(src); marks.b.push(o);
      dot.textContent = tr('js.slice.out', { oc: `{${oc}}`, ic: `{${ic}}`, v: outValue(t.i), o });
    } else if (t.kind === 'in') {
      const ic = coordOf(m.sizes, t.i), o = inOffset(t.i), k = copyOrder(t.i);
      marks.b.push(o);
      if (k >= 0) marks.out.push(k);
      dot.textContent = tr('js.slice.in', { ic, v: inValue(t.i), o }) +
        (k >= 0 ? tr('js.slice.copied', { oc: `{${coordOf(m.outputSizes, k)}}`, k })
          : inWindow(ic) ? tr('js.slice.skipped') : tr('js.slice.outside'));
    } else {
      const hs = holders(t.i), outs = hs.map(copyOrder).filter((k) => k >= 0);
      marks.in = hs; marks.out = outs;
      dot.textContent = hs.length === 0
        ? (t.i > m.last ? tr('js.slice.buf.unused', { o: t.i }) : tr('js.slice.buf.padding', { o: t.i }))
        : tr('js.slice.buf.holds', { o: t.i, v: bufValue(t.i), list: listOf(hs, (i) => `(${coordOf(m.sizes, i)})`) }) +
          (outs.length > 1 ? tr('js.slice.readby.many', { list: listOf(outs, String) })
            : outs.length ? tr('js.slice.readby.one', { list: listOf(outs, String) })
              : isRead(t.i) ? tr('js.slice.read') : tr('js.slice.notread'));
    }
    cellOf(t.kind, t.i)?.classList.add('sel');
    st.marks[t.kind].sel = [t.i];
    if (st.canvases[t.kind]) st.canvases[t.kind].cursor = t.i;
    for (const k of ['in', 'out', 'b']) {
      for (const i of marks[k].slice(0, 4096)) cellOf(k, i)?.classList.add('linked');
      st.marks[k].linked = marks[k];
      paint(k);
    }
    // Once every mark is written: reveal reads the layout.
    for (const k of ['in', 'out', 'b']) if (marks[k].length) reveal(cellOf(k, marks[k][0]), picture);
    if (isFocus) st.focus = idOf(t);
    room.publish({ focus: idOf(t) });
  }
  const domTarget = (c) => targetOf(c.id);
  picture.addEventListener('pointerover', (e) => { const c = e.target.closest('.lc, .bc'); if (c) link(domTarget(c), false); });
  picture.addEventListener('focusin', (e) => {
    const c = e.target.closest('.lc, .bc');
    if (!c) return;
    const grid = c.closest('#slice-input, #slice-output, #slice-buffer');
    for (const x of $$('[tabindex="0"]', grid)) if (x !== c) x.tabIndex = -1;
    c.tabIndex = 0;
    link(domTarget(c), true);
  });
  picture.addEventListener('keydown', (e) => {
    const c = e.target.closest('.lc, .bc');
    if (!c || !st.meta) return;
    let next = null;
    if (c.classList.contains('lc')) {
      const out = c.id.startsWith('out-'), sizes = out ? st.meta.outputSizes : st.meta.sizes, co = coordOf(sizes, +c.dataset.i);
      if (moveCoord(sizes, co, e.key)) next = cellOf(out ? 'out' : 'in', indexOf(sizes, co));
      else if (e.key === 'Enter' || e.key === ' ') {
        // Jump to the linked cell of the other grid.
        const other = cellOf(out ? 'in' : 'out', c.dataset.link);
        if (other) next = other;
      } else if (e.key.startsWith('Arrow') || e.key.startsWith('Page')) e.preventDefault();
    } else {
      const o = +c.dataset.o, cols = +$('#slice-buffer .buffer').dataset.cols;
      const to = { ArrowRight: o + 1, ArrowLeft: o - 1, ArrowDown: o + cols, ArrowUp: o - cols, Home: o - (o % cols), End: Math.min(o - (o % cols) + cols, st.meta.cells) - 1 }[e.key];
      if (to !== undefined) next = cellOf('b', to) || c;
    }
    if (next) { e.preventDefault(); next.focus(); }
  });

  // ---- canvases for views of more than 4,096 cells ----
  const SLOT = { in: 'slice-in', out: 'slice-out', b: 'slice-buf' };
  // bounds is the most a canvas may take, in image pixels. The buffer has
  // the picture's width, as the layout explorer's canvases do; the input
  // and the output share a row (.io wraps them) unless one needs more.
  function bounds(kind, wide = false) {
    const w = picture.clientWidth;
    // Where two views do not fit side by side (a phone), each has a row
    // of its own: half the width would only make its elements smaller.
    if (kind === 'b' || wide || Math.floor(w / 2) - 60 < 240) return { W: clamp(w - 60, 320, 1100), H: kind === 'b' ? 420 : 480 };
    return { W: clamp(Math.floor(w / 2) - 60, 240, 900), H: 480 };
  }
  // gridLayout lays a tensor out as the layout explorer's canvas does:
  // small multiples of its last two dimensions, else a strip. A tensor
  // that would need several cells a pixel at half the width (a 224×224
  // image's three channels) gets the whole width instead: its view then
  // wraps to a row of its own.
  function gridLayout(kind, sizes) {
    const r = sizes.length, n = sizes.reduce((a, b) => a * b, 1);
    const lay = ({ W, H }) => (r > 1 && panels(n / (sizes[r - 1] * sizes[r - 2]), sizes[r - 2], sizes[r - 1], W, H, r > 2 ? CAPTION : 0)) || strip(n, r > 1 ? sizes[r - 1] : 0, W, H);
    const L = lay(bounds(kind));
    return L.bin > 1 ? lay(bounds(kind, true)) : L;
  }
  // setup draws a canvas: fill(rgba) paints its image; its pointer and
  // keys link like the grids' cells.
  function setup(kind, L, n, fill) {
    const cv = $(`#${SLOT[kind]}-canvas`);
    if (!cv) return null;
    const ov = overlayOf(cv, L), ctx = cv.getContext('2d'), img = ctx.createImageData(L.w, L.h);
    fill(img.data);
    const c = st.canvases[kind] = { cv, ctx, img, L, ov, cursor: -1 }; // -1: nothing selected on it yet
    paint(kind);
    const at = (e) => { const r = cv.getBoundingClientRect(); return L.fromPixel(Math.floor(((e.clientX - r.left) / r.width) * L.w), Math.floor(((e.clientY - r.top) / r.height) * L.h)); };
    // One lookup per frame, of the latest position: a buffer cell's
    // holders scan every offset.
    let raf = 0, last = -1;
    cv.onpointermove = (e) => {
      last = at(e);
      if (last >= 0 && !raf) raf = requestAnimationFrame(() => { raf = 0; if (last >= 0) link({ kind, i: last }, false); });
    };
    cv.onclick = (e) => { const k = at(e); if (k >= 0) { c.cursor = k; link({ kind, i: k }, true); } };
    // The keys move as in the DOM grids; #dot, a live region, names the
    // cell reached.
    cv.onkeydown = (e) => {
      if (!NAV_KEYS.has(e.key)) return;
      e.preventDefault();
      // With nothing selected yet the first key (or arrow button)
      // selects the first element rather than moving past it.
      const k = c.cursor < 0 ? 0 : canvasKey(e.key, c.cursor, n, L, kind === 'b' ? null : kind === 'in' ? st.meta.sizes : st.meta.outputSizes);
      if (k >= 0) { c.cursor = k; link({ kind, i: k }, true); }
    };
    cv.onfocus = () => link({ kind, i: Math.max(0, c.cursor) }, true);
    return c;
  }
  // paint puts a canvas's image back with its marks: the step's cells
  // yellow, the linked and the pointed-at ones red (ringed when the
  // cells are small and few).
  function paint(kind) {
    const c = st.canvases[kind], mk = st.marks[kind];
    if (!c || !mk) return;
    markPixels(c, [[mk.cur, C.cur], [mk.linked, C.mark], [mk.sel, C.mark]]);
  }
  // drawInput colours each input element: copied (compute's bitmap), in
  // the window, or outside; frames the window on every small multiple
  // inside it, marks CopyStart and numbers the copied cells when they are
  // large enough to read.
  function drawInput() {
    const m = st.meta, s = m.sizes, r = s.length, n = m.inputCount, L = gridLayout('in', s);
    const inWin = s.map((size, d) => { const a = new Uint8Array(size); a.fill(1, m.windowOffsets[d], m.windowOffsets[d] + m.windowSizes[d]); return a; });
    const c = setup('in', L, n, (px) => {
      const code = inputCodes(L, n, s, inWin, st.data.copied);
      const px32 = new Uint32Array(px.buffer), cols = [0, rgba(C.outside), rgba(C.win), rgba(C.copied)];
      for (let p = 0; p < code.length; p++) if (code[p]) px32[p] = cols[code[p]];
    });
    if (!c) return;
    panelCaptions(c.ov, L, s, m.labels);
    if (L.panelAt) {
      // The window on each small multiple whose outer coordinates are in it.
      const outer = s.slice(0, r - 2), b = L.bin;
      const y0 = Math.floor(m.windowOffsets[r - 2] / b), y1 = Math.floor((m.windowOffsets[r - 2] + m.windowSizes[r - 2] - 1) / b) + 1;
      const x0 = Math.floor(m.windowOffsets[r - 1] / b), x1 = Math.floor((m.windowOffsets[r - 1] + m.windowSizes[r - 1] - 1) / b) + 1;
      let drawn = 0;
      for (let p = 0; p < L.P && drawn < 256; p++) {
        if (!coordOf(outer, p).every((v, d) => inWin[d][v])) continue;
        const [x, y] = L.panelAt(p);
        place(c.ov, L, 'cv-win', x + x0, y + y0, x1 - x0, y1 - y0);
        drawn++;
      }
    }
    const start = indexOf(s, m.copyStart), [sx, sy] = L.toPixel(start);
    place(c.ov, L, 'cv-start', sx, sy, 1, 1).title = 'CopyStart';
    // Copy-order numbers where a cell is wide enough for them.
    if (L.bin === 1 && L.px >= 12 && m.outputCount <= 4096) {
      for (let k = 0; k < m.outputCount; k++) {
        const i = indexOf(s, srcCoord(coordOf(m.outputSizes, k))), t = String(k);
        if (t.length * 6 + 2 > L.px) continue;
        const [x, y] = L.toPixel(i);
        place(c.ov, L, 'cv-num', x, y, 1, 1, t);
      }
    }
  }
  // drawOutput colours the output by value (its legend gives the range);
  // values the page did not compute leave it plain.
  function drawOutput() {
    const m = st.meta, n = m.outputCount, L = gridLayout('out', m.outputSizes), vals = st.data.outVals;
    const h16 = m.dataType === 'FLOAT16' ? halves() : null, num = h16 ? (k) => h16[vals[k]] : (k) => Number(vals[k]);
    // Numbers straight from the typed array, without a call per element,
    // unless they are halves' bits or BigInts.
    const plainNums = vals && !h16 && !(vals instanceof BigInt64Array || vals instanceof BigUint64Array);
    // The ramp spans the finite values: FLOAT16 turns values past 65504
    // into infinities, which take the ramp's ends.
    const [lo, hi, loK, hiK] = vals ? outputEnds(m, vals) : [Infinity, -Infinity, 0, 0];
    const c = setup('out', L, n, (px) => {
      const px32 = new Uint32Array(px.buffer), plain = rgba(C.plain), span = hi - lo;
      const colour = !vals ? () => plain : span > 0 ? (k) => rampPacked((num(k) - lo) / span) : () => rampPacked(0.5);
      if (L.bin === 1) {
        const os = m.outputSizes, row = os.length ? os[os.length - 1] : 1;
        if (plainNums && span > 0) rowPixels(L, n, row, (k0, len, p0, off) => { for (let j = 0; j < len; j++) px32[p0 + off + j] = rampPacked((vals[k0 + j] - lo) / span); });
        else rowPixels(L, n, row, (k0, len, p0, off) => { for (let j = 0; j < len; j++) px32[p0 + off + j] = colour(k0 + j); });
        return;
      }
      // Several elements a pixel: each pixel shows its first.
      const bin = L.bin;
      if (plainNums && span > 0) pixelRuns(L, n, (p, k0, len) => { for (let j = 0, k = k0; j < len; j++, k += bin) px32[p + j] = rampPacked((vals[k] - lo) / span); });
      else pixelRuns(L, n, (p, k0, len) => { for (let j = 0, k = k0; j < len; j++, k += bin) px32[p + j] = colour(k); });
    });
    if (c) panelCaptions(c.ov, L, m.outputSizes, m.labels);
    const legend = $('[data-testid=slice-out-legend]');
    if (legend) {
      $('.vals', legend).hidden = !vals;
      if (vals) { $('.vmin', legend).textContent = valueAt(vals, loK); $('.vmax', legend).textContent = valueAt(vals, hiK); }
    }
  }
  // drawBuffer colours each buffer cell: read by the slice (compute's
  // bitmap), holding one input element or several, padding, unused tail.
  function drawBuffer() {
    const m = st.meta, pitches = m.strides.filter((v, d) => v > 1 && m.sizes[d] > 1), { W, H } = bounds('b');
    const L = strip(m.cells, pitches.length ? Math.min(...pitches) : 0, W, H), D = st.data;
    setup('b', L, m.cells, (px) => {
      const counts = D.counts, read = D.read, last = m.last;
      const codeOf = (k) => { const h = counts[k]; return read !== null && (read[k >>> 5] >>> (k & 31)) & 1 ? 4 : h > 1 ? 3 : h === 1 ? 2 : k <= last ? 1 : 0; };
      paintStrip(px, L, m.cells, codeOf, [C.tail, C.hole, C.held, C.shared, C.copied].map(rgba));
    });
  }

  // ---- the step-through ----
  // stepOf works step t out as the server does (web/slice_picture.go,
  // sliceStep): CopyStart, one step per axis, then one per output element.
  function stepOf(t) {
    const m = st.meta, r = m.copyStart.length, cs = m.windowOffsets.slice();
    if (t === 0) return { lines: [1], text: `CopyStart = InputWindowOffsets = {${cs}}`, sub: '', note: '', at: cs };
    if (t <= r) {
      const i = t - 1, s = m.windowStrides[i];
      for (let d = 0; d <= i; d++) cs[d] = m.copyStart[d];
      const sub = `CopyStart = {${cs}}`;
      if (s < 0) {
        // Erratum E1 is the page's Example 2 misprinting axis 2's step
        // (picture.erratumE1Axis): noted there only.
        return { lines: [2, 3, 4], sub, at: cs,
          text: tr('js.step.neg', { i, s, off: m.windowOffsets[i], size: m.windowSizes[i], cs: m.copyStart[i] }),
          note: i !== 2 ? '' : tr('js.step.e1', { i }) };
      }
      return { lines: [2, 3], sub, at: cs, note: '', text: tr('js.step.pos', { i, s, off: m.windowOffsets[i] }) };
    }
    const k = t - r - 1, c = coordOf(m.outputSizes, k), ic = c.map((v, d) => m.copyStart[d] + m.windowStrides[d] * v);
    let text = `Output[{${c}}] = Input[{${m.copyStart}} + {${m.windowStrides}} * {${c}}] = Input[{${ic}}]`;
    if (k < m.values.length) text += ' = ' + m.values[k];
    return { lines: [6], text, sub: tr('js.step.sub', { dot: dotText(ic, m.strides) }), note: '', at: ic, k };
  }
  function setStep(t, share = true) {
    if (!st.meta) return;
    const m = st.meta, total = m.steps;
    st.t = t = Math.max(-1, Math.min(t, total - 1));
    for (const el of $$('.lc.cur, .bc.cur, .lc.pending', picture)) el.classList.remove('cur', 'pending');
    const s = t >= 0 ? stepOf(t) : { lines: [], text: tr('js.step.intro'), sub: '', note: '' };
    for (const li of $$('ol.code li', steps)) li.classList.toggle('active', s.lines.includes(+li.dataset.line));
    const text = $('[data-testid=step-text]', steps);
    text.textContent = s.text;
    text.classList.toggle('prose', t < 0); // words, not a formula
    $('[data-testid=step-sub]', steps).textContent = s.sub;
    const note = $('[data-testid=step-note]', steps);
    note.textContent = s.note; note.hidden = !s.note;
    $('[data-act=back]', steps)?.setAttribute('aria-disabled', String(t < 0));
    $('[data-act=step]', steps)?.setAttribute('aria-disabled', String(t >= total - 1));
    $('[data-testid=step-count]', steps).textContent = t >= 0 ? tr('js.step.of', { n: num(t + 1), total: num(total) }) : tr('js.steps', { total: num(total) });
    const cur = { in: [], out: [], b: [] };
    if (t >= 0) {
      const i = indexOf(m.sizes, s.at);
      cur.in.push(i);
      if (s.k !== undefined) {
        cur.out.push(s.k); cur.b.push(inOffset(i));
        for (let j = s.k + 1; j < Math.min(m.outputCount, 4096); j++) mark(cellOf('out', j), 'pending');
      } else {
        for (const el of $$('#slice-output .lc')) el.classList.add('pending');
      }
    }
    for (const k of ['in', 'out', 'b']) {
      for (const i of cur[k]) mark(cellOf(k, i), 'cur');
      st.marks[k].cur = cur[k];
      paint(k);
    }
    // The output cell a copy writes, else the input cell CopyStart is at.
    if (t >= 0) clearOfStepBar(steps, cellOf(cur.out.length ? 'out' : 'in', cur.out.length ? cur.out[0] : cur.in[0]));
    form.elements.t.value = t >= 0 ? String(t) : '';
    if (share) { setURL(formQuery(), 'replace'); room.publish({ step: t }); }
  }
  const player = () => $('[data-act=play]', steps); // none while there is no valid slice
  // With prefers-reduced-motion the player starts at its slowest and does
  // not offer the speeds at which the highlight flickers.
  const calm = matchMedia('(prefers-reduced-motion: reduce)');
  function calmSpeeds() {
    const sel = $('[data-testid=step-speed]', steps);
    if (!calm.matches || sel.dataset.calm) return;
    sel.dataset.calm = 'true';
    for (const o of sel.options) o.disabled = +o.value > 2;
    sel.value = '0.5';
  }
  function showPlayer() {
    if (!player() || document.body.dataset.live !== 'ready') return;
    calmSpeeds();
    $('.speed', steps).hidden = false;
    $('[data-act=play]', steps).hidden = st.timer !== 0;
    $('[data-act=pause]', steps).hidden = st.timer === 0;
    steps.dataset.playing = String(st.timer !== 0);
  }
  function stop() { clearInterval(st.timer); st.timer = 0; showPlayer(); }
  function play() {
    stop();
    if (st.t >= st.meta.steps - 1) setStep(-1);
    const speed = +$('[data-testid=step-speed]', steps).value || 1;
    st.timer = setInterval(() => { if (st.t >= st.meta.steps - 1) stop(); else setStep(st.t + 1); }, 1000 / speed);
    setStep(st.t + 1);
    showPlayer();
  }
  steps.addEventListener('click', (e) => {
    const b = e.target.closest('[data-act]');
    if (!b || !st.meta) return;
    e.preventDefault();
    const act = b.dataset.act;
    // A viewer who steps, or plays, goes their own pace: not the
    // presenter's step any longer, so not "following".
    if (act !== 'pause') room.local();
    if (act === 'play') play();
    else if (act === 'pause') stop();
    else { stop(); setStep(st.t + (act === 'step' ? 1 : -1)); }
  });
  steps.addEventListener('change', (e) => { if (e.target.matches('[data-testid=step-speed]') && st.timer) play(); });

  // ---- rooms: a viewer applies the presenter's state like its own edit ----
  function applyRoom(s, fresh) {
    const again = fresh || s.query !== st.roomQuery;
    if (again) { st.roomQuery = s.query; send(s.query, true); }
    else if (s.step !== undefined && s.step !== st.t) setStep(s.step, false);
    focus.take(s, !again && picture.dataset.state === 'done'); // else shown when the picture is drawn
  }

  // The picture the server drew is linked now when the page carries its
  // answer; the socket, once open, is asked only for what changed since.
  takeOwnAnswer(form, st, formQuery, onText);
  floatStepBar(steps, picture);
}

// floatStepBar: on a phone the page stacks the step-through under the
// input and output, a screen below the cells a step lights up. While
// either grid is on the screen above the bar and the bar's own place is
// below the screen's foot, the bar (the step buttons and the step's text)
// floats at the foot; scrolled to, it is back in its place. It is the same
// element either way, so its focus order and names do not change. An
// embed, which folds its steps away, and a wider screen keep it in place.
// The caption of a tapped cell (#dot, under the output) is repeated at the
// floating bar's top while the bar covers it or it is below the screen.
function floatStepBar(steps, picture) {
  if (!steps || steps.closest('details')) return;
  const narrow = matchMedia('(max-width: 40rem)'), root = document.documentElement, dot = $('#dot');
  let queued = false, slot = 0; // the bar's height in its place, kept while it floats
  const update = () => {
    queued = false;
    const side = $('.step-side', steps), bar = $('.step-bar', steps), floating = steps.classList.contains('floating');
    let float = false;
    if (narrow.matches && side && bar) {
      if (!floating) slot = bar.getBoundingClientRect().height;
      // Floating or not, the same test of the same place and height: the
      // bar does not flicker at the edge between the two.
      const place = side.getBoundingClientRect().top, foot = innerHeight - slot;
      // Not over an open Embed popover, which a phone shows at the
      // picture's top.
      float = place + slot > innerHeight && !$('details.share-embed[open]') && [...picture.querySelectorAll('#slice-input, #slice-output')].some((g) => {
        const r = g.getBoundingClientRect();
        return r.height > 0 && r.bottom > 0 && r.top < foot;
      });
    }
    if (float !== floating) {
      // The bar's height stays reserved in its place, so that nothing
      // under it moves, and (html.bar-floats) a cell reached with the
      // keyboard, or lit by a step, is scrolled clear of it.
      if (float) root.style.setProperty('--bar-h', slot + 'px');
      steps.classList.toggle('floating', float);
      root.classList.toggle('bar-floats', float);
    }
    echoDot(bar, float);
    if (float) root.style.setProperty('--bar-float-h', bar.getBoundingClientRect().height + 'px');
  };
  // echoDot: after a tap named a cell in #dot, and until the next step,
  // the floating bar shows #dot's caption in place of the step's text
  // (kept for screen readers) while the bar, as it is with its step's
  // text, reaches over #dot or #dot is below the screen.
  let dotLast = false, withText = 0; // the floating bar's height with the step's text
  const echoDot = (bar, float) => {
    const echo = bar && $('.bar-dot', bar);
    if (!echo || !dot) return;
    if (float && echo.hidden) withText = bar.getBoundingClientRect().height;
    const show = float && dotLast && dot.getBoundingClientRect().bottom > innerHeight - withText;
    if (show && echo.textContent !== dot.textContent) echo.textContent = dot.textContent;
    echo.hidden = !show;
    bar.classList.toggle('echoing', show);
  };
  const queue = () => { if (!queued) { queued = true; requestAnimationFrame(update); } };
  addEventListener('scroll', queue, { passive: true });
  addEventListener('resize', queue);
  narrow.addEventListener('change', queue);
  document.addEventListener('toggle', queue, true); // a popover opened or closed
  // A new answer can change the pictures' heights, and so the bar's place.
  new ResizeObserver(queue).observe(picture);
  if (dot) new MutationObserver(() => { dotLast = !$('.hint', dot); queue(); }).observe(dot, { childList: true, characterData: true, subtree: true });
  // A step (or a new answer) writes the bar's own text: it shows again.
  const inEcho = (n) => !!(n.nodeType === Node.TEXT_NODE ? n.parentElement : n)?.closest('.bar-dot');
  new MutationObserver((recs) => {
    if (recs.some((r) => !inEcho(r.target))) { dotLast = false; queue(); }
  }).observe(steps, { childList: true, characterData: true, subtree: true });
  queue();
}

// clearOfStepBar scrolls a cell a step lit into the screen above the
// floating step bar, when the bar or the screen's edge hides it.
function clearOfStepBar(steps, el) {
  if (!el || !steps?.classList.contains('floating')) return;
  const r = el.getBoundingClientRect(), bar = $('.step-bar', steps).getBoundingClientRect();
  if (r.top < 0 || r.bottom > bar.top) el.scrollIntoView({ block: 'nearest' });
}
