// stridescope: a canvas view that zooms and pans (explorer.js and
// slice-canvas.js draw into it). The canvas holds the layout's image, one
// pixel per item (or bin); zooming sets its CSS size, panning scrolls the
// box around it (.cv-port), so the pointer finds its item from the
// canvas's box at every zoom as it does unzoomed, and a finger or a wheel
// pans natively. Ctrl + wheel (a touchpad's pinch), a two-finger pinch,
// the + - 0 keys on the focused canvas and the buttons under it zoom;
// Shift + arrows pan. A view too large for the box at a readable cell
// gets the buttons and, while part of it is out of sight, a minimap.

import { t } from './words.js';
import { clamp } from './canvas-layout.js';

// CAPTION_FONT is the small multiples' captions' font (app.css .cv-cap):
// the layout measures them with it.
const CAPTION_FONT = '12px system-ui, "DejaVu Sans", sans-serif';
let measurer = null;
export function measureCaption(text) {
  measurer ??= document.createElement('canvas').getContext('2d');
  measurer.font = CAPTION_FONT;
  return Math.ceil(measurer.measureText(text).width) + 6;
}

// zoomView puts canvas cv, sized for layout L (b: the box it was laid out
// for, {W, H, min}), in its port and returns the view: z (CSS pixels an
// image pixel), the overlay over the image (ov) and reveal(x, y), which
// scrolls image pixel (x, y) into sight. decorate(ov, view) places the
// labels over the image; it runs again when the zoom changes.
export function zoomView(cv, L, b, decorate) {
  let port = cv.parentElement;
  if (!port.classList.contains('cv-port')) {
    port = document.createElement('div');
    port.className = 'cv-port';
    cv.before(port);
    port.append(cv);
    listen(port, cv);
  }
  let ov = port.querySelector(':scope > .cv-over');
  if (!ov) { ov = document.createElement('div'); ov.className = 'cv-over'; ov.setAttribute('aria-hidden', 'true'); port.append(ov); }
  cv.width = L.w; cv.height = L.h;
  cv.dataset.bin = L.bin; // items a pixel holds each way (the tests read a cell's size from it)
  const fit = Math.min(b.W / L.w, b.H / L.h);
  const V = { L, ov, cv, port, z: L.px, decorate, zmin: Math.min(fit, L.px), zmax: Math.max(L.px, Math.min(L.bin > 1 ? 16 : 3 * b.max, 40000 / Math.max(L.w, L.h))),
    zoomable: L.bin > 1 || fit < b.min };
  V.reveal = (x, y) => reveal(V, x, y);
  port.view = V;
  port.style.maxHeight = Math.ceil(b.H) + 2 + 'px';
  tools(V);
  size(V);
  return V;
}

// size gives the canvas and the overlay the view's zoom, places the
// labels and shows the minimap where some of the view is out of sight.
function size(V) {
  const { cv, ov, L, z } = V, w = L.w * z + 'px', h = L.h * z + 'px';
  cv.style.width = w; cv.style.height = h;
  Object.assign(ov.style, { left: cv.offsetLeft + cv.clientLeft + 'px', top: cv.offsetTop + cv.clientTop + 'px', width: w, height: h });
  ov.replaceChildren();
  ov.classList.toggle('cv-tiny', L.cap > 0 && L.cap * z < 11);
  // Faint lines between the cells when they are large enough to tell
  // apart (over the page's background they do not show).
  const grid = L.bin === 1 && z >= 6;
  ov.style.backgroundImage = grid ? 'linear-gradient(to right, rgb(255 255 255 / .5) 1px, transparent 1px), linear-gradient(rgb(255 255 255 / .5) 1px, transparent 1px)' : '';
  ov.style.backgroundSize = grid ? `${z}px ${z}px` : '';
  V.decorate?.(ov, V);
  const bar = V.bar;
  if (!bar) return;
  bar.querySelector('[data-zoom=out]').disabled = z <= V.zmin * 1.001;
  bar.querySelector('[data-zoom=in]').disabled = z >= V.zmax * 0.999;
  mini(V);
}

// zoomTo sets the zoom, keeping the image point under (ax, ay), client
// coordinates (the port's middle when not given), where it was.
export function zoomTo(V, z, ax, ay) {
  const { port, cv } = V, r = port.getBoundingClientRect();
  const x = ax === undefined ? port.clientWidth / 2 : ax - r.left - port.clientLeft, y = ay === undefined ? port.clientHeight / 2 : ay - r.top - port.clientTop;
  const ix = (port.scrollLeft + x - cv.clientLeft) / V.z, iy = (port.scrollTop + y - cv.clientTop) / V.z;
  V.z = clamp(z, V.zmin, V.zmax);
  size(V);
  port.scrollLeft = ix * V.z + cv.clientLeft - x;
  port.scrollTop = iy * V.z + cv.clientTop - y;
  mini(V);
}
const fitZoom = (V) => Math.min(V.zmax, Math.max(V.zmin, Math.min((V.port.clientWidth - 2) / V.L.w, (parseFloat(V.port.style.maxHeight) - 4) / V.L.h)));

function reveal(V, x, y) {
  const { port, cv, z } = V;
  if (port.matches(':hover')) return; // under the pointer: it is in sight
  const cx = x * z + cv.clientLeft, cy = y * z + cv.clientTop, m = Math.min(24, port.clientWidth / 4);
  if (cx < port.scrollLeft + m || cx + z > port.scrollLeft + port.clientWidth - m) port.scrollLeft = cx - port.clientWidth / 2;
  if (cy < port.scrollTop + m || cy + z > port.scrollTop + port.clientHeight - m) port.scrollTop = cy - port.clientHeight / 2;
}

// listen wires a port's zoom and pan, once: they act on its current view.
function listen(port, cv) {
  const V = () => port.view;
  port.addEventListener('wheel', (e) => {
    if (!e.ctrlKey) return; // a plain wheel scrolls the port, then the page
    e.preventDefault();
    zoomTo(V(), V().z * Math.exp(-e.deltaY * 0.002), e.clientX, e.clientY);
  }, { passive: false });
  // Two fingers pinch; a mouse drags the view (a click that does not
  // move still picks its cell).
  const downs = new Map();
  let pinch = null, drag = null, dragged = false;
  port.addEventListener('pointerdown', (e) => {
    downs.set(e.pointerId, [e.clientX, e.clientY]);
    if (downs.size === 2) {
      const [a, c] = [...downs.values()];
      pinch = { d: Math.hypot(a[0] - c[0], a[1] - c[1]) || 1, z: V().z };
    } else if (e.pointerType === 'mouse' && e.button === 0) drag = { x: e.clientX, y: e.clientY, l: port.scrollLeft, t: port.scrollTop };
    dragged = false;
  });
  port.addEventListener('pointermove', (e) => {
    if (downs.has(e.pointerId)) downs.set(e.pointerId, [e.clientX, e.clientY]);
    if (pinch && downs.size === 2) {
      const [a, c] = [...downs.values()];
      zoomTo(V(), pinch.z * (Math.hypot(a[0] - c[0], a[1] - c[1]) / pinch.d), (a[0] + c[0]) / 2, (a[1] + c[1]) / 2);
    } else if (drag && (dragged || Math.hypot(e.clientX - drag.x, e.clientY - drag.y) > 4)) {
      dragged = true;
      port.scrollLeft = drag.l - (e.clientX - drag.x);
      port.scrollTop = drag.t - (e.clientY - drag.y);
    }
  });
  const up = (e) => { downs.delete(e.pointerId); if (downs.size < 2) pinch = null; drag = null; };
  port.addEventListener('pointerup', up);
  port.addEventListener('pointercancel', up);
  port.addEventListener('click', (e) => { if (dragged) { e.stopPropagation(); dragged = false; } }, true);
  port.addEventListener('scroll', () => mini(V()), { passive: true });
  cv.addEventListener('keydown', (e) => {
    const v = V();
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const step = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[e.key];
    if (e.shiftKey && step) {
      port.scrollLeft += (step[0] * port.clientWidth) / 4;
      port.scrollTop += (step[1] * port.clientHeight) / 4;
    } else if (e.key === '+' || e.key === '=') zoomAt(v, 1.5);
    else if (e.key === '-' || e.key === '_') zoomAt(v, 1 / 1.5);
    else if (e.key === '0') zoomTo(v, fitZoom(v));
    else return;
    e.preventDefault();
  });
}

// zoomAt zooms by f about the selected cell (the middle when none is).
function zoomAt(V, f) {
  const k = V.cursor?.() ?? -1;
  if (k < 0) { zoomTo(V, V.z * f); return; }
  const [x, y] = V.L.toPixel(k), r = V.cv.getBoundingClientRect();
  zoomTo(V, V.z * f, r.left + V.cv.clientLeft + (x + 0.5) * V.z, r.top + V.cv.clientTop + (y + 0.5) * V.z);
}

// tools makes the zoom buttons and the minimap under a port, once, and
// shows them when its view needs them.
function tools(V) {
  const { port } = V;
  let bar = port.nextElementSibling?.classList.contains('cv-tools') ? port.nextElementSibling : null;
  if (!bar) {
    bar = document.createElement('div');
    bar.className = 'cv-tools';
    bar.setAttribute('role', 'group');
    bar.setAttribute('aria-label', t('js.zoom.group'));
    const button = (what, text, label) => {
      const el = document.createElement('button');
      el.type = 'button'; el.dataset.zoom = what; el.textContent = text;
      if (label) el.setAttribute('aria-label', label);
      el.addEventListener('click', () => { const v = port.view; if (what === 'fit') zoomTo(v, fitZoom(v)); else zoomAt(v, what === 'in' ? 1.5 : 1 / 1.5); });
      return el;
    };
    const hint = document.createElement('span');
    hint.className = 'cv-hint'; hint.textContent = t('js.zoom.hint');
    const mini = document.createElement('div');
    mini.className = 'cv-mini'; mini.setAttribute('aria-hidden', 'true'); mini.dataset.testid = 'canvas-minimap';
    mini.append(document.createElement('canvas'), Object.assign(document.createElement('span'), { className: 'cv-mini-view' }));
    // Pointing at the minimap brings that part of the view into sight.
    const go = (e) => {
      if (e.type === 'pointermove' && !e.buttons) return;
      const v = port.view, c = mini.firstChild, r = c.getBoundingClientRect();
      port.scrollLeft = ((e.clientX - r.left) / r.width) * v.L.w * v.z - port.clientWidth / 2;
      port.scrollTop = ((e.clientY - r.top) / r.height) * v.L.h * v.z - port.clientHeight / 2;
    };
    mini.addEventListener('pointerdown', go);
    mini.addEventListener('pointermove', go);
    bar.append(button('out', '−', t('js.zoom.out')), button('in', '+', t('js.zoom.in')), button('fit', t('js.zoom.fit')), hint, mini);
    port.after(bar);
  }
  bar.hidden = !V.zoomable;
  bar.dataset.testid = 'canvas-zoom';
  V.bar = V.zoomable ? bar : null;
  V.mini = bar.querySelector('.cv-mini');
  V.mini.hidden = true;
}

// mini draws the minimap while some of the view is out of sight: the
// image, smaller, and a frame on the part the port shows.
function mini(V) {
  const { port, L, mini: m } = V;
  if (!V.bar || !m) return;
  const out = port.scrollWidth > port.clientWidth + 1 || port.scrollHeight > port.clientHeight + 1;
  m.hidden = !out;
  if (!out) return;
  const s = Math.min(128 / L.w, 96 / L.h), c = m.firstChild, w = Math.max(1, Math.round(L.w * s)), h = Math.max(1, Math.round(L.h * s));
  if (c.width !== w || c.height !== h || !V.drawn) {
    c.width = w; c.height = h; V.drawn = true;
    c.getContext('2d').drawImage(V.cv, 0, 0, w, h);
  }
  const f = s / V.z;
  Object.assign(m.lastChild.style, { left: clamp(port.scrollLeft * f, 0, w) + 'px', top: clamp(port.scrollTop * f, 0, h) + 'px',
    width: Math.min(w, port.clientWidth * f) + 'px', height: Math.min(h, port.clientHeight * f) + 'px' });
}
// redrawMini draws the minimap's image again (the marks changed).
export function redrawMini(V) { if (V) { V.drawn = false; mini(V); } }

// canvasRecord is a canvas's record for the explorers' canvases: cv laid
// out as L in its zooming view (zoomView), its image (img, to paint) and
// its context, and the cursor, -1 while nothing is selected on it.
// cv.drawn is the record, as the layout explorer's canvases have it: a
// test finds an element's pixel (L), and what is marked, through it.
export function canvasRecord(cv, L, b, decorate) {
  const c = cv.drawn = { cv, L, cursor: -1 };
  c.view = zoomView(cv, L, b, decorate);
  c.view.cursor = () => c.cursor;
  c.ctx = cv.getContext('2d');
  c.img = imageOf(cv, c.ctx, L);
  return c;
}
// imageOf is the ImageData for layout L on canvas cv: the canvas's last
// one, cleared, when it has the layout's size, so that an edit does not
// allocate (and collect) megabytes of pixels each time.
export function imageOf(cv, ctx, L) {
  const img = cv.stridescopeImage;
  if (img && img.width === L.w && img.height === L.h) { new Uint32Array(img.data.buffer).fill(0); return img; }
  return (cv.stridescopeImage = ctx.createImageData(L.w, L.h));
}
