// Data: databases and their tables with state, sync latency against freshness, checkpoint, pending records and
// the per-table lake-sync switch; filtered by name, database and state, a page of PAGE_SIZE rows at a time.
import { api, tablePath } from './api.js';
import { h, fill, reconcile, card, stateBadge, latencyBar, checkpoint, count, fullName, tableLink } from './ui.js';

const PAGE_SIZE = 50;
const STATES = ['UP_TO_DATE', 'SYNCING', 'INITIALIZING', 'LAGGING', 'RETRYING', 'BLOCKED', 'UNKNOWN', 'DISABLED'];

export function dataPage(main, ctx) {
  const search = h('input', { id: 'table-search', type: 'search', placeholder: 'Search tables by name' });
  const database = h('select', { id: 'database-filter' }, h('option', { value: '' }, 'All databases'));
  const state = h('select', { id: 'state-filter' }, h('option', { value: '' }, 'Any state'),
    STATES.map((s) => h('option', { value: s }, s)));
  state.value = ctx.query.get('state') || '';
  const message = h('div', { id: 'data-message', class: 'message' });
  const body = h('tbody', { id: 'tables-body' });
  const pageInfo = h('span', { id: 'page-info', class: 'muted' });
  const previous = h('button', { id: 'page-previous' }, '‹ Previous');
  const next = h('button', { id: 'page-next' }, 'Next ›');
  const switching = new Set();
  // Rows drawn so far by table (and database heading) name: a row is redrawn only when what it shows changed.
  const drawn = new Map();
  let tables = [];
  let pageIndex = 0;

  main.append(h('h1', {}, 'Data'), card(null,
    h('div', { class: 'controls' }, search, database, state),
    ctx.can('operator') ? null : h('div', { class: 'muted' }, 'Your role (' + ctx.me.role + ') can look but not switch lake sync.'),
    message,
    h('div', { class: 'scroll' }, h('table', {},
      h('thead', {}, h('tr', {}, h('th', {}, 'Table'), h('th', {}, 'State'), h('th', {}, 'Sync latency / freshness'),
        h('th', {}, 'Checkpoint'), h('th', { class: 'num' }, 'Pending'), h('th', {}, 'Lake sync'))),
      body)),
    h('div', { class: 'pager' }, previous, pageInfo, next)));

  const refilter = () => { pageIndex = 0; render(); };
  search.addEventListener('input', refilter);
  database.addEventListener('change', refilter);
  state.addEventListener('change', refilter);
  previous.addEventListener('click', () => { pageIndex--; render(); });
  next.addEventListener('click', () => { pageIndex++; render(); });

  async function setLakeSync(table, on) {
    const name = fullName(table);
    switching.add(name);
    render();
    message.className = 'message';
    message.textContent = (on ? 'Enabling' : 'Disabling') + ' lake sync for ' + name + '…';
    try {
      await api('POST', tablePath(table.database, table.table) + (on ? '/enable' : '/disable'));
      message.textContent = 'Lake sync ' + (on ? 'enabled' : 'disabled') + ' for ' + name
        + (on ? '.' : '; its lake table is kept.');
    } catch (error) {
      const said = ctx.explain(error);
      message.className = 'message error';
      message.textContent = said ? 'Cannot ' + (on ? 'enable ' : 'disable ') + name + ': ' + said : '';
    } finally {
      switching.delete(name);
      await ctx.refresh();
    }
  }

  function matching() {
    const text = search.value.trim().toLowerCase();
    return tables.filter((t) => (!text || fullName(t).toLowerCase().includes(text))
      && (!database.value || t.database === database.value)
      && (!state.value || t.state === state.value));
  }

  function render() {
    const shown = matching();
    const pages = Math.max(1, Math.ceil(shown.length / PAGE_SIZE));
    pageIndex = Math.min(Math.max(0, pageIndex), pages - 1);
    const slice = shown.slice(pageIndex * PAGE_SIZE, (pageIndex + 1) * PAGE_SIZE);
    const rows = [];
    let lastDatabase = null;
    for (const table of slice) {
      if (table.database !== lastDatabase) {
        lastDatabase = table.database;
        rows.push(cached('database ' + table.database, '',
          () => h('tr', { class: 'db-row' }, h('td', { colspan: 6 }, 'Database ' + table.database))));
      }
      const name = fullName(table);
      rows.push(cached('table ' + name, JSON.stringify([table.state, table.stale, table.reason, table.syncLatencyMs, table.freshnessMs,
        table.lakeSnapshotId, table.lakeCommittedAt, table.pendingRecords, switching.has(name)]), () => row(table)));
    }
    if (shown.length === 0) {
      rows.push(h('tr', {}, h('td', { colspan: 6, class: 'muted' }, tables.length ? 'No table matches.' : 'No tables yet.')));
    }
    reconcile(body, rows);
    pageInfo.textContent = shown.length === 0 ? '0 tables'
      : (pageIndex * PAGE_SIZE + 1) + '–' + (pageIndex * PAGE_SIZE + slice.length) + ' of ' + shown.length + ' tables';
    previous.disabled = pageIndex === 0;
    next.disabled = pageIndex >= pages - 1;
  }

  function cached(name, content, draw) {
    const known = drawn.get(name);
    if (known && known.content === content) {
      return known.element;
    }
    const element = draw();
    drawn.set(name, { content, element });
    return element;
  }

  function row(table) {
    const name = fullName(table);
    const on = table.state !== 'DISABLED';
    const toggle = h('input', { type: 'checkbox', class: 'lake-toggle', 'data-table': name, checked: on,
      disabled: !ctx.can('operator') || switching.has(name),
      title: ctx.can('operator') ? (on ? 'Turn lake sync off' : 'Turn lake sync on') : 'Needs an operator token',
      onchange: () => setLakeSync(table, !on) });
    return h('tr', { 'data-table': name, 'data-state': table.state, 'data-latency-ms': table.syncLatencyMs },
      h('td', {}, tableLink(table)),
      h('td', { class: 'state', title: table.reason }, stateBadge(table)),
      h('td', {}, latencyBar(table)),
      h('td', {}, checkpoint(table)),
      h('td', { class: 'num pending' }, count(table.pendingRecords)),
      h('td', {}, h('label', { class: 'switch' }, toggle, on ? 'on' : 'off')));
  }

  return {
    async refresh() {
      tables = await api('GET', '/api/v1/tables');
      tables.sort((a, b) => fullName(a).localeCompare(fullName(b)));
      const databases = [...new Set(tables.map((t) => t.database))];
      const known = [...database.options].slice(1).map((o) => o.value);
      if (databases.join() !== known.join()) {
        const chosen = database.value;
        fill(database, h('option', { value: '' }, 'All databases'), databases.map((d) => h('option', { value: d }, d)));
        database.value = databases.includes(chosen) ? chosen : '';
      }
      render();
    },
  };
}
