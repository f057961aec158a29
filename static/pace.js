// stridescope pacing: the presenter lets the class go through the tour at
// its own pace and brings everyone back (docs/protocol.md, "Pacing").
// rooms.js hands this module the presenter's "tally" messages (which say
// the room's pace and where the students are) and its socket; a viewer's
// side is in rooms.js, which decides whether the page moves.

import { t, num } from './words.js';
import { PROTOCOL_VERSION as V } from './protocol.js';

// paceControls runs the presenter's pace button and the line that says
// where the students are; a no-op for a viewer.
export function paceControls(role, code, send) {
  const btn = document.querySelector('#room-bar [data-testid=room-pace]');
  const where = document.querySelector('#room-bar [data-testid=room-where]');
  if (role !== 'presenter' || !btn || !where) return { message() {}, open() {} };
  let alone = false;
  const show = () => {
    btn.setAttribute('aria-pressed', String(alone));
    btn.textContent = alone ? t('js.pace.back') : t('js.pace.alone');
    where.hidden = !alone;
  };
  btn.addEventListener('click', () => send({ v: V, type: 'pace', room: code, pace: alone ? '' : 'student' }));
  return {
    open() { btn.hidden = false; show(); },
    message(m) {
      if (m.type !== 'tally') return;
      alone = m.pace === 'student';
      show();
      const steps = Object.entries(m.where || {}).map(([s, n]) => [+s, n]).sort((a, b) => a[0] - b[0]);
      where.textContent = steps.map(([s, n]) => t('js.pace.where', { step: num(s), n: num(n) })).join(' · ');
    },
  };
}
