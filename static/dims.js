// stridescope: the rows of an explorer's dims tables (sizes, strides and
// the like, one row per dimension), made, renumbered and named as the
// rank changes.

import { $, $$, put } from './live.js';

// dimRows makes each of the form's dims tables hold n rows (each with
// its errors' row, n at most the table's limit), each named after its
// dimension in labels, and then each(row, i) fills a row. A page renders
// its rank's rows only: a larger rank's come from the row each table
// keeps in <template class="dim-row"> (views.DimTemplate: index 0, its
// dimension named {dim}), renumbered; a smaller rank's go. The rows kept
// are renamed too: a rank's dimensions are named from the last (a 2-D
// tensor's H and W are a 4-D one's N and C), and a box's accessible name
// says which it is.
export function dimRows(form, n, labels, each) {
  for (const tpl of $$('template.dim-row', form)) {
    const body = tpl.parentNode, rows = Math.max(1, Math.min(n, +tpl.dataset.max || n)); // as the server renders: one row at least
    for (const row of $$('tr.dim, tr.dim-errors', body)) if (+row.dataset.dim >= rows) row.remove();
    for (let i = $$('tr.dim', body).length; i < rows; i++) tpl.before(rowFrom(tpl, i));
    for (const row of $$('tr.dim', body)) {
      const i = +row.dataset.dim, name = labels[i] || '';
      put($('th', row), 'textContent', name);
      for (const el of $$('[aria-label]', row)) {
        const like = tpl.content.querySelector(`[name="${el.name}"]`);
        if (like) put(el, 'ariaLabel', like.getAttribute('aria-label').replaceAll(DIM, name));
      }
      each(row, i);
    }
  }
}

// DIM stands for a dimension's name in a dims table's template row
// (views.DimTemplateLabel).
const DIM = '{dim}';

// rowFrom is the template's row and errors' row as dimension i's: every
// [0] of its attributes (error ids and the fields they are for) becomes
// [i], and every id and test id ending in -0 ends in -i.
function rowFrom(tpl, i) {
  const rows = tpl.content.cloneNode(true);
  for (const el of rows.querySelectorAll('*')) {
    for (const a of [...el.attributes]) {
      let v = a.value.replaceAll('[0]', `[${i}]`);
      if (a.name === 'id' || a.name === 'data-testid') v = v.replace(/-0$/, `-${i}`);
      if (a.name === 'data-dim') v = String(i);
      if (v !== a.value) el.setAttribute(a.name, v);
    }
  }
  return rows;
}
