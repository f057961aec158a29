// stridescope: an explorer's edits in the browser's history.

import { $, followLinks } from './live.js';

// editHistory keeps an explorer's edits in the browser's history, so that
// Back and Forward (and the Undo and Redo buttons, Ctrl+Z and Ctrl+Y or
// Ctrl+Shift+Z) step through them without leaving the page. Each entry's
// state holds the query to send again ({ss: {i, q}}); an edit pushes an
// entry unless it follows another edit within BURST ms (typing a number
// makes one entry), a structural one (a preset, a radio) always does;
// focus and step changes replace the entry. go(q) applies a state from
// the history: it sends q without writing the history again; cancel()
// drops a typed edit still waiting for its turn before stepping; reset(q)
// sends q as a new edit, for Reset to the example: the example last
// picked, else the state the page opened on (a tour step's own).
export function editHistory(form, { go, cancel, reset }) {
  const BURST = 1000;
  let cur = history.state?.ss?.i ?? 0, top = cur, lastEdit = 0, opened = '', example = '';
  const undo = $('[data-act=undo]', form), redo = $('[data-act=redo]', form), resetBtn = $('[data-act=reset]', form);
  const entry = (q) => ({ ...(history.state || {}), ss: { i: cur, q } });
  // ahead is whether Redo has an entry of this page to go to. The
  // Navigation API knows the history as it is: after Back and a link the
  // entries ahead are another page's (top is stale), after a reload the
  // page's own entries are still ahead (top starts again at cur).
  // In an embed the page is a frame of someone else's page, whose Back
  // button must leave that page, not step through the frame's edits: the
  // edits are kept here (stack: {url, q} each) and the address replaced.
  const framed = document.body.classList.contains('embed'), stack = [];
  function ahead() {
    if (framed) return cur < top;
    const n = globalThis.navigation, at = n?.currentEntry;
    if (!at || at.index < 0) return cur < top;
    const next = n.entries()[at.index + 1];
    return !!next?.url && new URL(next.url).pathname === location.pathname;
  }
  function update() {
    if (undo) undo.disabled = cur <= 0;
    if (redo) redo.disabled = !ahead();
  }
  const h = {
    // start records the page's first state; show reveals the buttons;
    // picked records an example's query, for Reset.
    start(q) {
      opened = q;
      if (framed) { cur = top = 0; stack[0] = { url: location.href, q }; }
      history.replaceState(entry(q), '', location.href); followLinks();
    },
    picked(q) { example = q; },
    // The buttons are set when shown, not at start: the Navigation API
    // that ahead() asks is made on its first use, which took up to 8 ms
    // of the script before the page's first picture (issue #38).
    show() { update(); for (const b of [undo, redo, resetBtn]) if (b) b.hidden = false; },
    // write puts an answered state in the address bar: how is 'push' (a
    // new entry), 'edit' (a new entry unless within a burst of edits) or
    // 'replace'.
    write(url, q, how) {
      const now = Date.now(), same = url === location.pathname + location.search;
      const push = !same && (how === 'push' || (how === 'edit' && now - lastEdit > BURST));
      if (how === 'edit' || how === 'push') lastEdit = how === 'edit' ? now : 0; // a burst is of typed edits
      if (push) { cur++; top = cur; }
      if (framed) { stack.length = top + 1; stack[cur] = { url, q }; history.replaceState(entry(q), '', url); } else if (push) history.pushState(entry(q), '', url); else history.replaceState(entry(q), '', url);
      update();
      followLinks();
    },
    undo() { if (cur > 0) { cancel(); if (framed) step(cur - 1); else history.back(); } },
    redo() { if (ahead()) { cancel(); if (framed) step(cur + 1); else history.forward(); } },
  };
  // step goes to the framed page's edit i, as Back and Forward go to an
  // entry of the page's history.
  function step(i) {
    cur = i; lastEdit = 0;
    const { url, q } = stack[i];
    history.replaceState(entry(q), '', url);
    update();
    followLinks();
    const last = new URL(url, location.href).searchParams.get('last');
    go(last ? q + '&last=' + encodeURIComponent(last) : q);
  }
  window.addEventListener('popstate', (e) => {
    // An entry without a state is the same state at another fragment (a
    // skip link, #main): nothing to send.
    const ss = e.state?.ss;
    if (!ss) return;
    cur = ss.i; lastEdit = 0;
    update();
    followLinks();
    // An entry with errors names the last valid state its picture was
    // of; the server draws that under the errors, as the page would.
    const last = new URLSearchParams(location.search).get('last');
    go(last ? ss.q + '&last=' + encodeURIComponent(last) : ss.q);
  });
  // Back to this page from the browser's cache: what lies ahead may have
  // changed (a link followed from an earlier entry drops the later ones).
  window.addEventListener('pageshow', (e) => { if (e.persisted) update(); });
  form.addEventListener('click', (e) => {
    const b = e.target.closest('[data-act=undo], [data-act=redo], [data-act=reset]');
    if (!b) return;
    e.preventDefault();
    if (b.dataset.act !== 'reset') h[b.dataset.act]();
    else { cancel(); reset(example || opened); }
  });
  document.addEventListener('keydown', (e) => {
    if (!(e.ctrlKey || e.metaKey) || e.altKey || e.target.closest?.('textarea')) return;
    const k = e.key.toLowerCase(), act = k === 'z' ? (e.shiftKey ? 'redo' : 'undo') : k === 'y' ? 'redo' : '';
    if (!act) return;
    e.preventDefault();
    h[act]();
  });
  return h;
}
