// stridescope guided tour: the left and right arrow keys move between
// steps. The steps are plain links, so the tour works without this.

import { t } from './words.js';

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

// On a phone the picture is screens below the step's question. "Go to
// the picture" leads down to it, and a link over the picture leads back
// up to the question, the focus with it, so a learner can go between
// the question and the cells it asks about. Without this module the
// link is a plain jump to #picture.
const go = document.querySelector('.tour-card [data-testid=to-picture]');
const picture = document.getElementById('picture');
if (go && picture) {
  go.addEventListener('click', (e) => {
    if (!matchMedia('(max-width: 60rem)').matches) return;
    e.preventDefault();
    let back = document.getElementById('back-to-step');
    if (!back) {
      back = Object.assign(document.createElement('a'), { id: 'back-to-step', href: '#tour-title', className: 'to-field', textContent: t('js.back.step') });
      back.dataset.testid = 'back-to-step';
      back.addEventListener('click', (ev) => {
        ev.preventDefault();
        document.querySelector('[data-testid=tour-question]').scrollIntoView({ block: 'center' });
        go.focus({ preventScroll: true });
      });
      picture.before(back);
    }
    back.scrollIntoView({ block: 'start' });
    back.focus({ preventScroll: true });
  });
}
