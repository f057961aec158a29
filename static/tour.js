// stridescope guided tour: the left and right arrow keys move between
// steps. The steps are plain links, so the tour works without this.

const KEYS = { ArrowLeft: 'prev', ArrowRight: 'next' };
// Where the arrow keys do something else: typing, selects, buttons, the
// explorers' cells and canvases.
const BUSY = 'input, select, textarea, button, [contenteditable], [role=grid], [role=gridcell], canvas';

document.addEventListener('keydown', (e) => {
  const dir = KEYS[e.key];
  if (!dir || e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
  if (e.target instanceof Element && e.target.closest(BUSY)) return;
  const a = document.querySelector(`a[data-tour=${dir}]`);
  if (!a) return;
  e.preventDefault();
  location.assign(a.href);
});

// Where the steps scroll sideways (a phone), show the current one.
const cur = document.querySelector('.tour-steps a.current');
if (cur) { const ol = cur.closest('ol'); ol.scrollLeft = cur.offsetLeft - ol.offsetLeft - (ol.clientWidth - cur.offsetWidth) / 2; }
