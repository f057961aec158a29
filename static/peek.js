// stridescope: the picture next to the edit on a phone. Where the form
// stacks over the picture (a narrow screen), a learner typing a size
// sees only the form: the picture is a screen or more below. While a
// field of the form has the focus and the picture is off the screen, a
// peek at the picture's first view (the logical tensor, or the slice's
// input) stays at the top of the screen, redrawn after every answer,
// with a button down to the picture itself. It is a picture of the
// picture: hidden from screen readers, whose users have the live
// region and the picture's own cells.

import { $ } from './live.js';
import { t } from './words.js';

const NARROW = '(max-width: 60rem)';

// peek shows form's edits' picture (picture, the #picture element) at the
// top of a narrow screen while the form is being edited; update() redraws
// it from the picture after an answer.
export function peek(form, picture) {
  const box = document.createElement('div');
  box.className = 'peek';
  box.hidden = true;
  box.dataset.testid = 'peek';
  const shot = document.createElement('div');
  shot.className = 'peek-shot';
  shot.setAttribute('aria-hidden', 'true');
  const go = Object.assign(document.createElement('button'), { type: 'button', className: 'peek-go', textContent: t('js.peek.show') });
  go.dataset.testid = 'peek-go';
  // A press on the peek takes the focus from the field being typed into
  // before its click comes, which hid the peek, and the click then fell
  // on whatever was under it (a tap on the button did nothing, now and
  // then): the peek stays while it is pressed, until the click.
  let pressed = false;
  go.addEventListener('click', () => { box.hidden = true; picture.scrollIntoView({ block: 'start' }); }); // then release, as the click bubbles
  box.append(shot, go);
  document.body.append(box);
  const release = () => { pressed = false; show(); };
  box.addEventListener('pointerdown', () => { pressed = true; });
  box.addEventListener('pointercancel', release);
  box.addEventListener('click', release);

  // While it shows, the page scrolls what it brings into view (the field
  // being typed into) below it. It moves nothing itself: a layout that
  // jumped as the focus left a field would move a button from under the
  // finger that is pressing it.
  let editing = false, offScreen = false;
  const room = () => { document.documentElement.style.scrollPaddingTop = box.hidden ? '' : box.offsetHeight + 'px'; };
  new ResizeObserver(room).observe(box);
  const show = () => {
    const hidden = !pressed && !(editing && offScreen && matchMedia(NARROW).matches);
    if (hidden === box.hidden) return;
    box.hidden = hidden;
    // The copy lives only while it shows: the page's own cells are the
    // only ones a query of the page finds otherwise.
    if (hidden) shot.replaceChildren(); else update();
    room();
    if (!hidden) document.activeElement?.scrollIntoView?.({ block: 'nearest' });
  };
  new IntersectionObserver(([e]) => { offScreen = !e.isIntersecting; show(); }).observe(picture);
  form.addEventListener('focusin', (e) => { editing = e.target.matches('input, select, textarea'); show(); });
  form.addEventListener('focusout', () => { editing = false; setTimeout(show, 0); });
  // The peek is made after the page's first frame (client.js later): a
  // field may have the focus already.
  editing = form.contains(document.activeElement) && document.activeElement.matches('input, select, textarea');

  // update draws the first view again: its cells cloned without their
  // ids (the page keeps one of each), its canvas copied as pixels.
  function update() {
    if (!editing || !matchMedia(NARROW).matches) return;
    const first = $('section.view', picture);
    if (!first) return;
    const copy = first.cloneNode(true);
    for (const el of [copy, ...copy.querySelectorAll('[id]')]) el.removeAttribute('id');
    for (const el of copy.querySelectorAll('[tabindex]')) el.removeAttribute('tabindex');
    const from = first.querySelectorAll('canvas'), to = copy.querySelectorAll('canvas');
    from.forEach((c, i) => { if (c.width && c.height) to[i].getContext('2d')?.drawImage(c, 0, 0); });
    shot.replaceChildren(copy);
  }
  return { update };
}
