// stridescope: the join and split explorer's tensors past the DOM's 256
// output elements, drawn on canvases from the answer's meta alone
// (docs/protocol.md, "The join and split explorer"): one tensor on one
// side (a join's output, a split's input) and several on the other, each
// a window of the one along the axis, from starts[k]. Every element has
// the colour of its value, the page's numbers (a join's inputs numbered
// on from one to the next, a split's input from 1, every output element
// its source's); the pointer and the keys pick an element, which names
// the element it is copied from or to and marks both; Enter goes there.
// The step-through (join.js) steps the output elements in copy order: a
// join's output in row-major order, a split's outputs one after another.

import { coordOf, indexOf } from './layout.js';
import { drawTensor } from './tensor-canvas.js';
import { rampPacked, markPixels, itemBox } from './canvas.js';
import { t, num } from './words.js';
import { $ } from './live.js';

const MARK = [230, 57, 70];

// joinCanvases draws st.meta.canvas ({join, axis, starts, labels, one,
// many}: each tensor {slot, name, sizes}). A tensor is named by at: -1
// for the one, k for the many's k. An element picked has the id its
// grid's cell would have (its slot less "js-", then its index: o0-5),
// shared as the room's focus (room() the page's room) and kept as
// st.focus when the keys or a click reach it; show(id) shows one.
export function joinCanvases(st, room) {
  let cvs = new Map(), first = [];
  const C = () => st.meta && st.meta.canvas;
  const tensor = (at) => (at < 0 ? C().one : C().many[at]);
  // across is where element i of tensor at is copied from or to: the
  // other side's [at, element].
  function across(at, i) {
    const M = C(), co = coordOf(tensor(at).sizes, i);
    if (at >= 0) {
      co[M.axis] += M.starts[at];
      return [-1, indexOf(M.one.sizes, co)];
    }
    let k = 0;
    while (k + 1 < M.starts.length && co[M.axis] >= M.starts[k + 1]) k++;
    co[M.axis] -= M.starts[k];
    return [k, indexOf(M.many[k].sizes, co)];
  }
  // value is the page's number of element i of tensor at: the numbered
  // side's own (a join's inputs, a split's input), else its source's.
  function value(at, i) {
    if (C().join === at >= 0) return at < 0 ? i + 1 : first[at] + i + 1;
    const [k, j] = across(at, i);
    return value(k, j);
  }
  // An output element is copied from the other side, an input to it.
  const isOutput = (at) => (at < 0) === C().join;
  const idOf = (at, i) => tensor(at).slot.slice(3) + '-' + i;
  function pick(at, i, focus) {
    const rec = cvs.get(at), T = tensor(at), [k, j] = across(at, i), O = tensor(k);
    if (focus && rec) { rec.cursor = i; st.focus = idOf(at, i); }
    room()?.publish({ focus: idOf(at, i) });
    $('#dot').textContent = t(isOutput(at) ? 'js.joinsplit.from' : 'js.joinsplit.to', {
      name: T.name, coord: coordOf(T.sizes, i).join(','), value: num(value(at, i)), other: O.name, at: coordOf(O.sizes, j).join(','),
    });
    for (const [a, r] of cvs) markPixels(r, [[a === at ? [i] : a === k ? [j] : [], MARK]]);
  }
  function setup(at, span) {
    const cv = $(`#${tensor(at).slot}-canvas`);
    if (!cv) return;
    const rec = drawTensor(cv, tensor(at).sizes, C().labels, (i) => rampPacked((value(at, i) - 1) / span), (i, focus) => pick(at, i, focus));
    cvs.set(at, rec);
    cv.addEventListener('keydown', (e) => {
      if (e.key !== 'Enter' || rec.cursor < 0) return;
      const [k, j] = across(at, rec.cursor), to = cvs.get(k);
      if (!to) return;
      to.cursor = j;
      e.preventDefault();
      to.cv.focus();
    });
  }
  // nth is output element k of the copy order as [at, i]: a join's
  // output element k, or element i of the split's output at, where the
  // outputs before it leave off (first).
  function nth(k) {
    if (C().join) return [-1, k];
    let at = 0;
    while (at + 1 < C().many.length && k >= first[at + 1]) at++;
    return [at, k - first[at]];
  }
  // stepOf is step k's numbers for its caption (copy-formulas.js's joinLines):
  // the input (a join) or output (a split) it copies, the output
  // element's coordinate and its source's.
  function stepOf(k) {
    const [o, i] = nth(k), [s, j] = across(o, i);
    return { which: C().join ? s : o, c: coordOf(tensor(o).sizes, i), from: coordOf(tensor(s).sizes, j) };
  }
  // light picks step k's output element as the pointer would (both
  // elements marked, brought into sight on a zoomed canvas, #dot naming
  // them) and returns its box, which the step-through keeps clear of
  // its bar (canvas.js's itemBox).
  function light(k) {
    const [o, i] = nth(k), rec = cvs.get(o);
    pick(o, i, false);
    return rec ? itemBox(rec, i) : null;
  }
  // draw starts again from the meta of the answer last received.
  function draw() {
    cvs = new Map();
    const M = C();
    if (!M) return;
    first = [0];
    for (const T of M.many) first.push(first[first.length - 1] + T.sizes.reduce((a, s) => a * s, 1));
    const span = Math.max(1, first[first.length - 1] - 1);
    setup(-1, span);
    M.many.forEach((_, k) => setup(k, span));
  }
  // show shows the element an id names on its canvas, if it is drawn,
  // and returns that canvas; any other id marks nothing.
  function show(id) {
    const d = id.lastIndexOf('-'), i = Number(id.slice(d + 1));
    for (const [at, r] of cvs) {
      if (d > 0 && 'js-' + id.slice(0, d) === tensor(at).slot && Number.isInteger(i) && i >= 0 && i < r.n) { pick(at, i, false); return r.cv; }
    }
    for (const r of cvs.values()) markPixels(r, []);
  }
  // count is the steps: the output elements, as many as the inputs'.
  const count = () => (C() && cvs.size ? first[first.length - 1] : 0);
  return { draw, count, stepOf, light, show };
}
