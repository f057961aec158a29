// stridescope: the step-through of a data-movement explorer (DML_PADDING1,
// DML_TILE, DML_DEPTH_TO_SPACE1 / DML_SPACE_TO_DEPTH1, DML_JOIN / DML_SPLIT):
// step k is output element k in row-major order, the copy order; it lights
// that cell and the cell it is copied from (or names the padding value)
// and writes the operator's formula with its numbers (copy-formulas.js).
// One bar of previous / play / next, the speed and the step's number,
// under the picture; t= in the address bar opens a shared link at its
// step. The explorer plugs in with what it already has:
//
//   count()    how many steps (output elements drawn as cells), 0: none
//   light(k)   shows output element k with the page's own link function
//              and returns {out: [cells], src: [cells]} to mark, and
//              lead, the box kept clear of the bar when not out[0] (an
//              element lit on a canvas: canvas.js's itemBox)
//   caption(k) the formula's lines
//   room()     the page's room (client.js's client.room): a presenter's
//              step goes to the class as the room's step, k + 1 (0, which
//              a room state leaves out, is no step); take(step) shows it
//
// The page works without it: the bar is this module's alone.

import { $, $$ } from './live.js';
import { t, num } from './words.js';

const SPEEDS = ['0.5', '1', '2', '5'];

// copySteps puts the bar after picture and returns refresh(), which an
// explorer calls once each answer is drawn (its onDone).
export function copySteps(picture, plug) {
  const st = { t: urlStep(), timer: 0, n: 0 };
  const bar = barOf();
  // The server's bar of a page opened at t= (views.CopyStepBar), for a
  // page without JavaScript: this one takes its place.
  document.querySelector('[data-testid=copy-steps-static]')?.remove();
  picture.after(bar);
  const text = $('[data-testid=copy-step-text]', bar);

  function unmark() {
    for (const c of $$('.step-out, .step-src', picture)) c.classList.remove('step-out', 'step-src');
  }
  // setStep shows step k; scroll: keep its cell on the screen (not for
  // a new answer to an edit, which would pull a phone's reader away from
  // the box they type in).
  function setStep(k, share = true, scroll = true) {
    st.t = k = Math.max(-1, Math.min(k, st.n - 1));
    unmark();
    let lines = [t('js.copysteps.intro', { total: num(st.n) })], lead = null;
    if (k >= 0) {
      const lit = plug.light(k);
      for (const c of lit.out) c?.classList.add('step-out');
      for (const c of lit.src) c?.classList.add('step-src');
      lines = plug.caption(k);
      lead = lit.lead ?? lit.out[0] ?? null;
    }
    bar.classList.toggle('stepping', k >= 0);
    text.textContent = lines.join('\n');
    text.classList.toggle('prose', k < 0);
    // On a phone the formulas scroll inside the bar: keyboards reach them.
    if (text.scrollHeight > text.clientHeight + 1) text.tabIndex = 0; else text.removeAttribute('tabindex');
    $('[data-act=back]', bar).setAttribute('aria-disabled', String(k < 0));
    $('[data-act=step]', bar).setAttribute('aria-disabled', String(k >= st.n - 1));
    $('[data-testid=copy-step-count]', bar).textContent = k >= 0 ? t('js.step.of', { n: num(k + 1), total: num(st.n) }) : t('js.steps', { total: num(st.n) });
    if (share) { writeStep(k); if (k >= 0) plug.room?.()?.publish({ step: k + 1 }); }
    // With the bar's new text (its height): a page opening at its t=
    // step scrolls once it has loaded, since the load undoes a scroll
    // before it.
    // Only the opening step is kept clear a moment (the ResizeObserver
    // below): later, an edit's answer must not pull the page to it.
    const opening = !st.opened;
    const show = () => { st.lead = opening ? lead : null; across(lead); clearOfBar(lead); };
    if (!scroll) return; // an answer's refresh: the opening step's keeping clear goes on
    if (document.readyState === 'complete') show(); else addEventListener('load', () => requestAnimationFrame(show), { once: true });
  }
  // clearOfBar scrolls a lit cell into the screen above the bar, which
  // sticks to the screen's foot while the picture is on it (a phone's
  // bar would cover the cells it lights otherwise).
  function clearOfBar(el) {
    // The cells are above the bar's own place: the bar covers them only
    // stuck at the foot, where its top is the screen's foot for them. A
    // scroll down can stick it there: measured again after.
    for (let pass = 0; el && pass < 2; pass++) {
      const r = el.getBoundingClientRect(), foot = Math.min(innerHeight, bar.getBoundingClientRect().top);
      const dy = r.bottom > foot - 4 ? r.bottom - foot + 8 : r.top < 0 ? r.top - 8 : 0;
      if (!dy) return;
      scrollBy({ top: dy, behavior: 'instant' });
    }
  }
  // across scrolls a lit cell's grid sideways to it: a phone shows a
  // few columns of a wide output grid, and a step past them would light
  // a cell nobody sees (a canvas centres its own lit item).
  function across(el) {
    if (!(el instanceof Element)) return;
    for (let p = el.parentElement; p && p !== picture.parentElement; p = p.parentElement) {
      if (p.scrollWidth <= p.clientWidth + 1) continue;
      const r = el.getBoundingClientRect(), b = p.getBoundingClientRect();
      if (r.left < b.left + 4) p.scrollLeft -= b.left - r.left + 8;
      else if (r.right > b.right - 4) p.scrollLeft += r.right - b.right + 8;
    }
  }
  function stop() {
    clearInterval(st.timer); st.timer = 0;
    $('[data-act=play]', bar).hidden = false;
    $('[data-act=pause]', bar).hidden = true;
  }
  function play() {
    stop();
    if (st.t >= st.n - 1) setStep(-1);
    const speed = +$('select', bar).value || 1;
    st.timer = setInterval(() => { if (st.t >= st.n - 1) stop(); else setStep(st.t + 1); }, 1000 / speed);
    $('[data-act=play]', bar).hidden = true;
    $('[data-act=pause]', bar).hidden = false;
    setStep(st.t + 1);
  }
  bar.addEventListener('click', (e) => {
    const b = e.target.closest('[data-act]');
    if (!b || !st.n) return;
    if (b.dataset.act !== 'pause') plug.room?.()?.local(); // a viewer who steps goes their own pace
    const act = b.dataset.act, by = { back: -1, step: 1 }[act];
    if (by) { stop(); setStep(st.t + by); } else if (act === 'play') play(); else stop();
  });
  // In the bar the arrows step too; Home and End go to either end.
  bar.addEventListener('keydown', (e) => {
    if (e.target.tagName === 'SELECT' || !st.n) return;
    const to = { ArrowLeft: st.t - 1, ArrowRight: st.t + 1, Home: -1, End: st.n - 1 }[e.key];
    if (to === undefined) return;
    plug.room?.()?.local();
    e.preventDefault(); stop(); setStep(to);
  });
  $('select', bar).addEventListener('change', () => { if (st.timer) play(); });
  // What the page writes after it opens at a step (the line under the
  // form, the socket's note) can move the lit cell under the bar: it is
  // kept clear until the reader does anything at all.
  new ResizeObserver(() => { if (st.lead?.isConnected) clearOfBar(st.lead); }).observe(document.body);
  for (const ev of ['pointerdown', 'keydown', 'wheel', 'touchstart']) addEventListener(ev, () => { st.lead = null; }, { capture: true, passive: true });

  return {
    // take shows the room's step (a presenter's k + 1), as its own.
    take(step) {
      if (!step || step - 1 === st.t) return;
      stop(); st.t = step - 1;
      if (st.n) setStep(st.t, true);
    },
    // refresh takes a new answer: the step stays where it was (or where
    // the URL opened it), within the new count.
    refresh() {
      st.n = plug.count();
      bar.hidden = st.n === 0;
      if (!st.n) { stop(); unmark(); return; }
      setStep(st.t, st.t >= 0, !st.opened);
      st.opened = true;
    },
  };
}

// barOf builds the bar: its words are the page's (the slice's step
// buttons' own, in every language).
function barOf() {
  const el = (tag, attrs = {}, ...kids) => {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    e.append(...kids);
    return e;
  };
  const button = (act, key, label) => el('button', { type: 'button', class: 'btn', 'data-act': act, 'data-testid': 'copy-step-' + act, ...(label ? { 'aria-label': t(label) } : {}) }, t(key));
  const pause = button('pause', 'step.pause');
  pause.hidden = true;
  // With prefers-reduced-motion the player starts at its slowest and
  // offers no speed at which the lit cells flicker.
  const calm = matchMedia('(prefers-reduced-motion: reduce)').matches, first = calm ? '0.5' : '1';
  const speed = el('select', { 'aria-label': t('step.speed.label'), 'data-testid': 'copy-step-speed' },
    ...SPEEDS.map((s) => el('option', { value: s, ...(s === first ? { selected: '' } : {}), ...(calm && +s > 2 ? { disabled: '' } : {}) }, (s === '0.5' ? '½' : s) + ' /s')));
  return el('section', { class: 'view copy-steps', 'aria-labelledby': 'copy-steps-h', 'data-testid': 'copy-steps', hidden: '' },
    el('h2', { id: 'copy-steps-h' }, t('js.copysteps.h')),
    el('div', { class: 'step-controls' },
      button('back', 'step.back', 'step.back.label'), button('play', 'step.play'), pause,
      button('step', 'step.next', 'step.next.label'),
      el('label', { class: 'speed' }, t('step.speed') + ' ', speed),
      el('span', { class: 'step-count', 'data-testid': 'copy-step-count' })),
    el('p', { class: 'step-text prose', 'data-testid': 'copy-step-text', role: 'status', 'aria-live': 'polite' }));
}

// urlStep is the step the address bar opened at (t=), -1 for none.
function urlStep() {
  const v = new URLSearchParams(location.search).get('t');
  return v !== null && /^\d{1,9}$/.test(v) ? +v : -1;
}

// writeStep keeps the step in the address bar (t=, last), replacing the
// history entry the edit client wrote: the state's query stays as it is.
function writeStep(k) {
  const q = location.search.slice(1).split('&').filter((p) => p && !p.startsWith('t='));
  if (k >= 0) q.push('t=' + k);
  history.replaceState(history.state, '', location.pathname + (q.length ? '?' + q.join('&') : '') + location.hash);
}
