// stridescope rooms: a presenter drives, the class follows
// (docs/protocol.md, "Rooms"). A page that can be presented makes one
// roomClient and lets it use its websocket: the presenter's page shares
// its state (query, focus, step) whenever it changes; a viewer's page
// applies every state it receives exactly like its own edit, until the
// viewer detaches to explore and rejoins with one click.

import { liveSocket, jitter, followLinks, shownQuery } from './live.js';
import { t, hasText } from './words.js';
import { PROTOCOL_VERSION as V } from './protocol.js';

// The room's questions and the presenter's pace are only on a page in a
// room (one with a room bar): elsewhere their three modules are not
// loaded, nor waited for before the page's first paint and its start
// (issue #38). A module script runs once the page is parsed, so the bar
// is there to be seen. In a room the import waits here, before the page
// starts, so the room client always has them.
const inRoom = !!document.getElementById('room-bar');
const { questionPanel } = inRoom ? await import('./questions.js') : { questionPanel: () => ({ message: () => false, state() {}, student: () => '', open() {} }) };
const { paceControls } = inRoom ? await import('./pace.js') : { paceControls: () => ({ message() {}, open() {} }) };

const DETACHED = t('js.room.detached');
const FOLLOWING = t('room.following');
const STOPPED = t('js.room.stopped');
const RECONNECTING = t('js.room.reconnecting');
const ENDED = t('js.room.ended');
const ENDED_HERE = t('js.room.ended.presenter');
const GONE_HERE = t('js.room.gone.presenter');
const GONE = t('js.room.gone');
const MOVED = t('js.room.moved');
const ROOM_ERRORS = new Set(['not-presenter', 'no-room', 'too-many-attempts', 'bad-room-state', 'bad-room-message', 'rooms-unavailable', 'reconnecting']);
const SHARE_EVERY = 60; // ms: at most ~16 shared states a second (hover is fast)

// roomClient(page, hooks): page is "layout" or "slice" (the room bar may say
// "tour": the explorer of a tour step); hooks.apply(state, fresh) shows a
// state of the room (fresh: the first one after a follow, so apply it
// whatever the page shows now). Without a room bar on the page every
// method is a no-op.
export function roomClient(page, hooks) {
  const bar = document.getElementById('room-bar');
  const role = bar ? bar.dataset.role : '', code = bar ? bar.dataset.room : '';
  if (bar && bar.dataset.page) page = bar.dataset.page;
  // The tour's step is in its path: another step is another page.
  const pathStep = page === 'tour' ? +bar.dataset.step : 0;
  const q = (id) => bar && bar.querySelector(`[data-testid=${id}]`);
  // The room's questions (questions.js): a student follows as the same
  // student again (its token), so that a reload changes their answer.
  // A question is about what the page shows: its state waiting for its
  // turn to be shared goes first.
  const quiz = questionPanel(role, code, (m) => send && send(m), () => { if (timer) { clearTimeout(timer); share(); } });
  const followMsg = () => { placed = false; return { v: V, type: 'follow', room: code, student: quiz.student() || undefined }; };
  const pace = paceControls(role, code, (m) => send && send(m));
  // A class at its own pace (the room's state says so, and this tab keeps
  // it): a viewer's page on another step follows all the same, says where
  // it is, and is not moved until the presenter brings everyone back.
  const paceKey = 'stridescope-pace-' + code;
  const paced = () => { try { return sessionStorage.getItem(paceKey) === 'student'; } catch { return false; } };
  const setPaced = (on) => { try { if (on) sessionStorage.setItem(paceKey, 'student'); else sessionStorage.removeItem(paceKey); } catch { /* this page only */ } };
  let placed = false;
  const count = q('room-watching'), status = q('room-status'), detachBtn = q('room-detach'), rejoinBtn = q('room-rejoin'), hereBtn = q('room-here');
  // A viewer's page opened with ?explore (another tour step, a kept
  // exploration) is theirs: it follows again on Rejoin.
  let send = null, following = role === 'viewer' && (!('exploring' in (bar?.dataset || {})) || paced()), fresh = true;
  let away = false; // the presenter has left the room (a "presence" message)
  let ended = false; // the presenter ended the room: the page is no longer in it
  let moved = false; // a presenter's tab: another tab presents the room now
  let myId = ''; // the presenter connection this page was, to resume it after a dropped socket
  // Until the page says otherwise, its state is its URL's (without the room).
  const cur = { page, query: location.search.slice(1).replace(/(^|&)(room=[^&]*|explore(=[^&]*)?)(?=&|$)/g, '').replace(/^&/, ''), focus: '', step: pathStep };
  let shared = '', last = 0, timer = 0, dirty = false; // dirty: the page has said what it shows

  function say(text, state) { if (status) status.textContent = text; if (bar) bar.dataset.state = state; }
  function share() {
    timer = 0;
    if (!send || ended || moved) return;
    const s = JSON.stringify(cur);
    if (s === shared) return;
    shared = s; last = Date.now();
    send({ v: V, type: 'publish', room: code, state: cur });
  }
  function follow() {
    if (ended) return;
    following = true; fresh = true; away = false; // the server says again if the presenter is away
    // A viewer who explored on their own had their edits in the address
    // bar; following again, a reload follows the room again.
    if (role === 'viewer' && location.pathname !== '/r/' + code) {
      const l = new URLSearchParams(location.search).get('lang');
      history.replaceState(history.state, '', '/r/' + code + (l ? '?lang=' + encodeURIComponent(l) : ''));
      followLinks();
    }
    swapButtons(rejoinBtn, detachBtn);
    say(FOLLOWING, 'following');
    if (send) send(followMsg());
  }
  function detach() {
    following = false;
    swapButtons(detachBtn, rejoinBtn);
    say(DETACHED, 'detached');
    if (send) send({ v: V, type: 'unfollow' });
  }
  // swapButtons shows `on` in the place of `off`, and takes the keyboard's
  // focus along when it was on `off` (hidden, it would leave it on body).
  function swapButtons(off, on) {
    if (!off || !on) return;
    const had = document.activeElement === off;
    off.hidden = true; on.hidden = false;
    if (had) on.focus();
    // The count is of those following: not this page's while it explores.
    if (count) count.closest('.room-count').hidden = on === rejoinBtn;
  }
  if (detachBtn) {
    if (following) swapButtons(rejoinBtn, detachBtn); else { swapButtons(detachBtn, rejoinBtn); say(DETACHED, 'detached'); }
    detachBtn.addEventListener('click', detach);
    rejoinBtn.addEventListener('click', follow);
  }
  // A viewer arriving on a phone, or any window that stacks the form over
  // the picture, is taken to the picture: the explorer's form comes first
  // on the page (it is where the presenter types), and the class would
  // open the room on a screenful of it. Once, on arrival; a reload or a
  // step back keeps where they were, and the tour's text stays first.
  // Every explorer's: the data-movement pages' forms come first too.
  if (role === 'viewer' && page !== 'tour') {
    const pic = document.getElementById('picture');
    const nav = performance.getEntriesByType('navigation')[0];
    // Under the bar, which stays at the top there (rooms.css).
    if (pic && scrollY === 0 && (!nav || nav.type === 'navigate') && matchMedia('(max-width: 60rem)').matches) scrollTo(0, pic.getBoundingClientRect().top - bar.getBoundingClientRect().height - 8);
  }

  if (role === 'viewer') {
    // Leaving the page stops following, so the presenter's count drops at
    // once even if the browser keeps the page and its socket in its
    // back/forward cache; coming back to it follows again.
    addEventListener('pagehide', () => { if (send && following) send({ v: V, type: 'unfollow' }); });
    addEventListener('pageshow', (e) => { if (e.persisted && send && following) { fresh = true; away = false; send(followMsg()); } });
  }
  // The presenter's links to pages a room can show stay in the room: the
  // class follows the presenter there.
  if (role === 'presenter') {
    // Escape backs out of "End the room?", back on its summary.
    const endBox = q('room-end');
    if (endBox) endBox.addEventListener('keydown', (e) => {
      if (e.key !== 'Escape' || !endBox.open) return;
      endBox.open = false;
      endBox.querySelector('summary').focus();
    });
    // Leaving the page ("Stop presenting", another page, a reload) ends
    // presenting even if the browser keeps the page and its socket in its
    // back/forward cache; coming back to it presents again.
    addEventListener('pagehide', () => { if (send) send({ v: V, type: 'unpresent' }); });
    // A page come back to is the one in use: it presents, taking over.
    addEventListener('pageshow', (e) => { if (e.persisted && send && !ended) presentHere(); });
    if (hereBtn) hereBtn.addEventListener('click', presentHere);
    for (const a of document.querySelectorAll('a[href]')) {
      if (a.getAttribute('href').startsWith('#')) continue; // the skip link stays on the page
      const u = new URL(a.href, location.href);
      if (u.origin !== location.origin || a.closest('#room-bar') || !/^\/(slice|tour(\/\d+)?)?$/.test(u.pathname)) continue;
      if (u.pathname === '/tour') u.pathname = '/tour/1';
      u.searchParams.set('room', code);
      a.href = u.pathname + u.search + u.hash;
    }
  }

  // A viewer's tour steps stay in the room: another step is theirs to
  // read (the bar offers to follow again), the presenter's step is where
  // Rejoin takes them; so does the step's Reset. The arrow keys follow
  // these links (tour.js).
  if (role === 'viewer' && page === 'tour') {
    for (const a of document.querySelectorAll('a[data-tour], .tour-steps a[href], a.tour-reset')) {
      const u = new URL(a.href, location.href);
      if (u.origin !== location.origin || !/^\/tour\/\d+$/.test(u.pathname)) continue;
      u.searchParams.set('room', code); u.searchParams.set('explore', '');
      a.href = u.pathname + u.search.replace(/explore=(?=&|$)/, 'explore') + u.hash;
    }
  }

  // rejoin presents or follows again after the room's bus came back; a
  // detached viewer stays detached. The presenter's page shares its state
  // again once presenting (a state sent while the bus was down may be lost).
  let retry = 1000; // the next wait before trying again while the bus is down
  function rejoin() {
    if (!send || ended) return;
    if (role === 'presenter') { if (!moved) { shared = ''; send({ v: V, type: 'present', room: code, resume: myId || undefined }); } }
    else if (role === 'viewer' && following) { away = false; fresh = true; send(followMsg()); say(FOLLOWING, 'following'); }
    else if (role === 'viewer') say(DETACHED, 'detached');
  }

  // presentHere takes the room back from the tab or device that took it
  // over (or presents again after the back/forward cache).
  function presentHere() {
    moved = false;
    if (hereBtn) {
      const had = document.activeElement === hereBtn;
      hereBtn.hidden = true;
      if (had) q('room-show')?.focus(); // not left on the page's body
    }
    shared = '';
    if (send) send({ v: V, type: 'present', room: code });
  }

  // end: the presenter ended the room. The page keeps what it shows and
  // leaves the room: its address, and the links that carried the room,
  // lose it (the code opens nothing any more), so a reload shows the
  // page itself.
  function end(text) {
    ended = true; following = false;
    if (detachBtn) detachBtn.hidden = rejoinBtn.hidden = true;
    // The bar's code, links, count and buttons go with data-state=ended (rooms.css).
    say(text || (role === 'presenter' ? ENDED_HERE : ENDED), 'ended');
    const q = shownQuery();
    history.replaceState(history.state, '', api.path() + (q ? '?' + q : '') + location.hash);
    const strip = (u) => { u.searchParams.delete('room'); u.searchParams.delete('explore'); return u; };
    for (const a of document.querySelectorAll('a[href]')) {
      if (a.closest('#room-bar') || !a.getAttribute('href').includes('room=')) continue;
      const l = strip(new URL(a.href, location.href));
      if (l.origin === location.origin) a.href = l.pathname + l.search + l.hash;
    }
    followLinks();
  }

  const api = {
    role, code,
    get following() { return role === 'viewer' && following; },
    // open gives the client the socket's send(obj) once it is open (again).
    open(fn) {
      send = fn; shared = '';
      if (ended) return;
      // A socket come back resumes: a tab that took the room over
      // meanwhile keeps it (the server answers "moved").
      if (role === 'presenter') { if (moved) say(MOVED, 'moved'); else send({ v: V, type: 'present', room: code, resume: myId || undefined }); }
      else if (role === 'viewer' && following) { fresh = true; away = false; send(followMsg()); }
      else if (role === 'viewer') say(DETACHED, 'detached');
    },
    closed() { send = null; if (role && !ended) say(t('js.reconnecting'), 'offline'); },
    // message handles a server message about rooms; false for any other.
    message(m) {
      pace.message(m);
      if (quiz.message(m)) return true;
      if (m.type === 'ended') { if (!ended && m.room === code) end(); return true; }
      if (m.type === 'moved') {
        // Another tab or device presents now: this one shares nothing
        // until "Present here".
        if (!ended && m.room === code && role === 'presenter') {
          moved = true;
          say(MOVED, 'moved');
          if (hereBtn) hereBtn.hidden = false;
        }
        return true;
      }
      if (ended) return ['presenting', 'watching', 'room', 'presence', 'link'].includes(m.type) || (m.type === 'error' && ROOM_ERRORS.has(m.code));
      if (moved && m.type === 'link') return true; // not presenting: nothing to say or redo
      if (m.type === 'presenting' || m.type === 'room') retry = 1000;
      if (m.type === 'presenting' || m.type === 'watching') {
        if (count) count.textContent = m.watching;
        if (m.type === 'presenting') { myId = m.id || ''; say(t('room.presenting'), 'presenting'); quiz.open(); pace.open(); if (dirty) share(); }
        return true;
      }
      if (m.type === 'room') {
        // The count comes in "watching" messages: a state's may be older.
        quiz.state(m.state.question);
        if (!following) return true;
        const alone = m.state.pace === 'student';
        setPaced(alone);
        if (alone && !placed && page === 'tour' && send) { placed = true; send({ v: V, type: 'where', room: code, step: pathStep }); }
        if (alone) say(t('js.pace.own'), 'following');
        if (m.state.page !== page || (page === 'tour' && m.state.step !== pathStep)) { if (!alone) location.assign('/r/' + code); return true; } // the presenter moved to another page
        const f = fresh; fresh = false;
        if (!away && !alone && bar.dataset.state !== 'following') say(FOLLOWING, 'following');
        // On a tour page step is the tour's step, not the explorer's
        // step-through (that is in the query's t).
        hooks.apply(page === 'tour' ? { ...m.state, step: undefined } : m.state, f);
        return true;
      }
      if (m.type === 'presence') {
        // The presenter left (no presenter connection anywhere) or came
        // back: the page keeps the last picture meanwhile and follows
        // again, with no click, when they present again.
        away = !m.presenting;
        if (following) say(away ? STOPPED : FOLLOWING, away ? 'stopped' : 'following');
        return true;
      }
      if (m.type === 'link' || (m.type === 'error' && (m.code === 'reconnecting' || m.code === 'too-many-attempts'))) {
        // The bus between the server's replicas went down, or could not be
        // reached to present or follow: say so (the presenter has not
        // stopped), and present or follow again when it is back.
        if (m.type === 'link' && m.connected) { retry = 1000; rejoin(); return true; }
        if (role === 'viewer' && !following && m.type === 'link') return true; // exploring on their own: nothing to say
        say(RECONNECTING, 'offline');
        if (m.type === 'error') { setTimeout(rejoin, jitter(retry)); retry = Math.min(retry * 2, 16000); }
        return true;
      }
      if (m.type === 'error' && ROOM_ERRORS.has(m.code)) {
        // The server's English, or this page's language's words for the code.
        const text = hasText('js.room.err.' + m.code) ? t('js.room.err.' + m.code) : m.message;
        // The room is gone (it ended or expired while this page was away):
        // the page is the viewer's, as when they hear it end. A
        // presenter's tab that may not present any more (the room ended
        // in another tab, its cookie with it) leaves the room too.
        if (m.code === 'no-room' && role === 'viewer') { end(GONE); return true; }
        if (m.code === 'not-presenter' && role === 'presenter') { end(GONE_HERE); return true; }
        say(text, 'error');
        return true;
      }
      return false;
    },
    // publish merges part of the presenter's state ({query}, {focus},
    // {step}) and shares it soon; a viewer's page shares nothing.
    publish(part) {
      if (role !== 'presenter' || ended) return;
      // A tour step's step is its path's: the slice explorer's step-through
      // (10 and 11) goes in the query's t, or every viewer would be sent to
      // another step, again and again.
      if (page === 'tour' && 'step' in part) { part = { ...part }; delete part.step; }
      Object.assign(cur, part); dirty = true;
      if (timer) return;
      timer = setTimeout(share, Math.max(0, SHARE_EVERY - (Date.now() - last)));
    },
    // local is called when the viewer edits the page: they explore on their own.
    local() { if (role === 'viewer' && following) detach(); },
    // urlSuffix keeps the presenter's page in the room across reloads.
    // A viewer exploring on their own keeps the room too, with a way back.
    urlSuffix() { return ended ? '' : role === 'presenter' ? '&room=' + code : role === 'viewer' && !following ? '&room=' + code + '&explore' : ''; },
    // path is where the page's own state goes in the address bar: a
    // viewer's page is at /r/CODE, but what a detached viewer explores is
    // the page the room showed, whose path the server wrote in the bar
    // (any explorer's: a reload then keeps their exploration).
    path() { return role !== 'viewer' ? location.pathname : bar.dataset.path; },
  };
  return api;
}

// roomFocus shares what a picture points at, the same way on every
// explorer (docs/protocol.md, "publish"). The page shares each cell it
// shows (a hover or a keyboard focus) with room.publish({focus: id}),
// and an empty focus when the pointer leaves the picture with none
// focused (client.js). A viewer's page hands each room state to
// take(state, drawn) (drawn: its picture is up to date, show the focus
// now) and calls drawn() when it has drawn a new picture: the
// presenter's focus is shown with hooks.show(id), and an empty one
// clears the highlight (hooks.clear()).
// hooks.show may return the element it lit, a canvas (whose pixel no
// .sel names), to be brought into a viewer's screen as a cell is.
export function roomFocus(room, picture, hooks) {
  let theirs = ''; // the presenter's focus, on a viewer's page
  // A viewer reading their own part of the page is left where they are:
  // the presenter's cell is brought into view only when the viewer has
  // not touched, wheeled, clicked or typed for a while (the scrolling
  // they do is those; a scroll event alone may be the page's own). A
  // viewer who has touched nothing since the page opened is not busy
  // (0 made the page's first four seconds busy).
  let busy = -Infinity;
  const now = () => performance.now();
  for (const ev of ['wheel', 'touchstart', 'touchmove', 'pointerdown', 'keydown']) {
    addEventListener(ev, () => { busy = now(); }, { capture: true, passive: true });
  }
  const show = (f) => {
    const lit = hooks.show(f);
    if (!room.following || now() - busy < 4000) return;
    const el = lit instanceof Element ? lit : picture.querySelector('.sel, [aria-selected="true"]');
    const r = el?.getBoundingClientRect();
    if (!r || (r.bottom > 0 && r.top < innerHeight)) return;
    el.scrollIntoView({ block: 'center', behavior: matchMedia('(prefers-reduced-motion: reduce)').matches ? 'auto' : 'smooth' });
  };
  return {
    take(s, drawn) { theirs = s.focus || ''; if (drawn) { if (theirs) show(theirs); else hooks.clear(); } },
    drawn() { if (room.following && theirs) show(theirs); },
  };
}

// standalone follows or presents the room of a page that has no live
// widget of its own (a tour step without the explorer): it opens the
// socket itself; a viewer's page only moves when the presenter does.
export function standalone() {
  const room = roomClient('', { apply() {} });
  if (!room.role) return;
  room.publish({}); // the page is its path: share it once presenting
  liveSocket({ open(ws) { room.open((m) => ws.send(JSON.stringify(m))); }, text(m) { room.message(m); }, closed() { room.closed(); } });
}
