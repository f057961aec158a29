// stridescope questions: the presenter asks the class about the state on
// screen, the students answer on their own devices (docs/protocol.md,
// "Questions"). rooms.js hands this module the room's messages and its
// socket; the answers are judged on the server, never here.
//
// The presenter's panel asks, shows the count and the distribution as the
// answers come in (a heat on the buffer's cells, and counts with the
// wrong answers the explorer can name), closes and reveals. A student's
// panel says the question (a live region), takes a tapped cell or a typed
// number and an optional nickname, and, once revealed, the answer, its
// working and the class's answers. While a question is open the page
// hides what would give it away (body[data-asking], rooms.css).

import { t, num } from './words.js';
import { PROTOCOL_VERSION as V } from './protocol.js';
import { cellOf, pickable, byCoords, picker, groupList, yours, showAnswer, answerText, canvasHeat, onRedraw } from './questionset.js';

const WRONG = {
  'question.wrong.packed': t('js.question.wrong.packed'),
  'question.wrong.reversed': t('js.question.wrong.reversed'),
  'question.wrong.bytes': t('js.question.wrong.bytes'),
  'question.wrong.elements': t('js.question.wrong.elements'),
  'question.wrong.unrounded': t('js.question.wrong.unrounded'),
  'question.wrong.packedSize': t('js.question.wrong.packedSize'),
  'question.wrong.total': t('js.question.wrong.total'),
  'question.wrong.packedElement': t('js.question.wrong.packedElement'),
  'question.wrong.wrongEnd': t('js.question.wrong.wrongEnd'),
  'question.wrong.inclusiveEnd': t('js.question.wrong.inclusiveEnd'),
  'question.wrong.strideOffset': t('js.question.wrong.strideOffset'),
  'question.wrong.everyCell': t('js.question.wrong.everyCell'),
  'question.wrong.noStride': t('js.question.wrong.noStride'),
  'question.wrong.sameCoord': t('js.question.wrong.sameCoord'),
  'question.wrong.noPlusOne': t('js.question.wrong.noPlusOne'),
};
const REFUSED = {
  closed: t('js.question.refused.closed'),
  flood: t('js.question.refused.flood'),
  invalid: t('js.question.refused.invalid'),
  'not-yours': t('js.question.refused.not-yours'),
  reconnecting: t('js.question.refused.reconnecting'),
  'too-many': t('js.question.refused.too-many'),
};

// prompt is the question in the page's language.
function prompt(q) {
  const c = (q.element || []).join(', ');
  if (q.kind === 'cell') return t('js.question.cell', { c });
  if (q.kind === 'offset') return t('js.question.offset', { c });
  if (q.kind === 'element') return t('js.question.element', { o: num(q.cell) });
  if (q.kind === 'reads') return t('js.question.reads');
  if (q.kind === 'source') return t('js.question.source', { c });
  if (q.kind === 'maxcopied') return t('js.question.maxcopied', { a: q.axis ?? 0 });
  return t('js.question.bytes');
}

// shown is an answer as the page writes it: a logical element by its
// coordinates (its cell in the logical view says them), else the number.
function shown(q, v) {
  const c = q.elements && cellOf(q, v)?.dataset.c;
  return c ? `(${c.replaceAll(',', ', ')})` : num(v);
}

// heat colours the cells the class picked (the buffer's for a cell
// question, the logical view's for an element one): the more picked, the
// stronger; no question clears it. A set question's heat is its cells'
// picks; a stale one's is of a picture no longer on screen: none.
function heat(q, tally) {
  for (const el of document.querySelectorAll('#picture [data-heat]')) { el.removeAttribute('data-heat'); el.style.removeProperty('--heat'); }
  const counts = q.set ? tally?.picks : tally?.counts, answered = tally?.answered;
  const on = !!counts && !!(q.cells || q.elements || q.set) && !q.stale;
  canvasHeat(q, on ? counts : null, answered);
  const paint = () => {
    for (const c of counts) {
      const el = cellOf(q, c.value);
      if (!el || el.dataset.heat === String(c.n)) continue;
      el.dataset.heat = c.n;
      el.style.setProperty('--heat', String(Math.max(0.2, c.n / Math.max(1, answered))));
    }
  };
  // The presenter's step or edit redraws the cells: the heat comes back.
  onRedraw('heat', on ? paint : null);
  if (on) paint();
}

// conceal gives the picture's cells names that do not tell the answer
// while a question is open (a logical cell's name says its offset, a
// buffer cell's the element it holds), and gives them back after; it
// keeps doing so for cells a redraw brings (an edit of the presenter's).
let watcher = null;
function conceal(on, grid) {
  const pic = document.getElementById('picture');
  if (!pic) return;
  const rename = () => {
    for (const el of pic.querySelectorAll('.lc[aria-label]:not([data-aria]), .bc[aria-label]:not([data-aria])')) {
      el.dataset.aria = el.getAttribute('aria-label');
      // A logical cell's name still starts with the label it shows (WCAG
      // 2.5.3), but for another grid's than the question's: the slice's
      // output values tell which input cells it read (hidden, rooms.css).
      const label = grid && !el.id.startsWith(grid + '-') ? '' : el.querySelector('.lbl')?.textContent;
      el.setAttribute('aria-label', el.classList.contains('lc') ? (label ? label + ', ' : '') + `(${el.dataset.c})` : t('js.question.cellName', { o: num(+el.dataset.o) }));
    }
  };
  if (on) {
    rename();
    if (!watcher) { watcher = new MutationObserver(rename); watcher.observe(pic, { childList: true, subtree: true }); }
    return;
  }
  watcher?.disconnect(); watcher = null;
  for (const el of pic.querySelectorAll('[data-aria]')) { el.setAttribute('aria-label', el.dataset.aria); delete el.dataset.aria; }
}

// distribution writes the class's answers into list: each answer with how
// many gave it, the right one marked, a wrong one named if it can be.
function distribution(list, q, tally) {
  if (q.set) { groupList(list, tally, WRONG); return; }
  list.replaceChildren(...(tally?.counts || []).map((c) => {
    const li = document.createElement('li');
    li.dataset.value = c.value;
    li.textContent = t('js.question.count', { v: shown(q, c.value), n: num(c.n) });
    if (c.right) { li.classList.add('right'); li.append(' ✓ ' + t('js.question.right')); }
    else if (c.name && WRONG[c.name]) li.append(' · ' + WRONG[c.name]);
    return li;
  }));
}

// elementOf reads "1,2" (or "(1, 2)") as an element's coordinates.
function elementOf(text) {
  const parts = text.replace(/[()\s]/g, '').split(',');
  if (!parts.every((p) => /^\d{1,9}$/.test(p))) return null;
  return parts.map(Number);
}

// questionPanel runs the room bar's question panel (#room-q) for role;
// send(msg) sends on the room's socket (a no-op while it is closed);
// flush() shares at once the presenter's state waiting to be shared.
export function questionPanel(role, code, send, flush) {
  const box = document.getElementById('room-q');
  if (!box) return { message: () => false, state() {}, student: () => '', open() {} };
  const q = (id) => box.querySelector(`[data-testid=${id}]`);
  return role === 'presenter' ? presenter(box, q, code, send, flush) : student(box, q, code, send);
}

function presenter(box, q, code, send, flush) {
  const form = q('q-ask-form'), live = q('q-live'), err = q('q-error');
  const staleNote = t('js.question.stalePresenter');
  const elementLabel = form.querySelector('.q-element'), cellLabel = form.querySelector('.q-cell'), axisLabel = form.querySelector('.q-axis');
  const sync = () => {
    const k = form.elements.kind.value;
    elementLabel.hidden = ['bytes', 'element', 'reads', 'maxcopied'].includes(k); cellLabel.hidden = k !== 'element';
    if (axisLabel) axisLabel.hidden = k !== 'maxcopied';
  };
  form.elements.kind.addEventListener('change', sync); sync();
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const ask = { kind: form.elements.kind.value };
    if (ask.kind === 'element') {
      const c = form.elements.cell.value.trim();
      if (!/^\d{1,15}$/.test(c)) { err.textContent = t('js.question.badCell'); form.elements.cell.focus(); return; }
      ask.cell = Number(c);
    } else if (ask.kind === 'maxcopied') {
      const a = form.elements.axis.value.trim();
      if (!/^\d$/.test(a)) { err.textContent = t('js.question.badAxis'); form.elements.axis.focus(); return; }
      ask.axis = Number(a);
    } else if (ask.kind !== 'bytes' && ask.kind !== 'reads') {
      ask.element = elementOf(form.elements.element.value);
      if (!ask.element) { err.textContent = t('js.question.badElement'); form.elements.element.focus(); return; }
    }
    err.textContent = '';
    flush();
    send({ v: V, type: 'question', room: code, action: 'ask', ask });
  });
  // The tour step's own question, as the server wrote it on the button.
  q('q-tour')?.addEventListener('click', (e) => {
    err.textContent = '';
    flush();
    send({ v: V, type: 'question', room: code, action: 'ask', ask: JSON.parse(e.currentTarget.dataset.ask) });
  });
  for (const action of ['close', 'reveal', 'dismiss']) {
    q('q-' + action).addEventListener('click', () => send({ v: V, type: 'question', room: code, action }));
  }
  function show(m) {
    const qu = m.question;
    live.hidden = !qu; form.hidden = !!qu && !qu.revealed && !qu.stale;
    heat({});
    showAnswer(null);
    if (err.textContent === staleNote) err.textContent = '';
    if (!qu) return;
    // The picture changed under the question: it closed, and its answers
    // are of the picture it was asked on (no heat on this one).
    if (qu.stale) err.textContent = staleNote;
    q('q-prompt').textContent = prompt(qu);
    q('q-count').textContent = num(m.tally?.answered || 0);
    distribution(q('q-dist'), qu, m.tally);
    heat(qu, m.tally);
    const why = q('q-why');
    why.hidden = false;
    why.textContent = qu.set ? answerText(qu) : t('js.question.answer', { v: shown(qu, qu.correct), why: qu.explain });
    q('q-close').hidden = !qu.open;
    q('q-reveal').hidden = qu.revealed;
  }
  return {
    open() { box.hidden = false; },
    state() {},
    student: () => '',
    message(m) {
      if (m.type === 'tally') { box.hidden = false; show(m); return true; }
      if (m.type === 'error' && m.code === 'no-question') { err.textContent = m.message; return true; }
      return false;
    },
  };
}

function student(box, q, code, send) {
  const form = q('q-answer-form'), status = q('q-status'), result = q('q-result');
  const key = 'stridescope-student-' + code;
  let token = '';
  try { token = sessionStorage.getItem(key) || ''; } catch { /* storage off: a new student after a reload */ }
  let cur = null, mine = null; // the question shown; this student's answer to it
  let last = null, retried = false; // the answer last sent; whether it was sent again
  const picks = picker(); // a set question's cells tapped
  const valueLabel = form.elements.value.closest('label');

  function answer(value) {
    if (!cur || !cur.open) return;
    if (value !== last) retried = false;
    last = value;
    const given = Array.isArray(value) ? { set: value } : { value };
    send({ v: V, type: 'answer', room: code, question: cur.id, ...given, nick: form.elements.nick.value.trim() || undefined });
  }
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    if (cur?.set) { answer(picks.values()); return; }
    const v = form.elements.value.value.trim();
    // An element is typed as its coordinates, "1,2": its logical cell says which index it is.
    const el = cur?.elements && byCoords(cur, v);
    if (el) { answer(Number(el.dataset.i)); return; }
    if (cur?.elements || !/^\d{1,15}$/.test(v)) { status.textContent = t('js.question.badValue'); form.elements.value.focus(); return; }
    answer(Number(v));
  });
  // A cell question: tapping a buffer cell (or Enter on it) answers it;
  // an element question: tapping a logical cell.
  // A set question: a tap toggles a cell of its grid, Send sends them.
  const pick = (e) => {
    if (!cur?.open) return;
    const cell = pickable(cur, e.target);
    if (!cell) return;
    if (cur.set) { status.textContent = t('js.question.picked', { n: num(picks.toggle(cell)) }); return; }
    form.elements.value.value = cur.cells ? cell.dataset.o : `${cell.dataset.c}`;
    answer(Number(cur.cells ? cell.dataset.o : cell.dataset.i));
  };
  document.addEventListener('click', pick);
  document.addEventListener('keydown', (e) => { if (e.key === 'Enter') pick(e); });
  // On a grid of the question's own (the slice's input), Enter picks and
  // does nothing else: jumping to the linked cell would tell the answer.
  document.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && cur?.open && cur.grid && pickable(cur, e.target)) { e.stopPropagation(); pick(e); }
  }, true);

  function state(qu) {
    const was = cur;
    cur = qu || null;
    box.hidden = !cur;
    const asking = !!cur && !cur.revealed && !cur.stale;
    if (asking) document.body.dataset.asking = cur.kind; else delete document.body.dataset.asking;
    conceal(asking && cur.kind !== 'bytes', cur?.grid);
    heat({});
    showAnswer(null);
    if (!cur || !asking || was?.id !== cur.id) picks.clear();
    if (!cur) { mine = null; return; }
    if (!was || was.id !== cur.id) { mine = null; form.elements.value.value = ''; status.textContent = ''; }
    valueLabel.hidden = !!cur.set;
    const text = prompt(cur);
    if (q('q-prompt').textContent !== text) q('q-prompt').textContent = text;
    form.hidden = !cur.open;
    result.hidden = !cur.revealed;
    if (!cur.open && !cur.revealed && was?.open) status.textContent = t('js.question.closed');
    if (cur.stale && !was?.stale) status.textContent = t('js.question.stale');
    if (cur.revealed && !was?.revealed) reveal();
    // A later state (the presenter's pointer, a step) keeps the revealed
    // heat and right set drawn, unless the picture changed under them.
    else if (cur.revealed) { heat(cur, cur.result); if (cur.set && !cur.stale) showAnswer(cur); }
  }
  function reveal() {
    const r = cur.result;
    q('q-why').textContent = (cur.set ? answerText(cur) : t('js.question.answer', { v: shown(cur, cur.correct), why: cur.explain })) + ' ' + t('js.question.answered', { n: num(r?.answered || 0) });
    distribution(q('q-dist'), cur, r);
    heat(cur, r);
    if (cur.stale) return;
    if (cur.set) { showAnswer(cur); status.textContent = mine === null ? '' : yours(cur, mine); return; }
    const v = shown(cur, mine);
    status.textContent = mine === null ? '' : mine === cur.correct ? t('js.question.yours.right', { v }) : t('js.question.yours.wrong', { v });
  }
  return {
    open() {},
    state,
    student: () => token,
    message(m) {
      if (m.type === 'student') { token = m.student; try { sessionStorage.setItem(key, token); } catch { /* kept for this page only */ } return true; }
      if (m.type === 'answered') {
        retried = false;
        if (cur && m.question === cur.id) {
          mine = cur.set ? (m.set || []) : m.value;
          status.textContent = cur.set ? t('js.question.sentSet', { n: num(mine.length) }) : t('js.question.sent', { v: shown(cur, m.value) });
        }
        return true;
      }
      if (m.type === 'error' && m.code === 'answer-refused') {
        status.textContent = REFUSED[m.reason] || m.message;
        // The store did not take it (the room's bus is reconnecting):
        // sent again by itself, once, a moment later.
        if (m.reason === 'reconnecting' && last !== null && !retried) { retried = true; setTimeout(() => answer(last), 1500); }
        return true;
      }
      return false;
    },
  };
}
