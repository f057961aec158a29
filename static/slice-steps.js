// stridescope: the slice explorer's step-through (slice.js's view): the
// DirectML page's pseudo-code played line by line, each copy with its
// numbers, its cells lit on the grids and canvases; and, on a phone, its
// bar floating at the screen's foot while the grids it lights are on it.

import { $, $$ } from './live.js';
import { num, t as tr } from './words.js';
import { coordOf, indexOf, dotText } from './layout.js';

// stepOf works step t of the slice meta m says out as the server does
// (picture/slice_picture.go, sliceStep): CopyStart, one step per axis,
// then one per output element. It reads no page but the words' catalog.
export function stepOf(m, t) {
  const r = m.copyStart.length, cs = m.windowOffsets.slice();
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

// stepThrough plays the step-through of the view S (slice.js); it
// returns what the other parts use.
export function stepThrough(S) {
  const { form, picture, steps, st } = S;
  function setStep(t, share = true) {
    if (!st.meta) return;
    const m = st.meta, total = m.steps;
    st.t = t = Math.max(-1, Math.min(t, total - 1));
    for (const el of $$('.lc.cur, .bc.cur, .lc.pending', picture)) el.classList.remove('cur', 'pending');
    const s = t >= 0 ? stepOf(m, t) : { lines: [], text: tr('js.step.intro'), sub: '', note: '' };
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
        cur.out.push(s.k); cur.b.push(S.inOffset(i));
        for (let j = s.k + 1; j < Math.min(m.outputCount, 4096); j++) S.mark(S.cellOf('out', j), 'pending');
      } else {
        for (const el of $$('#slice-output .lc')) el.classList.add('pending');
      }
    }
    for (const k of ['in', 'out', 'b']) {
      for (const i of cur[k]) S.mark(S.cellOf(k, i), 'cur');
      st.marks[k].cur = cur[k];
      S.paint(k);
    }
    // The output cell a copy writes, else the input cell CopyStart is at.
    if (t >= 0) clearOfStepBar(steps, S.cellOf(cur.out.length ? 'out' : 'in', cur.out.length ? cur.out[0] : cur.in[0]));
    form.elements.t.value = t >= 0 ? String(t) : '';
    if (share) { S.client.setURL(S.formQuery(), 'replace'); S.room.publish({ step: t }); }
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
    if (act !== 'pause') S.room.local();
    if (act === 'play') play();
    else if (act === 'pause') stop();
    else { stop(); setStep(st.t + (act === 'step' ? 1 : -1)); }
  });
  steps.addEventListener('change', (e) => { if (e.target.matches('[data-testid=step-speed]') && st.timer) play(); });
  return { setStep, showPlayer, stop };
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
export function floatStepBar(steps, picture) {
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
