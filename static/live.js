// stridescope: what the live pages share about the page itself: the
// websocket that reconnects, the form and its inline errors, the URL's
// query, refusals, fragments and copy buttons (words.js has their words,
// layout.js the layout maths, dims.js the dims tables' rows, history.js
// the history, client.js an explorer's edits over the socket).

import { t } from './words.js';

export const $ = (s, r = document) => r.querySelector(s);
export const $$ = (s, r = document) => [...r.querySelectorAll(s)];

// liveSocket opens /ws and keeps it open, reconnecting with a growing,
// jittered delay (a class whose server restarts does not come back all
// at once, and every page is back within a few seconds of the server);
// hooks.open(ws) runs on every (re)connection, hooks.text(msg) on every
// JSON message, hooks.binary(buf) on binary frames, hooks.closed() when
// the connection drops.
export function liveSocket(hooks) {
  let retry = 250;
  const connect = () => {
    const ws = new WebSocket(wsURL());
    ws.binaryType = 'arraybuffer';
    ws.onopen = () => { retry = 250; hooks.open(ws); };
    ws.onmessage = (e) => (typeof e.data === 'string' ? hooks.text(JSON.parse(e.data)) : hooks.binary?.(e.data));
    ws.onclose = () => { hooks.closed(); setTimeout(connect, jitter(retry)); retry = Math.min(retry * 2, 2000); };
  };
  connect();
}

// jitter spreads a delay over [d/2, d].
export const jitter = (d) => d / 2 + Math.random() * d / 2;

// put sets el[k] to v unless it holds v already: writing the same value
// back (a refill from an answer that changed nothing) would still
// invalidate the element's style or layout.
export const put = (el, k, v) => { if (el && el[k] !== v) el[k] = v; };

// reveal scrolls the boxes inside `within` that clip el (a buffer's rows
// wider than a phone, a tall grid in its own scroll box) until el is in
// them, as little as it takes; the page itself never moves. A cell linked
// to the one pointed at may otherwise be lit out of sight.
export function reveal(el, within) {
  for (let box = el?.parentElement; box && box !== within && within?.contains(box); box = box.parentElement) {
    const wide = box.scrollWidth > box.clientWidth, tall = box.scrollHeight > box.clientHeight;
    if (!wide && !tall) continue;
    const cs = getComputedStyle(box);
    const r = el.getBoundingClientRect(), b = box.getBoundingClientRect(), pad = 8;
    const left = b.left + box.clientLeft, top = b.top + box.clientTop;
    if (wide && /auto|scroll/.test(cs.overflowX)) {
      if (r.left < left) box.scrollLeft -= left - r.left + pad;
      else if (r.right > left + box.clientWidth) box.scrollLeft += Math.min(r.right - left - box.clientWidth + pad, r.left - left - pad);
    }
    if (tall && /auto|scroll/.test(cs.overflowY)) {
      if (r.top < top) box.scrollTop -= top - r.top + pad;
      else if (r.bottom > top + box.clientHeight) box.scrollTop += Math.min(r.bottom - top - box.clientHeight + pad, r.top - top - pad);
    }
  }
}

// messageLines writes msgs into p a line each, the rule a message cites
// after its words (" — rule") in a smaller span, as the server does
// (views.messageLines).
function messageLines(p, msgs) {
  p.replaceChildren();
  (msgs || []).forEach((msg, i) => {
    if (i) p.append('\n');
    const k = msg.indexOf(' — ');
    if (k < 0) { p.append(msg); return; }
    const rule = document.createElement('span');
    rule.className = 'rule';
    rule.textContent = msg.slice(k);
    p.append(msg.slice(0, k), rule);
  });
}

// gridLinks links the DOM grids' cells (.lc, .bc) in picture as an
// explorer's views do: a cell pointed at is shown (pick(c, false)), a
// cell focused is shown and kept (pick(c, true)) and becomes its grid's
// (the closest of grids) one stop in the tab order, a roving tabindex:
// Tab reaches a grid at the cell last focused. A key moves the focus to
// the cell move(c, key, e) gives (null: none, having prevented what the
// key would do itself if need be), once ready() says there is a picture.
export function gridLinks(picture, grids, ready, pick, move) {
  picture.addEventListener('pointerover', (e) => {
    const c = e.target.closest('.lc, .bc');
    if (c) pick(c, false);
  });
  picture.addEventListener('focusin', (e) => {
    const c = e.target.closest('.lc, .bc');
    if (!c) return;
    for (const x of $$('[tabindex="0"]', c.closest(grids))) if (x !== c) x.tabIndex = -1;
    c.tabIndex = 0;
    pick(c, true);
  });
  picture.addEventListener('keydown', (e) => {
    const c = e.target.closest('.lc, .bc');
    if (!c || !ready()) return;
    const next = move(c, e.key, e);
    if (next) { e.preventDefault(); next.focus(); }
  });
}

// showFieldErrors puts each {field, message} into its field's slot
// ([data-error-for], [data-warning-for]) and sets aria-invalid on the
// inputs that name the slot first in aria-describedby.
export function showFieldErrors(form, errors, warnings) {
  const group = (vs) => vs.reduce((m, v) => ((m[v.field] ||= []).push(v.message), m), {});
  const e = group(errors), w = group(warnings);
  for (const p of $$('[data-error-for]', form)) { const m = e[p.dataset.errorFor]; messageLines(p, m); p.hidden = !m; }
  for (const p of $$('[data-warning-for]', form)) { const m = w[p.dataset.warningFor]; messageLines(p, m); p.hidden = !m; }
  for (const el of $$('input, select, textarea', form)) {
    const id = (el.getAttribute('aria-describedby') || '').split(' ')[0];
    if (id.startsWith('err-')) el.setAttribute('aria-invalid', String(!!e[id.slice(4)]));
  }
}

// boxValue is what one dimension's box holds, for the query's list: one
// number, so a comma in it is a decimal comma (2,5 in Portuguese or
// French), written as a point; as the list's separator it would make two
// numbers of one and move every later one a dimension on.
export function boxValue(input) {
  return input.value.trim().replaceAll(',', '.');
}

// wsURL is /ws asked in the page's language: the cookie that would say it
// is not sent from an embed on another site (SameSite), and may have been
// switched in another tab since this page was drawn.
export function wsURL() {
  // urllang: the ?lang= of the page's URL, if any; where the server takes
  // it as a language, as when it drew the page, the answers' links keep it.
  const l = new URLSearchParams(location.search).get('lang'), asked = l === null ? '' : '&urllang=' + encodeURIComponent(l);
  return (location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + '/ws?lang=' + encodeURIComponent(document.documentElement.lang || 'en') + asked;
}

// langSuffix keeps the URL's ?lang= on the URLs the page writes, so a
// link copied from the address bar opens in the language it was read in.
export function langSuffix() {
  const l = new URLSearchParams(location.search).get('lang');
  return l ? '&lang=' + encodeURIComponent(l) : '';
}

// shownQuery is the state the page draws, as a query with the URL's
// language: the form's last valid state (the server's spelled-out numbers,
// kept by settle), which is also what a room's viewer draws at /r/CODE and
// what a page opened by an example's name (?preset=) shows; else, when
// nothing valid was drawn, the URL's typed state, else fallback.
export function shownQuery(fallback = '') {
  const drawn = $('form input[name=last]')?.value;
  if (drawn) return drawn + langSuffix();
  // Never a room's code or its join ticket (k): they are not the state.
  const parts = location.search.slice(1).split('&').filter((p) => p && !p.startsWith('room=') && !p.startsWith('k=') && p !== 'explore' && !p.startsWith('explore='));
  return parts.length ? parts.join('&') : fallback;
}

// followLinks points the links that carry the page's state at the state
// the address bar holds now, not the one the page was loaded with: the
// language switcher (the same state in another language) and the
// presenter's "Stop presenting" (the same state outside the room).
export function followLinks() {
  const here = () => { const u = new URL(location.href); u.hash = ''; return u; };
  for (const a of $$('nav.lang a[hreflang]')) {
    const u = here();
    u.searchParams.set('lang', a.hreflang);
    a.href = u.pathname + u.search;
  }
  const leave = $('[data-testid=room-leave]');
  if (leave) {
    const u = here();
    u.searchParams.delete('room');
    leave.href = u.pathname + u.search;
  }
}

// settle shows whether an edit's result is valid: when it is not, the
// stale note says the picture is of the last valid <what> (or that there
// is none yet) and the URL keeps the typed state with that last valid
// query; when it is, the note goes and the URL is the result's. how says
// how the history takes the state (editHistory's write, or 'none'). It
// returns m.ok.
export function settle(m, form, picture, what, setURL, how) {
  const stale = $('#stale');
  // What the picture shows names the picture snippet's alt (share.js),
  // and whether it can be an SVG picture: past the SVG's limits the bar
  // says why instead of offering a picture that would be refused.
  if (m.alt) for (const bar of $$('.share')) {
    bar.dataset.shareAlt = m.alt;
    const why = m.noSVG || '';
    for (const el of bar.querySelectorAll('[data-share=svg], [data-share=svg-part]')) el.hidden = !!why;
    const note = bar.querySelector('[data-share=nosvg]');
    if (note) { note.textContent = why; note.hidden = !why; }
  }
  // An answer with errors that draws the last valid state the edit
  // carried (m.last) makes that state the last valid one.
  if (!m.ok && m.last) form.elements.last.value = m.last;
  const last = form.elements.last.value;
  if (!m.ok) {
    stale.textContent = !last ? t('stale.none')
      : what === 'slice' ? t('stale.slice')
        : what === 'convert' ? t('stale.convert')
        : what === 'depthspace' ? t('stale.depthspace')
        : what === 'join' ? t('stale.join')
        : what === 'padding' ? t('stale.padding')
        : what === 'tile' ? t('stale.tile')
        : t('stale.tensor');
    stale.hidden = false;
    setURL(m.query + (last ? '&last=' + encodeURIComponent(last) : ''), how, m.query);
    markPresets(null);
    picture.dataset.state = 'invalid';
    return false;
  }
  stale.hidden = true;
  form.elements.last.value = m.query;
  setURL(m.query, how);
  markPresets(m.query);
  return true;
}

// viewKeys are the query keys that change how a state is shown, not what
// it is: an example is the state whatever they hold.
const viewKeys = ['labels', 'sel', 'cell', 't', 'lang', 'last', 'room', 'explore', 'preset'];
function stateOf(query) {
  const p = new URLSearchParams(query);
  for (const k of viewKeys) p.delete(k);
  p.sort();
  return p.toString();
}

// keptKeys are what the examples keep of the state they replace, as the
// server writes their links (picture.PresetLinks): its data type and, on
// the slice explorer, its feature level.
const keptKeys = ['dt', 'fl'];

// markPresets follows a valid state query: the example chips keep its
// data type and feature level, and the one the state is, if any, is
// marked (aria-current, as the server marks it); none for an invalid
// state (query null).
export function markPresets(query) {
  const cur = query == null ? null : new URLSearchParams(query), want = query == null ? null : stateOf(query);
  for (const a of $$('a.preset')) {
    const u = new URL(a.href, location.href);
    // Rewritten only when the state changed one: a link left alone keeps
    // the server's spelling.
    if (cur && keptKeys.some((k) => cur.get(k) !== u.searchParams.get(k))) {
      for (const k of keptKeys) {
        if (cur.has(k)) u.searchParams.set(k, cur.get(k)); else u.searchParams.delete(k);
      }
      a.href = u.pathname + u.search.replace(/%2C/g, ',');
    }
    a.setAttribute('aria-current', String(want !== null && stateOf(u.search) === want));
  }
}

// refused handles an error message m: one the server's work budget
// refused an edit with (docs/protocol.md, codes "busy" and "too-large")
// keeps the last picture and says why; a busy edit is sent again, by
// again, after retryAfter to 1.5 x retryAfter seconds (spread, so that
// the pages the server refused together do not all come back at once).
// Any other error is logged.
export function refused(m, picture, again) {
  const stale = $('#stale');
  if (m.code === 'busy') {
    const s = m.retryAfter > 0 ? m.retryAfter : 2;
    stale.textContent = t('js.busy');
    setTimeout(again, (1 + Math.random() / 2) * s * 1000);
  } else if (m.code === 'too-large') {
    stale.textContent = t('js.too-large');
  } else {
    console.warn('stridescope:', m.message);
    return;
  }
  stale.hidden = false;
  // A picture still streaming when the refused edit went out stops here.
  for (const p of $$('.progress', picture)) p.hidden = true;
  picture.dataset.state = 'refused';
}

// undrawn says that the module a picture waits for (its canvases') did
// not load, rather than leave the picture "computing" over canvases that
// stay blank; the next edit asks for the module again (client.js
// drawingModule).
export function undrawn(picture) {
  const stale = $('#stale');
  stale.textContent = t('js.undrawn');
  stale.hidden = false;
  picture.dataset.state = 'refused';
}

// afterDrawing is a view's onDone: rest (draw the canvases, show the
// focus) once their module is in (get: drawingModule) if needed(meta),
// else at once; not for an answer a newer one replaced (client.js).
export function afterDrawing(st, needed, get, rest) {
  const m = st.meta, go = () => { if (st.meta === m) rest(); };
  if (m && needed(m)) return get().then(go);
  go();
}

// queryOf writes [key, value] pairs as a query, commas unescaped as the
// server's canonical queries have them.
export const queryOf = (pairs) => pairs.map(([k, v]) => k + '=' + encodeURIComponent(v).replace(/%2C/gi, ',')).join('&');

// swapIn puts an answer's fragment into its container, unless the
// container still holds the fragment the server drew with the same key
// (data-key): the first answer after a page load repeats the page, and
// laying it out and painting it again would only delay the first frame.
export function swapIn(el, html, key) {
  if (key && el.dataset.key === key) return;
  el.innerHTML = html;
  delete el.dataset.key;
}

// patchIn is swapIn for a picture drawn as cells: the nodes that stay
// are kept and only what differs from html is changed (attributes, text;
// nodes of another kind replaced, the rest added or removed), so that an
// edit of a small picture re-styles and re-lays-out the cells that
// change, not all of them, and the cell that has the focus keeps it (and
// its place in the tab order).
export function patchIn(el, html, key) {
  if (key && el.dataset.key === key) return;
  const t = document.createElement('template');
  t.innerHTML = html;
  patchChildren(el, t.content);
  delete el.dataset.key;
}
// viewIn swaps a view of the picture in: patched in place (patchIn) when
// it is drawn as cells (mode 'dom') and was (no canvas of the page's in
// it, whose port and tools the page added), else replaced. Its .view, and
// #picture when any view is, carry data-canvas while it is a canvas, as
// the server writes them: the stylesheet keys the legends on that rather
// than on :has([data-mode=canvas]), which made every change anywhere in
// the page (the caption under the pointer) restyle every cell of every
// view, 3.5 ms a hover on a 16x16 slice.
export function viewIn(el, html, key, mode) {
  (mode === 'dom' && !el.querySelector('canvas') ? patchIn : swapIn)(el, html, key);
  el.closest('.view')?.toggleAttribute('data-canvas', mode === 'canvas');
  const pic = el.closest('#picture');
  pic?.toggleAttribute('data-canvas', !!pic.querySelector('[data-mode=canvas]'));
}
// patchChildren walks both lists of children side by side, with no
// array per element: a 16x16 picture has some 2,000 nodes.
function patchChildren(to, from) {
  let a = to.firstChild, b = from.firstChild;
  while (b) {
    const nb = b.nextSibling;
    if (!a) { to.append(b); b = nb; continue; }
    const na = a.nextSibling;
    if (a.nodeType !== b.nodeType || a.nodeName !== b.nodeName) a.replaceWith(b);
    else if (a.nodeType !== 1) { if (a.nodeValue !== b.nodeValue) a.nodeValue = b.nodeValue; } else { patchAttrs(a, b); patchChildren(a, b); }
    a = na; b = nb;
  }
  while (a) { const na = a.nextSibling; a.remove(); a = na; }
}
function patchAttrs(a, b) {
  const focused = a === document.activeElement, want = b.attributes; // the focused cell keeps its roving tabindex
  for (let i = 0; i < want.length; i++) {
    const { name, value } = want[i];
    if (a.getAttribute(name) !== value && !(focused && name === 'tabindex')) a.setAttribute(name, value);
  }
  const have = a.attributes;
  if (have.length === want.length) return;
  for (let i = have.length - 1; i >= 0; i--) { const name = have[i].name; if (!b.hasAttribute(name) && !(focused && name === 'tabindex')) a.removeAttribute(name); }
}

// copyButtons makes the pages' Copy buttons (button[data-copy], rendered
// hidden before the code blocks they copy, also in the fragments the
// websocket swaps in) work where there is a clipboard.
export function copyButtons() {
  if (!navigator.clipboard) return;
  const reveal = () => { for (const b of $$('button[data-copy][hidden]')) b.hidden = false; };
  reveal();
  new MutationObserver(reveal).observe(document.body, { childList: true, subtree: true });
  document.addEventListener('click', async (e) => {
    const b = e.target.closest('button[data-copy]');
    const src = b && document.querySelector(`[data-testid="${b.dataset.copy}"]`);
    if (!src) return;
    try {
      await navigator.clipboard.writeText(src.textContent);
      b.textContent = t('js.copied');
    } catch {
      getSelection().selectAllChildren(src); // the browser refused: select it for Ctrl+C
      b.textContent = t('js.press');
    }
    setTimeout(() => { b.textContent = t('copy.button'); }, 2000);
  });
}

// formVals is what the form's enabled inputs named name hold, in order
// (one per dimension row shown).
export const formVals = (form, name) => $$(`[name=${name}]:not(:disabled)`, form).map(boxValue);

// liveSubmit sends the form over the socket instead of submitting it
// while the page is live: go(e) sends it. Offline, the form's own GET
// submits (the page works without the socket).
export function liveSubmit(form, client, go) {
  form.addEventListener('submit', (e) => {
    client.cancel();
    if (!client.live) return;
    e.preventDefault();
    go(e);
  });
}
