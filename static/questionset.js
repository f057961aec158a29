// stridescope set questions (#41): "tap every cell the slice reads". A
// student's taps toggle cells of the question's grid (its cells' id
// prefix, q.grid: "in", the slice's input); the page sends the set and
// the server judges it (docs/protocol.md, "Questions"). The presenter sees
// the answers grouped (exact, missing some, extra cells, both), each slip
// the explorer can name, and how many picked each cell as a heat.

import { t, num } from './words.js';
import { markPixels } from './canvas.js';

const GROUP = {
  exact: t('js.question.group.exact'),
  missing: t('js.question.group.missing'),
  extra: t('js.question.group.extra'),
  both: t('js.question.group.both'),
};
const YOURS = {
  exact: t('js.question.yours.exact'),
  missing: t('js.question.yours.missing'),
  extra: t('js.question.yours.extra'),
  both: t('js.question.yours.both'),
};

// onRedraw calls fn (under name; null: none) whenever the picture's cells
// are redrawn (an edit's fragments swapped in), so that what a question
// marks on cells (the picks, the heat, the right set) comes back: one
// observer for the page, each mark's function replaced by its next call.
const redraws = new Map();
let redrawWatch = null;
export function onRedraw(name, fn) {
  if (fn) redraws.set(name, fn); else redraws.delete(name);
  const pic = document.getElementById('picture');
  if (redrawWatch || !pic) return;
  redrawWatch = new MutationObserver(() => { for (const f of redraws.values()) f(); });
  redrawWatch.observe(pic, { childList: true, subtree: true });
}

// cellOf is answer v's cell on the page: a cell of the question's grid,
// else the layout explorer's buffer (b-) or logical view (l-).
export function cellOf(q, v) {
  const prefix = q.grid ? q.grid + '-' : q.elements ? 'l-' : 'b-';
  return document.getElementById(prefix + v);
}

// pickable says whether el is a cell a student picks for q: one of its
// grid's, else the layout explorer's buffer (cells) or logical view.
export function pickable(q, target) {
  if (q.grid) {
    const el = target.closest?.('#picture .lc');
    return el && el.id.startsWith(q.grid + '-') ? el : null;
  }
  return q.cells ? target.closest?.('#buffer .bc') : q.elements ? target.closest?.('#logical .lc') : null;
}

// byCoords is the cell of q's grid at the coordinates typed ("1,2").
export function byCoords(q, text) {
  const c = text.replace(/[()\s]/g, '');
  const sel = q.grid ? `#picture .lc[id^="${q.grid}-"][data-c="${c}"]` : `#logical .lc[data-c="${c}"]`;
  return document.querySelector(sel);
}

// picker keeps a student's picked cells: a tap toggles one, marked on the
// cell (data-picked; aria-selected, which a grid's screen reader says),
// and marked again when a redraw (the presenter's step) brings new cells.
export function picker() {
  const picked = new Set();
  let grid = '';
  const mark = (el, on) => {
    if (!el) return;
    if (on) el.dataset.picked = ''; else delete el.dataset.picked;
    el.setAttribute('aria-selected', String(on));
  };
  const remark = () => {
    for (const v of picked) {
      const el = document.getElementById(grid + '-' + v);
      if (el && el.dataset.picked === undefined) mark(el, true);
    }
  };
  return {
    toggle(el) {
      const v = Number(el.dataset.i);
      grid = el.id.slice(0, el.id.lastIndexOf('-'));
      if (picked.has(v)) picked.delete(v); else picked.add(v);
      mark(el, picked.has(v));
      onRedraw('picks', remark);
      return picked.size;
    },
    values: () => [...picked].sort((a, b) => a - b),
    clear() {
      picked.clear();
      onRedraw('picks', null);
      for (const el of document.querySelectorAll('#picture [data-picked]')) mark(el, false);
    },
  };
}

// groupList writes a set question's answers into list: each group with
// how many gave it, the exact one marked, a slip named if it can be.
export function groupList(list, tally, wrong) {
  list.replaceChildren(...(tally?.groups || []).map((g) => {
    const li = document.createElement('li');
    li.dataset.group = g.group;
    if (g.name) li.dataset.name = g.name;
    li.textContent = t('js.question.count', { v: GROUP[g.group] || g.group, n: num(g.n) });
    if (g.group === 'exact') { li.classList.add('right'); li.append(' ✓ ' + t('js.question.right')); }
    else if (g.name && wrong[g.name]) li.append(' · ' + wrong[g.name]);
    return li;
  }));
}

// groupOf is how a set answers q: the same words as the presenter's groups.
function groupOf(set, right) {
  const r = new Set(right), s = new Set(set);
  const missing = right.some((v) => !s.has(v)), extra = set.some((v) => !r.has(v));
  return missing && extra ? 'both' : missing ? 'missing' : extra ? 'extra' : 'exact';
}

// yours is what a student's own set was, once revealed.
export function yours(q, mine) {
  return YOURS[groupOf(mine, q.correctSet || [])];
}

// showAnswer marks the cells of the revealed right set (data-answer), or
// clears them (q null).
export function showAnswer(q) {
  for (const el of document.querySelectorAll('#picture [data-answer]')) delete el.dataset.answer;
  const mark = () => {
    for (const v of q.correctSet) {
      const el = cellOf(q, v);
      if (el) el.dataset.answer = '';
    }
  };
  onRedraw('answer', q?.correctSet ? mark : null);
  if (q?.correctSet) mark();
}

// answerText is the revealed answer of a set question: how many cells and
// the working.
export function answerText(q) {
  return t('js.question.answerSet', { n: num((q.correctSet || []).length), why: q.explain });
}

// HEAT are the canvas's heat colours, from a few of the class to most of
// it: darker is more, and each is ringed where the cells are small.
const HEAT = [[235, 125, 20], [190, 80, 0], [122, 40, 0]];

// canvasHeat draws the class's picks on a view drawn as a canvas (past
// 256 cells), where no cell can carry data-heat: the layout explorer's
// buffer for a cell question, its logical view for an element one.
// counts null clears it.
export function canvasHeat(q, counts, answered) {
  for (const name of ['buffer', 'logical']) {
    const c = document.getElementById(name + '-canvas')?.drawn;
    if (!c) continue;
    const mine = counts && (name === 'buffer' ? q.cells : q.elements && !q.grid);
    if (!mine && !c.heat) continue;
    const groups = HEAT.map((col) => [[], col]);
    for (const { value, n } of mine ? counts : []) {
      const r = n / Math.max(1, answered);
      groups[r > 2 / 3 ? 2 : r > 1 / 3 ? 1 : 0][0].push(value);
    }
    c.heat = mine ? groups : null;
    markPixels(c, c.heat || []);
  }
}
