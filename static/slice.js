// stridescope DML_SLICE1 explorer. The page is complete without this
// module (the server renders it from the URL, and the step-through's
// Back/Step links work); this makes it live: every edit goes to the
// server over /ws with "page":"slice" (docs/protocol.md, "The slice
// explorer"), which validates it with core, copies the input with compute
// and answers with templ-rendered fragments. The edits, the socket, the
// URL and the room are the edit client's (client.js); this module is the
// explorer's view: its form and the answers swapped in. slice-cells.js
// links the input, its buffer and the output cell by cell (pointer and
// keyboard, both ways), slice-canvas.js draws the views of more than
// 4,096 cells on canvases from the binary frames that follow the result
// (the elements copied, the cells read: computed by the server's compute
// package) and the values fill.js computes, and slice-steps.js plays the
// copy step by step.
//
// The canvases' module and the four it imports are only for a picture
// of more than 4,096 cells: a page whose picture is cells loads them
// after its first frame, ready for an edit that needs them, instead of
// before its picture is linked (issue #38); a page drawn on canvases has
// them fetched with its own (ops/slice1's view) and takes them at once.

import { editClient, drawingModule } from './client.js';
import { $, $$, put, queryOf, swapIn, viewIn, formVals, liveSubmit } from './live.js';
import { dimRows } from './dims.js';
import { FRAME } from './protocol.js';
import { t as tr } from './words.js';
import { sliceCells } from './slice-cells.js';
import { stepThrough, floatStepBar } from './slice-steps.js';

export function start() {
  const form = $('#controls'), picture = $('#picture'), dot = $('#dot'), steps = $('#slice-steps');
  const st = { meta: null, t: -1, timer: 0, focus: null, data: {}, canvases: {}, marks: { in: {}, out: {}, b: {} } };
  // S is the view's parts, which its modules share: each adds its own
  // functions to it, and calls the others' through it.
  const S = { form, picture, dot, steps, st, formQuery };
  const client = S.client = editClient(form, picture, {
    page: 'slice', what: 'slice', pushes: ['dt', 'fl'],
    formQuery, onForm, onResult, onFrame, onDone,
    presetQuery: (a) => queryOf([['preset', a.dataset.preset], ['dt', form.elements.dt.value], ['fl', form.elements.fl.value]]),
    onReady: () => S.showPlayer(),
    // The presenter's step, when the query is the one shown.
    applyRoom: (s) => { if (s.step !== undefined && s.step !== st.t) S.setStep(s.step, false); },
    focus: { focused: () => st.focus, show: (id) => S.link(S.targetOf(id), false), clear: () => S.unlink() },
  });
  S.room = client.room;

  // ---- the answers ----
  function onForm(m, sent) {
    // A window that runs out of the input is reported at its offset; its
    // size is as much to blame (as picture.SliceFormIn marks it).
    for (const e of m.errors || []) {
      const i = e.code === 'slice1.window.outside' && /^inputWindowOffsets\[(\d+)\]$/.exec(e.field);
      if (i) form.querySelector('#f-wsize-' + i[1])?.setAttribute('aria-invalid', 'true');
    }
    refill(m.form, !!(sent.structural || sent.np), !!sent.np);
    const h = m.html; // none in the page's own answer: the page is its html
    if (h) swapIn($('#slice-dims'), h.dims, (h.keys || {}).dims);
  }
  function onResult(m, sent) {
    S.stop();
    if (sent?.np && sent.structural) showPictureAfterUse();
    const h = m.html;
    if (h) {
      const k = h.keys || {};
      const md = m.meta;
      viewIn($('#slice-input'), h.input, k.input, md.inputMode); viewIn($('#slice-output'), h.output, k.output, md.outputMode); viewIn($('#slice-buffer'), h.buffer, k.buffer, md.bufferMode);
      swapIn($('#slice-facts'), h.facts, k.facts); swapIn(steps, h.steps, k.steps);
      $('#input-sub').textContent = h.inputSub; $('#output-sub').textContent = h.outputSub; $('#buffer-sub').textContent = h.bufferSub;
    }
    const meta = st.meta = m.meta;
    // The frames' bitmaps (the elements copied, the cells read) are kept
    // as they come; the rest the canvases are drawn from is computed by
    // their module (slice-canvas.js canvasData, through complete): here
    // when it is in, else at done once it is, so a picture of cells loads
    // none of it.
    const s = m.stream || {}, words = (n) => new Uint32Array(2 * Math.ceil(n / 64));
    st.data = { copied: s.copiedFrames ? words(meta.inputCount) : null, read: s.readFrames ? words(meta.cells) : null };
    // With the module in, at once: a canvas the answer kept links its
    // cells while the frames stream.
    if (S.canvasData && onCanvas(meta)) complete();
    st.lastCanvases = st.canvases; st.canvases = {}; st.marks = { in: {}, out: {}, b: {} };
    S.showPlayer();
    st.t = Math.min(m.form.t === '' ? -1 : +m.form.t, meta.steps - 1); // shown with the picture, at done
  }
  function onFrame(kind, first, payload) {
    const D = st.data;
    if (kind === FRAME.copied && D.copied) D.copied.set(payload(Uint32Array), 2 * first);
    else if (kind === FRAME.touched && D.read) D.read.set(payload(Uint32Array), 2 * first);
  }
  // onDone draws the canvases once every frame of the edit is in; the
  // first picture that needs them waits for their module (its promise
  // tells the client when it is drawn), unless a newer answer came.
  function onDone() {
    const m = st.meta;
    if (!onCanvas(m)) { draw(); return; }
    if (S.canvasData) { complete(); draw(); return; }
    return canvases().then(() => { if (st.meta === m) { complete(); draw(); } });
  }
  const onCanvas = (m) => [m.inputMode, m.outputMode, m.bufferMode].includes('canvas');
  // complete gives st.data the rest the canvases are drawn from, once an
  // answer (the module may come between its result and its done).
  const complete = () => { if (!st.data.full) { S.canvasData(); st.data.full = true; } };
  function draw() {
    const m = st.meta;
    if (m.inputMode === 'canvas') S.drawInput();
    if (m.outputMode === 'canvas') S.drawOutput();
    if (m.bufferMode === 'canvas') S.drawBuffer();
    S.setStep(st.t, false);
    if (st.focus) S.link(S.targetOf(st.focus), false);
  }

  // ---- the form ----
  const vals = (name) => formVals(form, name);
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
  // sendNp sends the window the expression box says (np, the expression
  // sent, in the edit's options): an expression that does not parse
  // changes no window, so its answer leaves the URL as it was.
  const sendNp = (structural) => client.send(npQuery(), { structural, np: true, tentative: true, npText: form.elements.np.value });
  // refill writes the server's form back: every input after a preset, a
  // rank change or an expression (all), the placeholders and packed
  // strides always; the expression box unless the user is typing in it.
  function refill(f, all, typingNP) {
    const n = f.sizes.length;
    dimRows(form, n, f.dimLabels, (row, i) => {
      const set = (name, v) => { if (all || name === 'strides' && f.packed) put($(`[name=${name}]`, row), 'value', v ?? ''); };
      set('sizes', f.sizes[i]); set('strides', f.strides[i]); set('woff', f.woff[i]); set('wsize', f.wsize[i]); set('wstride', f.wstride[i]); set('out', f.out[i]);
      put($('[name=out]', row), 'placeholder', f.outMax[i] || '');
      put($('[name=strides]', row), 'readOnly', false); // typing one makes the strides explicit
    });
    const e = form.elements;
    // An invalid window has no expression: the box keeps the last one.
    if (f.np !== '' && (!typingNP || document.activeElement !== e.np)) put(e.np, 'value', f.np);
    if (!all) return;
    put(e.dt, 'value', f.dt); put(e.rank, 'value', String(n)); e.mode.value = f.packed ? 'packed' : 'explicit'; put(e.fl, 'value', f.fl);
    put(e.total, 'value', f.total); put(e.align, 'value', f.align);
    put(e.vals, 'value', f.vals); put(e.t, 'value', f.t);
  }

  // Use on a phone, where the form stacks over the picture: the window
  // used is shown at once, with a way back up to the expression.
  function showPictureAfterUse() {
    if (!matchMedia('(max-width: 60rem)').matches) return;
    let back = $('#back-to-np');
    if (!back) {
      back = Object.assign(document.createElement('a'), { id: 'back-to-np', href: '#f-np', className: 'to-field', textContent: tr('js.back.np') });
      back.dataset.testid = 'back-to-np';
      back.addEventListener('click', (e) => { e.preventDefault(); const np = form.elements.np; np.focus({ preventScroll: true }); np.scrollIntoView({ block: 'center' }); back.hidden = true; });
      picture.before(back);
    }
    back.hidden = false;
    back.scrollIntoView({ block: 'start', behavior: matchMedia('(prefers-reduced-motion: reduce)').matches ? 'auto' : 'smooth' });
  }

  // An edit of the input or the window starts the step-through again.
  const fromTheTop = () => { form.elements.t.value = ''; };
  form.addEventListener('input', (e) => {
    if (e.target.name === 'np') client.soon(() => sendNp(false));
    else if (client.typedStride(e, fromTheTop)) return;
    else if (e.target.type === 'text' || e.target.name === 'vals') { fromTheTop(); client.soon(() => client.send(formQuery())); }
  });
  liveSubmit(form, client, (e) => {
    const np = e.submitter && e.submitter.value === 'np';
    // Typing in the box already sent its expression: Use sends it once.
    const last = client.sent;
    if (np && last.np && last.npText !== '' && last.npText === form.elements.np.value) { showPictureAfterUse(); return; }
    if (np) sendNp(true); else client.send(formQuery(), { structural: true });
  });

  // Marks are painted on canvases only, which come with their module.
  S.paint = () => {};
  const canvases = drawingModule(picture, () => import('./slice-canvas.js').then((mod) => { Object.assign(S, mod.sliceCanvases(S)); }));
  Object.assign(S, sliceCells(S));
  Object.assign(S, stepThrough(S));
  client.start();
  floatStepBar(steps, picture);
}
