// stridescope: an axis-map explorer's grids above the DOM limit
// (DML_PADDING1, DML_TILE), drawn on two canvases from the answer's meta
// alone: per output axis the input coordinate each output coordinate
// reads (-1: the padding value; docs/protocol.md, "The padding
// explorer"). The input is coloured by element index, each output
// element by the colour of the element it reads, the padding value in
// grey. Pointer and keys link as the grids' cells do; Enter goes to the
// linked element of the other canvas. An element picked is named as
// the grids' cell would be (out-k, in-k): the room's focus (room() the
// page's room), which a viewer's page shows with show(id).

import { $ } from './live.js';
import { t, num } from './words.js';
import { coordOf, indexOf } from './layout.js';
import { rgba, rampPacked, markPixels, itemBox } from './canvas.js';
import { drawTensor } from './tensor-canvas.js';

const HOLE = [205, 212, 220], MARK = [230, 57, 70], SIBLING = [244, 162, 97];
// The most output elements a pick marks as reading one input element.
const MAX_MARKS = 4096;

// padded is whether output coordinate co lies in the padding (start:
// the padding before each axis, sizes the input's).
const padded = (co, start, sizes) => co.some((c, d) => c < (start[d] || 0) || c >= (start[d] || 0) + sizes[d]);
// paler is a packed colour halfway to white: a padding element that
// copies an input element (EDGE, REFLECTION, SYMMETRIC, WRAP) in that
// element's colour, told apart from the input's own place.
const paler = (c) => {
  const ch = (s) => { const v = (c >>> s) & 255; return (v + ((255 - v) >> 1)) << s; };
  return (ch(0) | ch(8) | ch(16) | (255 << 24)) >>> 0;
};

// mapCanvases draws the canvases of the explorer whose slots are
// slot + '-in' and slot + '-out' from st.meta ({inSizes, outSizes,
// labels, axes}); st.start, when set (the padding before each axis),
// draws the output's padding paler than the input's own place.
export function mapCanvases(st, slot, room) {
  const cvs = {};
  const m = () => st.meta;
  // src is the input element output element k reads, -1 for the value;
  // srcAt the same of its coordinate co, which it overwrites.
  const src = (k) => srcAt(coordOf(m().outSizes, k));
  function srcAt(co) {
    const M = m();
    for (let d = 0; d < co.length; d++) {
      co[d] = M.axes[d][co[d]];
      if (co[d] < 0) return -1;
    }
    return indexOf(M.inSizes, co);
  }
  // readers lists up to MAX_MARKS output elements that read input
  // element i (per axis, the output coordinates that read its
  // coordinate), and how many there are in all.
  function readers(i) {
    const M = m(), co = coordOf(M.inSizes, i);
    const per = co.map((c, d) => M.axes[d].flatMap((x, o) => (x === c ? [o] : [])));
    const count = per.reduce((a, l) => a * l.length, 1), out = [];
    const walk = (d, acc) => {
      if (out.length >= MAX_MARKS) return;
      if (d === per.length) { out.push(indexOf(M.outSizes, acc)); return; }
      for (const o of per[d]) walk(d + 1, [...acc, o]);
    };
    walk(0, []);
    return { list: out, count };
  }
  function setup(kind, sizes, paint) {
    const cv = $(`#${slot}-${kind}-canvas`);
    if (!cv) return;
    const c = cvs[kind] = drawTensor(cv, sizes, m().labels, paint, (k, focus) => pick(kind, k, focus));
    cv.addEventListener('keydown', (e) => {
      if (e.key !== 'Enter' || c.cursor < 0) return;
      const to = kind === 'out' ? 'in' : 'out', d = cvs[to];
      const k = kind === 'out' ? src(c.cursor) : indexOf(m().outSizes, ownPlace(c.cursor));
      if (d && k >= 0) {
        d.cursor = k;
        e.preventDefault();
        d.cv.focus();
      }
    });
  }
  // ownPlace is the output coordinate where input element i is itself:
  // on each axis the first output coordinate that reads its coordinate.
  const ownPlace = (i) => coordOf(m().inSizes, i).map((c, d) => Math.max(0, m().axes[d].indexOf(c)));
  function pick(kind, k, focus) {
    const dot = $('#dot'), M = m();
    // A canvas reached by focus or a click holds its element for Enter,
    // and the page holds it as its focus.
    if (focus && cvs[kind]) { cvs[kind].cursor = k; st.focus = kind + '-' + k; }
    room()?.publish({ focus: kind + '-' + k });
    if (kind === 'out') {
      const i = src(k), coord = coordOf(M.outSizes, k).join(',');
      if (i < 0) {
        dot.textContent = t('js.padding.pad', { coord, value: M.value ?? '' });
        mark({ out: [k] });
        return;
      }
      dot.textContent = t('js.padding.out', { coord, value: M.values ? M.values[i] : num(i + 1), from: coordOf(M.inSizes, i).join(',') });
      mark({ in: [i], out: [k] });
      return;
    }
    const r = readers(k);
    dot.textContent = t('js.padding.in', { coord: coordOf(M.inSizes, k).join(','), value: M.values ? M.values[k] : num(k + 1), n: num(r.count) });
    mark({ in: [k], outAll: r.list });
  }
  function mark(ms) {
    if (cvs.in) markPixels(cvs.in, [[ms.in || [], MARK]]);
    if (cvs.out) markPixels(cvs.out, [[ms.outAll || [], SIBLING], [ms.out || [], MARK]]);
  }
  // draw starts again from the meta of the answer last received.
  function draw() {
    for (const kind of ['in', 'out']) delete cvs[kind];
    const M = m();
    if (!M || M.inputMode !== 'canvas') return;
    const span = Math.max(1, M.inCount - 1), hole = rgba(HOLE), start = st.start;
    setup('in', M.inSizes, (i) => rampPacked(i / span));
    // One coordinate a pixel: whether it is padding, then what it reads.
    setup('out', M.outSizes, (k) => {
      const co = coordOf(M.outSizes, k), pad = start && padded(co, start, M.inSizes), i = srcAt(co);
      if (i < 0) return hole;
      const c = rampPacked(i / span);
      return pad ? paler(c) : c;
    });
  }
  // show shows the element an id names (out-k, in-k) on its canvas, if
  // it is drawn, and returns that canvas; any other id marks nothing.
  function show(id) {
    const [kind, i] = id.split('-'), k = Number(i);
    if (!cvs[kind] || !Number.isInteger(k) || k < 0 || k >= cvs[kind].n) return mark({});
    pick(kind, k, false);
    return cvs[kind].cv;
  }
  // pick is exported for the step-through (axismap.js's mapSteps): it
  // returns the output element's box, which the step's bar keeps clear.
  return { draw, show, pick: (k) => cvs.out && (pick('out', k, false), itemBox(cvs.out, k)) };
}
