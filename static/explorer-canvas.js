// stridescope: the layout explorer's views of more than 4,096 cells,
// drawn on canvases (explorer.js's view): the logical tensor coloured by
// its elements' offsets, the buffer by how many elements each cell holds
// (or compute's bitmap of the cells held). Their pointer and keys link
// as the grids' cells do, through the view's show.

import { $ } from './live.js';
import { offsetRamp, panelCaptions, rgba, paintCounts, paintBits, markPixels, canvasLinks } from './canvas.js';
import { clamp, box, tensorLayout, bufferStrip } from './canvas-layout.js';
import { zoomView, measureCaption, redrawMini, imageOf } from './canvas-zoom.js';

const COLORS = { tail: [244, 246, 248], hole: [205, 212, 220], used: [168, 218, 220], shared: [244, 162, 97], mark: [230, 57, 70] };

// layoutCanvases draws the canvases of the layout explorer's picture
// (st its state, show(target, isFocus) its link of an element or a
// cell); it returns what explorer.js uses.
export function layoutCanvases({ picture, st, show }) {
  // bounds is the box a view's canvas may take: its slot's width (less
  // the canvas's border), at most 1100 CSS px, and most of the screen's
  // height.
  function bounds(name) {
    const slot = $(`#${name}-canvas`)?.closest('.canvas-slot'), w = slot ? slot.clientWidth - 2 : picture.clientWidth - 60;
    return box(clamp(w, 200, 1100), clamp(Math.round(innerHeight * 0.7), 320, 640));
  }
  function setupCanvas(name, L, n, b, paint) {
    const cv = $(`#${name}-canvas`);
    if (!cv) return;
    // -1: nothing selected on it yet. A room question's heat (questionset.js)
    // is drawn on it, through cv.drawn, and stays over a redraw.
    const c = st.canvases[name] = { L, cursor: -1, heat: st.canvases[name]?.heat };
    cv.drawn = c;
    c.view = zoomView(cv, L, b, name === 'logical' ? (ov) => panelCaptions(ov, L, st.meta.sizes, st.meta.labels) : null);
    c.view.cursor = () => c.cursor;
    const ctx = c.ctx = cv.getContext('2d'), img = c.img = imageOf(cv, ctx, L);
    paint(img.data);
    ctx.putImageData(img, 0, 0);
    c.dirty = []; // the canvas holds the image: marks put back only what they cover
    if (c.heat) markPixels(c, c.heat);
    redrawMini(c.view);
    const target = (k) => (name === 'logical' ? { kind: 'l', i: k } : { kind: 'b', o: k });
    canvasLinks(cv, c, n, () => (name === 'logical' ? st.meta.sizes : null), (k, isFocus) => show(target(k), isFocus));
  }
  function markCanvas(name, ks) {
    const c = st.canvases[name];
    if (!c) return;
    markPixels(c, [...(c.heat || []), [ks, COLORS.mark]]);
  }
  function drawLogical() {
    const m = st.meta, s = m.sizes, n = m.logicalCount, span = Math.max(1, m.last);
    const b = bounds('logical'), L = tensorLayout(s, n, m.labels, b, measureCaption);
    setupCanvas('logical', L, n, b, (px) => {
      offsetRamp(new Uint32Array(px.buffer), L, n, s, m.strides, st.offsets, span);
    });
  }
  function drawBuffer() {
    const m = st.meta, b = bounds('buffer'), L = bufferStrip(m, b);
    const cols = ['tail', 'hole', 'used', 'shared'].map((k) => rgba(COLORS[k]));
    setupCanvas('buffer', L, m.cells, b, (px) => (st.touched ? paintBits(px, L, m.cells, m.last, [[st.touched, cols[2]]], cols[1], cols[0])
      : paintCounts(px, L, st.counts, m.last, cols)));
  }
  return { drawLogical, drawBuffer, markCanvas };
}
