// stridescope DML_SLICE1 explorer. The page is complete without this
// module (the server renders it from the URL, and the step-through's
// Back/Step links work); this makes it live: every edit goes to the
// server over /ws with "page":"slice" (docs/protocol.md, "The slice
// explorer"), which validates it with core, copies the input with compute
// and answers with templ-rendered fragments. This module swaps them in,
// links the input, its buffer and the output cell by cell (pointer and
// keyboard, both ways) and plays the copy step by step.

import { $, $$, liveSocket, showFieldErrors, settle, queryOf, moveCoord, coordOf, indexOf, dotText } from './live.js';
import { roomClient, roomFocus } from './rooms.js';

const V = 1;

export function start() {
  const form = $('#controls'), picture = $('#picture'), dot = $('#dot'), steps = $('#slice-steps');
  const st = { seq: 0, ws: null, meta: null, structural: new Set(), push: new Set(), npSeqs: new Set(), t: -1, timer: 0, focus: null };
  document.body.dataset.live = 'connecting';
  const room = roomClient('slice', { apply: applyRoom });

  // ---- the websocket ----
  liveSocket({
    open(ws) { st.ws = ws; send(location.search.slice(1) || formQuery(), true); room.open((m) => ws.send(JSON.stringify(m))); },
    text: onText,
    closed() {
      st.ws = null; room.closed(); document.body.dataset.live = 'offline';
      $('#live-note').hidden = true; $('button.apply').hidden = false;
    },
  });
  function send(query, structural = false, push = false, np = false) {
    if (!st.ws) return false;
    st.seq++;
    if (structural) st.structural.add(st.seq);
    if (push) st.push.add(st.seq);
    if (np) st.npSeqs.add(st.seq);
    st.ws.send(JSON.stringify({ v: V, type: 'edit', page: 'slice', seq: st.seq, query }));
    picture.dataset.state = 'computing';
    return true;
  }
  let timer = 0;
  const sendSoon = (np = false) => { clearTimeout(timer); timer = setTimeout(() => send(np ? npQuery() : formQuery(), false, false, np), 150); };

  function onText(m) {
    if (m.type === 'hello') { document.body.dataset.live = 'ready'; $('#live-note').hidden = false; $('button.apply').hidden = true; showPlayer(); return; }
    if (room.message(m)) return;
    if (m.seq !== st.seq) return; // a newer edit supersedes it
    if (m.type === 'done') { picture.dataset.state = 'done'; focus.drawn(); return; }
    if (m.type === 'error') { console.warn('stridescope:', m.message); return; }
    if (m.type !== 'result' || m.page !== 'slice') return;
    showFieldErrors(form, m.errors, m.warnings);
    refill(m.form, st.structural.has(m.seq) || st.npSeqs.has(m.seq), st.npSeqs.has(m.seq));
    $('#slice-dims').innerHTML = m.html.dims;
    if (!settle(m, form, picture, 'slice', setURL, st.push.has(m.seq))) return;
    stop();
    const h = m.html;
    $('#slice-input').innerHTML = h.input; $('#slice-output').innerHTML = h.output; $('#slice-buffer').innerHTML = h.buffer;
    $('#slice-facts').innerHTML = h.facts; steps.innerHTML = h.steps;
    $('#input-sub').textContent = h.inputSub; $('#output-sub').textContent = h.outputSub; $('#buffer-sub').textContent = h.bufferSub;
    st.meta = m.meta;
    picture.dataset.seq = m.seq;
    showPlayer();
    const t = m.form.t === '' ? -1 : +m.form.t;
    setStep(Math.min(t, st.meta.steps - 1), false);
    if (st.focus) link(cellById(st.focus), false);
  }

  // ---- the form ----
  const vals = (name) => $$(`[name=${name}]:not(:disabled)`, form).map((i) => i.value.trim());
  function formQuery() {
    const f = form.elements, p = [['dt', f.dt.value], ['sizes', vals('sizes').join(',')]];
    if (f.mode.value !== 'packed') {
      const s = vals('strides');
      p.push(['strides', s.join(',')]);
      if (s.every((x) => x === '')) p.push(['mode', 'explicit']);
    }
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
      row.hidden = !on;
      for (const el of $$('input', row)) el.disabled = !on;
      const th = $('th', row);
      if (th) th.textContent = f.dimLabels[i] || '';
      const set = (name, v) => { const el = $(`[name=${name}]`, row); if (el && (all || name === 'strides' && f.packed)) el.value = v ?? ''; };
      set('sizes', f.sizes[i]); set('strides', f.strides[i]); set('woff', f.woff[i]); set('wsize', f.wsize[i]); set('wstride', f.wstride[i]); set('out', f.out[i]);
      const out = $('[name=out]', row);
      if (out) out.placeholder = f.outMax[i] || '';
      const stride = $('[name=strides]', row);
      if (stride) stride.readOnly = f.packed;
    }
    const e = form.elements;
    // An invalid window has no expression: the box keeps the last one.
    if (f.np !== '' && (!typingNP || document.activeElement !== e.np)) e.np.value = f.np;
    if (!all) return;
    e.dt.value = f.dt; e.rank.value = String(n); e.mode.value = f.packed ? 'packed' : 'explicit'; e.fl.value = f.fl;
    e.vals.value = f.vals; e.t.value = f.t;
  }
  function setURL(q, push) {
    room.publish({ query: q });
    if (room.role === 'viewer') return;
    const u = location.pathname + '?' + q + room.urlSuffix();
    if (push) history.pushState(null, '', u); else history.replaceState(null, '', u);
  }

  for (const ev of ['input', 'change', 'submit']) form.addEventListener(ev, room.local, true);
  $('.presets').addEventListener('click', (e) => e.target.closest('a[data-preset]') && room.local(), true);
  form.addEventListener('input', (e) => {
    if (e.target.name === 'np') sendSoon(true);
    else if (e.target.type === 'text' || e.target.name === 'vals') { form.elements.t.value = ''; sendSoon(); }
  });
  form.addEventListener('change', (e) => {
    const n = e.target.name;
    if (n === 'rank') send(formQuery() + '&rank=' + e.target.value, true);
    else if (n === 'mode') send(formQuery(), true);
    else if (n === 'dt' || n === 'fl') send(formQuery());
  });
  form.addEventListener('submit', (e) => {
    const np = e.submitter && e.submitter.value === 'np';
    if (send(np ? npQuery() : formQuery(), true, false, np)) e.preventDefault();
  });
  $('.presets').addEventListener('click', (e) => {
    const a = e.target.closest('a[data-preset]');
    if (!a) return;
    const q = queryOf([['preset', a.dataset.preset], ['dt', form.elements.dt.value], ['fl', form.elements.fl.value]]);
    if (send(q, true, true)) e.preventDefault();
  });
  window.addEventListener('popstate', () => send(location.search.slice(1), true));

  // ---- linking the input, its buffer and the output ----
  const cellOf = (kind, i) => document.getElementById(kind + '-' + i);
  const mark = (el, cls) => el && el.classList.add(cls);
  const valueOf = (el) => $('.lbl', el).textContent;
  function clearLinks() { for (const el of $$('.lc.linked, .bc.linked, .lc.sel, .bc.sel', picture)) el.classList.remove('linked', 'sel'); }
  // unlink clears the links: the page as when nothing is pointed at.
  const hint = $('.hint', dot)?.cloneNode(true);
  function unlink() { clearLinks(); dot.replaceChildren(...(hint ? [hint.cloneNode(true)] : [])); }
  // The room shares the cell the page links (its id: in-5, out-2, b-5).
  const cellById = (id) => { const c = document.getElementById(id); return c && picture.contains(c) && c.matches('.lc, .bc') ? c : null; };
  const focus = roomFocus(room, picture, {
    focused: () => st.focus,
    show: (id) => link(cellById(id), false),
    clear: unlink,
  });
  // link shows where a cell's value comes from or goes: an output cell,
  // the input cell it copies and that cell's buffer cell; an input cell,
  // its buffer cell and the output cell it is copied to; a buffer cell,
  // every input element stored there and where they go.
  function link(c, isFocus) {
    if (!c || !st.meta) return;
    clearLinks();
    c.classList.add('sel');
    const m = st.meta, [kind, n] = [c.id.split('-')[0], +c.id.split('-')[1]];
    if (kind === 'out') {
      const src = cellOf('in', c.dataset.link), oc = coordOf(m.outputSizes, n), ic = coordOf(m.sizes, +c.dataset.link);
      mark(src, 'linked'); mark(cellOf('b', src ? src.dataset.o : -1), 'linked');
      dot.textContent = `Output[{${oc}}] = Input[{${ic}}] = ${valueOf(c)}, read at buffer offset ${src ? src.dataset.o : '?'}`;
    } else if (kind === 'in') {
      const k = c.dataset.link;
      mark(cellOf('b', c.dataset.o), 'linked');
      if (k !== undefined) mark(cellOf('out', k), 'linked');
      dot.textContent = `input (${c.dataset.c}) = ${valueOf(c)} at buffer offset ${c.dataset.o}: ` +
        (k !== undefined ? `copied to Output[{${coordOf(m.outputSizes, +k)}}], output element ${k}` : c.classList.contains('win') ? 'in the window, not copied (the stride skips it, or the output is smaller)' : 'outside the window');
    } else {
      const holders = $$(`#slice-input .lc[data-o="${n}"]`), outs = [];
      for (const h of holders) { h.classList.add('linked'); if (h.dataset.link !== undefined) { outs.push(h.dataset.link); mark(cellOf('out', h.dataset.link), 'linked'); } }
      dot.textContent = holders.length === 0 ? `buffer offset ${n} holds no input element: ${c.classList.contains('tail') ? 'unused, past the last element' : 'padding'}`
        : `buffer offset ${n} holds ${valueOf(c)} for input ${holders.map((h) => `(${h.dataset.c})`).join(', ')}: ` +
          (outs.length ? `read by output element${outs.length > 1 ? 's' : ''} ${outs.join(', ')}` : 'not read by the slice');
    }
    if (isFocus) st.focus = c.id;
    room.publish({ focus: c.id });
  }
  picture.addEventListener('pointerover', (e) => { const c = e.target.closest('.lc, .bc'); if (c) link(c, false); });
  picture.addEventListener('focusin', (e) => {
    const c = e.target.closest('.lc, .bc');
    if (!c) return;
    const grid = c.closest('#slice-input, #slice-output, #slice-buffer');
    for (const x of $$('[tabindex="0"]', grid)) if (x !== c) x.tabIndex = -1;
    c.tabIndex = 0;
    link(c, true);
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
        return { lines: [2, 3, 4], sub, at: cs,
          text: `axis ${i}: InputWindowStrides[${i}] = ${s} < 0, so CopyStart[${i}] += InputWindowSizes[${i}] - 1: ${m.windowOffsets[i]} + ${m.windowSizes[i]} - 1 = ${m.copyStart[i]}`,
          note: `Erratum E1: at this step the DirectML page's Example 2 writes InputWindowSizes[0]; the term is InputWindowSizes[${i}], the size of the same axis (the page's own arithmetic, 0 + 4 - 1 = 3, uses it).` };
      }
      return { lines: [2, 3], sub, at: cs, note: '', text: `axis ${i}: InputWindowStrides[${i}] = ${s} > 0, so CopyStart[${i}] stays InputWindowOffsets[${i}] = ${m.windowOffsets[i]}` };
    }
    const k = t - r - 1, c = coordOf(m.outputSizes, k), ic = c.map((v, d) => m.copyStart[d] + m.windowStrides[d] * v);
    let text = `Output[{${c}}] = Input[{${m.copyStart}} + {${m.windowStrides}} * {${c}}] = Input[{${ic}}]`;
    if (k < m.values.length) text += ' = ' + m.values[k];
    return { lines: [6], text, sub: 'input buffer offset ' + dotText(ic, m.strides), note: '', at: ic, k };
  }
  function setStep(t, share = true) {
    if (!st.meta) return;
    const m = st.meta, total = m.steps;
    st.t = t = Math.max(-1, Math.min(t, total - 1));
    for (const el of $$('.lc.cur, .bc.cur, .lc.pending', picture)) el.classList.remove('cur', 'pending');
    const s = t >= 0 ? stepOf(t) : { lines: [], text: 'Play, or Step, runs the copy one step at a time: CopyStart first, then every output element in row-major order.', sub: '', note: '' };
    for (const li of $$('ol.code li', steps)) li.classList.toggle('active', s.lines.includes(+li.dataset.line));
    $('[data-testid=step-text]', steps).textContent = s.text;
    $('[data-testid=step-sub]', steps).textContent = s.sub;
    const note = $('[data-testid=step-note]', steps);
    note.textContent = s.note; note.hidden = !s.note;
    $('[data-testid=step-count]', steps).textContent = t >= 0 ? `step ${t + 1} of ${total}` : `${total} steps`;
    if (t >= 0) {
      const inCell = cellOf('in', indexOf(m.sizes, s.at));
      mark(inCell, 'cur');
      if (s.k !== undefined) {
        mark(cellOf('out', s.k), 'cur');
        if (inCell) mark(cellOf('b', inCell.dataset.o), 'cur');
        for (let j = s.k + 1; j < Math.min(m.outputCount, 4096); j++) mark(cellOf('out', j), 'pending');
      } else {
        for (const el of $$('#slice-output .lc')) el.classList.add('pending');
      }
    }
    form.elements.t.value = t >= 0 ? String(t) : '';
    if (share) { setURL(formQuery(), false); room.publish({ step: t }); }
  }
  const player = () => $('.step-controls', steps);
  function showPlayer() {
    if (!player() || document.body.dataset.live !== 'ready') return;
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
}
