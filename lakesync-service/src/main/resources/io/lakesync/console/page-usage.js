// Usage: what the tiering rounds used, in CU-hours by table, database or day, how much of it was provisioned
// capacity and how much pay-as-you-go, next to the CU quotas that cap the rounds (GET /api/v1/usage).
import { api } from './api.js';
import { h, fill, card, count } from './ui.js';

const GROUPINGS = { table: 'Table', database: 'Database', day: 'Day (UTC)' };
const PERIODS = { 1: 'Last 24 hours', 7: 'Last 7 days', 30: 'Last 30 days' };
const HOUR_MS = 3600 * 1000;

export function usagePage(main, ctx) {
  const by = h('select', { id: 'usage-by' }, Object.entries(GROUPINGS).map(([value, label]) => h('option', { value }, label)));
  const period = h('select', { id: 'usage-period' }, Object.entries(PERIODS).map(([value, label]) => h('option', { value }, label)));
  const totals = h('div', { id: 'usage-totals', class: 'grid' });
  const quota = h('div', { id: 'usage-quota' });
  const head = h('tr', {});
  const body = h('tbody', { id: 'usage-body' });
  by.addEventListener('change', () => ctx.refresh());
  period.addEventListener('change', () => ctx.refresh());

  main.append(
    h('h1', {}, 'Usage'),
    card('Compute used by tiering', h('div', { class: 'controls' }, 'Group by ', by, period), totals),
    card('Capacity', quota),
    card('Breakdown', h('div', { class: 'scroll' }, h('table', {}, h('thead', {}, head), body))));

  return {
    async refresh() {
      const to = new Date(Math.ceil(Date.now() / HOUR_MS) * HOUR_MS);
      const from = new Date(to.getTime() - Number(period.value) * 24 * HOUR_MS);
      const report = await api('GET', '/api/v1/usage?by=' + by.value + '&from=' + from.toISOString().replace('.000', '')
        + '&to=' + to.toISOString().replace('.000', ''));
      showTotals(totals, report);
      showQuota(quota, report, ctx);
      fill(head, h('th', {}, GROUPINGS[report.by]), ['Rounds', 'CU-hours', 'Provisioned', 'Pay-as-you-go', 'Rows', 'Bytes']
        .map((label) => h('th', { class: 'num' }, label)));
      fill(body, report.lines.length
        ? [...report.lines.map((line) => row(line, {})), row(report.total, { class: 'db-row' })]
        : h('tr', {}, h('td', { colspan: 7, class: 'muted' }, 'No tiering rounds in this period.')));
    },
  };
}

/** Three significant digits: a quiet hour's rounds use a small fraction of a CU-hour, which should not read 0. */
function cuHours(value) {
  return value >= 100 ? count(value) : Number(value.toPrecision(3)).toLocaleString('en-US', { maximumFractionDigits: 10 });
}

function row(line, attributes) {
  return h('tr', { ...attributes, 'data-key': line.key },
    h('td', {}, line.key === 'total' ? 'Total' : line.key),
    h('td', { class: 'num' }, count(line.rounds)),
    h('td', { class: 'num cu' }, cuHours(line.cuHours)),
    h('td', { class: 'num' }, cuHours(line.provisionedCuHours)),
    h('td', { class: 'num' }, cuHours(line.payAsYouGoCuHours)),
    h('td', { class: 'num' }, count(line.rowsTiered)),
    h('td', { class: 'num' }, count(line.bytesTiered)));
}

function showTotals(holder, report) {
  const figure = (id, label, value) => h('div', { class: 'figure', id }, h('div', { class: 'label' }, label), h('div', { class: 'value' }, value));
  const total = report.total;
  const share = total.cuHours > 0 ? Math.round(100 * total.provisionedCuHours / total.cuHours) + '% of it' : 'none used';
  fill(holder,
    figure('usage-cu-hours', 'CU-hours', cuHours(total.cuHours)),
    figure('usage-provisioned', 'Provisioned (' + share + ')', cuHours(total.provisionedCuHours)),
    figure('usage-pay-as-you-go', 'Pay-as-you-go', cuHours(total.payAsYouGoCuHours)),
    figure('usage-rows', 'Rows tiered', count(total.rowsTiered)));
}

function showQuota(holder, report, ctx) {
  const databases = Object.entries(report.quota.databaseCu);
  fill(holder,
    h('p', { id: 'usage-provisioned-cu' }, 'Provisioned capacity: ' + report.provisionedCu + ' CU; each hour the first '
      + report.provisionedCu + ' CU-hours are provisioned, the rest pay-as-you-go.'),
    h('p', { id: 'usage-cluster-quota' }, 'Cluster quota: at most ' + count(report.quota.clusterCu)
      + ' CUs at the same time, over all instances. A CU is one running round, metered as at most one CU-hour per hour'
      + ' (one core with 4 GiB while it computes).'),
    databases.length
      ? h('table', { id: 'usage-database-quota' }, h('thead', {}, h('tr', {}, h('th', {}, 'Database'), h('th', { class: 'num' }, 'Quota (CUs)'))),
        h('tbody', {}, databases.map(([database, cu]) => h('tr', { 'data-database': database }, h('td', {}, database), h('td', { class: 'num' }, cu)))))
      : h('p', { class: 'muted' }, 'No database has a quota of its own.'),
    h('p', { id: 'usage-quota-hint', class: 'muted' }, ctx.can('owner')
      ? 'Change them in the service configuration: billing.provisioned-cu, quota.cluster-cu, quota.database-cu.'
      : 'An owner changes these in the service configuration.'));
}
