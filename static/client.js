// stridescope: the edit client every explorer runs, so that an explorer
// is only what it draws. It owns the websocket (docs/protocol.md): each
// edit and its seq, the answers and their frames, the progress, "done",
// the socket going offline and coming back; the form's typed state and
// the page's own answer; the URL and the history (history.js); and the
// room (rooms.js). The explorer's render module hands it a view, a few
// hooks the client calls as the answers come:
//
//   page           the room's name of the page ('layout', 'slice', ...),
//                  which its edits name too ('layout' is the protocol's
//                  default, which the layout explorer's edits leave out)
//   what           whose stale picture the page keeps ('tensor', 'slice')
//   pushes         the form's selects whose change is a new history entry
//   formQuery()    the form's state as a query
//   presetQuery(a) the query an example's link a sends
//   onForm(m, sent)   a result's form: write it back (sent: the edit's
//                  options, below), before the result settles the URL
//   onResult(m, sent) a result with a picture: swap its fragments in and
//                  keep what its frames and canvases need
//   onFrame(kind, first, payload) a binary frame of the shown edit: its
//                  kind (protocol.js FRAME), the index of its first item,
//                  payload(Uint8Array) its payload as that typed array
//   onDone()       every frame is in: draw the canvases, show the focus
//   onReady()      optional: the socket said hello
//   applyRoom(s)   optional: a room state whose query the page shows
//                  already (the rest of it, such as a step); one with a
//                  new query once that query's picture is drawn
//   focus          the picture's focus, for the room (rooms.js roomFocus)
//                  and the pointer leaving it: focused, show, clear
//
// An edit's options (send's second argument, handed back as sent) are
// structural (the answer rewrites every field), push (a new history
// entry), nav (from the history itself: the history stays as it is) and
// tentative (the URL stays when the answer has errors); the view may
// keep its own there too.

import { $, $$, liveSocket, showFieldErrors, settle, refused, undrawn, copyButtons, langSuffix } from './live.js';
import { editHistory } from './history.js';
import { PROTOCOL_VERSION as V, framePayload } from './protocol.js';

// The body's data-later is 'loading' until what the page loads after its
// first frame is in (afterPaint, below), then 'loaded': a page whose
// Embed popover or peek is to be used at once (the browser tests) waits
// for that. It is set before anything this module waits for.
document.body.dataset.later = 'loading';

// The room client (rooms.js) is only on a page in a room (one with a
// room bar). Elsewhere its module is neither loaded nor waited for
// before the page's first paint (issue #38), and the page's room is
// none: no role, never following, nothing to share. A module script runs
// once the page is parsed, so the bar is there to be seen.
const inRoom = !!document.getElementById('room-bar');
const { roomClient, roomFocus } = inRoom ? await import('./rooms.js') : { roomClient: noRoom, roomFocus: () => ({ take() {}, drawn() {} }) };
function noRoom() {
  return { role: '', code: '', following: false, open() {}, closed() {}, message: () => false, publish() {}, local() {}, urlSuffix: () => '', path: () => location.pathname };
}

// What a page shows below its picture (views.AfterPaint) comes hidden,
// so that its first frame styles and lays out only the part it shows.
// Every operator page imports this module, which shows it in the task
// after the first frame that follows the page's modules: they all run
// before DOMContentLoaded (readyState is 'interactive' while they run),
// so a picture the page carries is linked in that frame. A link to an id
// inside it (#facts-h) is followed then: the browser found nothing to
// scroll to while it was hidden.
//
// What the first screen can do without for a moment waits for that task
// too (later): the widgets' own modules (data-module: the share bar's,
// the tools'), the phone's peek, and the canvases' module of a picture
// drawn as cells. Every module a page loads is a request its first paint
// shares two cores with, and its start is script run before the picture
// is linked (issue #38).
const afterPaint = [showAfterPaint, () => Promise.all($$('[data-module]').map((el) => import(el.dataset.module)))];
const afterFirstFrame = () => requestAnimationFrame(() => setTimeout(() => {
  Promise.allSettled(afterPaint.splice(0).map((fn) => fn())).then(() => { document.body.dataset.later = 'loaded'; });
}, 0));
if (performance.getEntriesByType('navigation')[0]?.domContentLoadedEventStart > 0) afterFirstFrame();
else addEventListener('DOMContentLoaded', afterFirstFrame, { once: true });
function showAfterPaint() {
  const hidden = $$('.after-paint[hidden]');
  for (const el of hidden) el.hidden = false;
  let id = '';
  try { id = decodeURIComponent(location.hash.slice(1)); } catch { return; }
  const at = id && document.getElementById(id);
  if (at && hidden.some((el) => el.contains(at))) at.scrollIntoView();
}

// later runs fn in the task after the page's first frame, or at once
// once that has passed; a fn given before that frame holds the page's
// data-later at 'loading' until its promise settles.
export function later(fn) {
  if (afterPaint.length) afterPaint.push(fn); else fn();
}

// drawingModule imports the picture's canvases' module by load(), once:
// at once when the page drew it on canvases, else after the first frame
// (later). What it returns gives that promise, retrying a failed import.
export function drawingModule(picture, load) {
  let loading = null;
  const get = () => (loading ??= load().catch((err) => { loading = null; throw err; }));
  if (picture.hasAttribute('data-canvas')) get(); else later(get);
  return get;
}

// editClient makes the client of the explorer in form and picture; its
// start() opens the socket once the view has set up what its hooks use.
export function editClient(form, picture, view) {
  const st = { seq: 0, answered: 0, ws: null, sent: {}, meta: null, invalid: false, frames: 0, got: 0, own: null, shown: '', roomQuery: undefined, again: null };
  const wire = { ...(view.page === 'layout' ? {} : { page: view.page }), frames: 'runs' };
  document.body.dataset.live = 'connecting';
  copyButtons();
  nudgeButtons();
  const room = roomClient(view.page, { apply: applyRoom });
  const focus = roomFocus(room, picture, view.focus);
  // The pointer leaving the picture shows the focused cell again (which
  // shares it in a room), or shares that none is.
  picture.addEventListener('pointerleave', (e) => {
    // A finger that lifts leaves too, after every tap: there is no hover
    // to undo, and showing the focus again would come before the tap's
    // own click (an arrow button's, which moves from the focus shown).
    if (e.pointerType === 'touch') return;
    const f = view.focus.focused();
    if (f) view.focus.show(f); else room.publish({ focus: '' });
  });
  // "Present this" (a page outside a room) opens the room with the state
  // the page shows now (the URL holds it), not the one it was loaded with.
  const presentForm = document.getElementById('present-form');
  if (presentForm) presentForm.addEventListener('submit', () => { presentForm.elements.query.value = location.search.slice(1); });
  let glance = { update() {} };
  later(() => import('./peek.js').then((m) => { glance = m.peek(form, picture); }));

  // send sends an edit as the newest: the answers of every earlier one
  // are ignored from now on. False while the socket is down.
  function send(query, opts = {}) {
    if (!st.ws) return false;
    sent(form, query);
    st.seq++; st.sent = opts; st.again = () => send(query, opts);
    st.ws.send(JSON.stringify({ v: V, type: 'edit', ...wire, seq: st.seq, query }));
    picture.dataset.state = 'computing';
    return true;
  }
  // Typing goes out as typed: no timer holds a keystroke back. While an
  // edit is in flight (sent, not yet answered) the newest typed edit
  // waits in pending, replacing any older one, and goes when the answer
  // comes: a fast typist's keystrokes coalesce into one edit per round
  // trip instead of one per key, and the server (latest wins) never
  // works on more than the newest. cancel drops the edit waiting; a
  // refused edit is not sent again once one was typed after it
  // (onText's error).
  let pending = null;
  const inFlight = () => st.ws !== null && st.answered < st.seq;
  const soon = (fn) => { if (inFlight()) pending = fn; else { pending = null; fn(); } };
  const cancel = () => { pending = null; };
  // answered notes that edit seq has its answer, and sends the edit
  // typed meanwhile.
  function answered(seq) {
    st.answered = Math.max(st.answered, seq);
    if (pending && !inFlight()) { const fn = pending; pending = null; fn(); }
  }
  // Back and Forward are the viewer's own moves: a following viewer
  // detaches first, as with any edit of their own.
  const hist = editHistory(form, { go: (q) => { room.local(); send(q, { structural: true, nav: true }); }, cancel, reset: (q) => send(q, { structural: true, push: true }) });

  // setURL shows a state in the address bar: how is a history.write's,
  // or 'none' for a state from the history itself.
  function setURL(q, how, sentQ = q) {
    room.publish({ query: q });
    // A viewer following the room keeps the room's address; one exploring
    // on their own has their edits in it, as on the page itself.
    if (room.following || how === 'none') return;
    hist.write(room.path() + '?' + q + room.urlSuffix() + langSuffix(), sentQ, how);
  }

  function onText(m) {
    if (m.type === 'hello') {
      document.body.dataset.live = 'ready'; $('#live-note').hidden = false; $('#offline-note').hidden = true; $('button.apply').hidden = true;
      hist.show(); view.onReady?.();
      return;
    }
    if (room.message(m)) return;
    if (m.seq) answered(m.seq); // a superseded edit's answer still ends its flight
    if (m.seq !== st.seq) return; // a newer edit supersedes it
    if (m.type === 'done') { finish(); return; }
    if (m.type === 'error') {
      const again = st.again;
      // Not sent again once a newer edit went, or is about to (typing).
      refused(m, picture, () => { if (st.seq === m.seq && !pending) again(); });
      return;
    }
    if (m.type !== 'result' || (wire.page && m.page !== wire.page)) return;
    const opts = st.sent;
    showFieldErrors(form, m.errors, m.warnings);
    view.onForm(m, opts);
    st.shown = typed(form) || view.formQuery(); // the form as this answer left it
    const how = opts.nav || (!m.ok && opts.tentative) ? 'none' : opts.push || opts.structural ? 'push' : 'edit';
    // A state with errors is drawn only when the answer carries the
    // picture of its last valid state (an entry of the history).
    st.invalid = !settle(m, form, picture, view.what, setURL, how);
    if (st.invalid && !m.meta) return;
    st.meta = m.meta;
    st.frames = m.stream ? framesOf(m.stream) : 0; st.got = 0;
    picture.dataset.seq = m.seq;
    view.onResult(m, opts);
    if (m.stream) { picture.dataset.state = 'streaming'; progress(); }
  }

  function onBinary(buf) {
    const d = new DataView(buf);
    if (d.getUint8(1) !== V || d.getUint32(4, true) !== st.seq || !st.meta) return;
    view.onFrame(d.getUint8(0), Number(d.getBigUint64(16, true)), (T) => framePayload(buf, T));
    st.got++; progress();
  }
  function progress() {
    for (const p of $$('.progress', picture)) { p.hidden = st.got >= st.frames; p.value = st.frames ? (100 * st.got) / st.frames : 100; }
  }
  // finish shows the picture once every frame of the edit is in. A view
  // whose drawing waits for a module (the layout's or the slice's
  // canvases, the first time a picture needs them) hands back its
  // promise: the picture is done once drawn, or says the module did not
  // load, unless a newer edit has been sent meanwhile.
  function finish() {
    if (!st.meta) return;
    progress();
    const seq = st.seq, drawing = view.onDone();
    if (drawing) drawing.then(() => { if (st.seq === seq) shown(); }, () => { if (st.seq === seq) undrawn(picture); });
    else shown();
  }
  function shown() {
    picture.dataset.state = st.invalid ? 'invalid' : 'done';
    focus.drawn();
    // A room state that came with a new query: the rest of it (the
    // presenter's step) once a picture is drawn, or a viewer who joins
    // mid-step would wait for the next (not for a viewer gone exploring).
    const rest = st.roomRest;
    st.roomRest = null;
    if (rest && room.following) view.applyRoom?.(rest);
    glance.update();
  }

  // ---- rooms: a viewer applies the presenter's state like its own edit ----
  function applyRoom(s, fresh) {
    const again = fresh || s.query !== st.roomQuery;
    st.roomRest = again ? s : null;
    if (again) { st.roomQuery = s.query; send(s.query, { structural: true }); }
    else view.applyRoom?.(s);
    focus.take(s, !again && picture.dataset.state === 'done'); // else shown when the picture is drawn
  }

  // ---- the form ----
  // A viewer who edits explores on their own (rooms.js).
  for (const ev of ['input', 'change', 'submit']) form.addEventListener(ev, room.local, true);
  $('.presets').addEventListener('click', (e) => e.target.closest('a[data-preset]') && room.local(), true);
  form.addEventListener('change', (e) => {
    const n = e.target.name;
    if (n === 'rank') send(view.formQuery() + '&rank=' + e.target.value, { structural: true });
    else if (n === 'mode') send(view.formQuery(), { structural: true });
    else if (view.pushes.includes(n)) send(view.formQuery(), { push: true });
  });
  $('.presets').addEventListener('click', (e) => {
    const a = e.target.closest('a[data-preset]');
    if (!a) return;
    const q = view.presetQuery(a);
    if (send(q, { structural: true, push: true })) { hist.picked(q); e.preventDefault(); }
  });

  return {
    room, send, soon, cancel, setURL,
    get live() { return st.ws !== null; },
    // sent is the options of the newest edit.
    get sent() { return st.sent; },
    // invalid: the picture shown is of the last valid state, not the form's.
    get invalid() { return st.invalid; },
    // finish shows a picture that has no frames to wait for (the layout
    // explorer's, at once rather than at its done).
    finish,
    // typedStride: typing a stride while packed (or padded rows') strides
    // are chosen makes the strides explicit, the other boxes keeping the packed strides
    // they show, and goes at once as a new entry; before() first clears
    // what the edit undoes. It reports whether e was that.
    typedStride(e, before) {
      if (e.target.name !== 'strides' || !['packed', 'rows'].includes(form.elements.mode.value)) return false;
      form.elements.mode.value = 'explicit'; before?.(); cancel(); send(view.formQuery(), { push: true });
      return true;
    },
    start() {
      hist.start(openedQuery(form, view.formQuery));
      // The form holds the state the server drew: the URL's, or a tour
      // step's own when the URL only says how to show it (?room=,
      // ?labels=). A state the rows cannot hold goes as typed, so that
      // its error stays. A state typed while the socket was down (or
      // before it first opened, or sent and never answered) is an edit:
      // the address bar, which holds the history entry's state, and the
      // links that follow it take it once it is answered. liveSocket
      // opens the socket again after a drop, with the jittered backoff
      // every page uses.
      liveSocket({
        open(ws) {
          // A new socket has nothing in flight: an edit the old one lost
          // holds no typing back.
          st.ws = ws; st.answered = st.seq;
          // The page's own answer (takeOwnAnswer) needs no asking again.
          const q = typed(form) || view.formQuery(), own = q === st.own;
          st.own = null;
          // The state the page shows, sent again, is no new history entry.
          if (!own) send(q, { structural: true, nav: q === history.state?.ss?.q || q === st.shown });
          room.open((msg) => ws.send(JSON.stringify(msg)));
        },
        text: onText,
        binary: onBinary,
        closed: () => wentOffline(st, room),
      });
      // The picture the server drew is linked now when the page carries
      // its answer; the socket (whose open comes after this) is asked
      // only for what changed since.
      takeOwnAnswer(form, st, view.formQuery, onText);
    },
  };
}

// framesOf is how many binary frames a result's stream announces: a
// count per kind, each named …Frames (countFrames; copiedFrames and
// readFrames).
const framesOf = (s) => Object.entries(s).reduce((n, [k, v]) => (k.endsWith('Frames') ? n + v : n), 0);

// nudgeButtons makes a canvas's arrow buttons (views.CanvasSlot, shown to
// a touch screen, which has no arrow keys) move its selection as the
// arrow keys do: a finger lands on several elements of a dense canvas,
// the buttons then reach the one meant. The caption the move wrote (#dot,
// which can be a screen away on a phone) is repeated under them.
function nudgeButtons() {
  document.addEventListener('click', (e) => {
    const b = e.target.closest('[data-nudge]'), slot = b?.closest('.canvas-slot'), cv = slot?.querySelector('canvas');
    if (!cv) return;
    cv.dispatchEvent(new KeyboardEvent('keydown', { key: b.dataset.nudge, cancelable: true }));
    const echo = slot.querySelector('.nudge-echo'), dot = document.getElementById('dot');
    if (echo && dot) echo.textContent = dot.textContent;
  });
}

// wentOffline is what a dropped socket does to a live page (st its state,
// room its roomClient): it says so, and its Apply button submits the
// form as a page without JavaScript does until the socket is back.
function wentOffline(st, room) {
  st.ws = null; room.closed(); document.body.dataset.live = 'offline';
  $('#live-note').hidden = true; $('#offline-note').hidden = false; $('button.apply').hidden = false;
}

// typed is the query of a state the form's rows cannot hold (data-typed:
// nine dimensions, a list longer than the sizes, a rank the select cannot
// show), which the page sends instead of the rows until something else is
// sent: on connecting, on reconnecting and as the history's first entry.
const typed = (form) => form.dataset.typed || '';

// sent forgets the typed state once another query is sent.
function sent(form, query) {
  if (form.dataset.typed && query !== form.dataset.typed) delete form.dataset.typed;
}

// ownAnswer is the socket's answer to the state the server drew, which
// the page carries when that picture is all in its HTML (#answer,
// docs/protocol.md): the page takes it as the answer to its first edit
// and links its cells without waiting for the socket. It is null when
// there is none, or when the form no longer holds that state (something
// was typed before the modules ran): the socket is asked then, as always.
function ownAnswer(form) {
  const el = document.getElementById('answer');
  return el && !typed(form) && pristine(form) ? JSON.parse(el.textContent) : null;
}

// takeOwnAnswer gives onText the page's own answer, when it carries one
// (ownAnswer), as the socket gives an answer: the result, then done, for
// a first edit of the form's state, structural and from the history's
// first entry. st.own keeps that state's query, which the socket's open
// then need not send.
function takeOwnAnswer(form, st, formQuery, onText) {
  const own = ownAnswer(form);
  if (!own) return;
  st.own = formQuery();
  st.seq++; st.sent = { structural: true, nav: true };
  onText({ ...own, seq: st.seq });
  onText({ type: 'done', seq: st.seq });
}

// pristine reports whether the form still holds what the server drew.
function pristine(form) {
  for (const e of form.elements) {
    const same = e.type === 'radio' || e.type === 'checkbox' ? e.checked === e.defaultChecked
      : e.tagName === 'SELECT' ? [...e.options].every((o) => o.selected === o.defaultSelected)
        : !('defaultValue' in e) || e.value === e.defaultValue;
    if (!same) return false;
  }
  return true;
}

// openedQuery is the state the page opened on, for the history's first
// entry: the form's, or, when something was typed before the page's
// module ran, the valid state the server drew (the form's last), so that
// what was typed goes in as an edit, into the address bar.
const openedQuery = (form, formQuery) =>
  typed(form) || (pristine(form) || $('#stale')?.hidden === false || !form.elements.last.value ? formQuery() : form.elements.last.value);
