// Retained lake tables: lake tables whose Fluss table was dropped, kept until someone deletes them here.
import { api } from './api.js';
import { h, fill, card, count, confirmButton } from './ui.js';

export function retainedPage(main, ctx) {
  const body = h('tbody', { id: 'retained-body' });
  const message = h('div', { id: 'retained-message', class: 'message' });
  main.append(h('h1', {}, 'Retained lake tables'), card(null,
    h('p', { class: 'muted' }, 'Dropping a Fluss table keeps its lake table. Delete one here when nobody needs its data any more;'
      + ' a re-created Fluss table of that name must have lake sync off.'),
    message,
    h('div', { class: 'scroll' }, h('table', {}, h('thead', {}, h('tr', {}, h('th', {}, 'Lake table'),
      h('th', { class: 'num' }, 'Snapshots'), h('th', {}, ''))), body))));

  async function remove(table) {
    const name = table.database + '.' + table.table;
    try {
      await api('DELETE', '/api/v1/lake/retained/' + encodeURIComponent(table.database) + '/' + encodeURIComponent(table.table));
      message.className = 'message';
      message.textContent = 'Deleted the lake table ' + name + '.';
    } catch (error) {
      const said = ctx.explain(error);
      message.className = 'message error';
      message.textContent = said ? 'Cannot delete ' + name + ': ' + said : '';
    }
    await ctx.refresh();
  }

  return {
    async refresh() {
      const retained = await api('GET', '/api/v1/lake/retained');
      fill(body, retained.length ? retained.map((t) => h('tr', { 'data-table': t.database + '.' + t.table },
        h('td', {}, t.database + '.' + t.table), h('td', { class: 'num' }, count(t.snapshots)),
        h('td', {}, confirmButton('Delete', 'Delete lake table ' + t.database + '.' + t.table + ' and all its data?',
          () => remove(t), !ctx.can('operator')))))
        : h('tr', {}, h('td', { colspan: 3, class: 'muted' }, 'No retained lake tables.')));
    },
  };
}
