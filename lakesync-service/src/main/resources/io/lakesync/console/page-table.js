// Table: one table's state with its reason and action, charts of the kept history (sync latency with the
// freshness line, pending records, rows/s), per-bucket tiered against end offsets, recent rounds and failures.
import { api, tablePath } from './api.js';
import { h, fill, card, badge, stateBadge, duration, count, time, checkpoint } from './ui.js';

export function tablePage(main, ctx) {
  const [database, name] = ctx.params;
  const header = h('div', { id: 'table-header' });
  const facts = h('div', { id: 'table-facts', class: 'grid' });
  const buckets = h('div', { id: 'buckets' });
  const activity = h('div', { id: 'activity', class: 'grid' });
  const events = h('div', { id: 'table-events' });
  const charts = {
    latency: chart('chart-latency'),
    pending: chart('chart-pending'),
    rows: chart('chart-rows'),
  };

  main.append(
    h('p', {}, h('a', { href: '#/data' }, '‹ All tables')),
    h('h1', {}, database + '.' + name),
    card(null, header, facts),
    h('div', { class: 'grid wide' },
      card('Sync latency', charts.latency.element),
      card('Records pending', charts.pending.element),
      card('Rows/s tiered', charts.rows.element)),
    card('Buckets: tiered offset against Fluss end offset', buckets),
    card('Rounds and failures', activity, h('h2', { style: 'margin-top:14px' }, 'Alerts on this table'), events));

  return {
    async refresh() {
      const [table, history] = await Promise.all([
        api('GET', tablePath(database, name)),
        api('GET', '/api/v1/alerts/events?limit=20&table=' + encodeURIComponent(database + '.' + name)),
      ]);
      showHeader(header, facts, table);
      showCharts(charts, table);
      showBuckets(buckets, table.buckets || []);
      showActivity(activity, table.activity);
      showEvents(events, history);
    },
  };
}

/** An ECharts chart in its own element, created once and fed new data on every refresh. */
function chart(id) {
  const element = h('div', { id, class: 'chart' });
  let instance = null;
  return {
    element,
    show(option) {
      if (!instance) {
        instance = echarts.init(element);
        new ResizeObserver(() => instance.resize()).observe(element);
      }
      instance.setOption(option);
    },
  };
}

function timeChart(name, points, formatter, extra) {
  return Object.assign({
    animation: false,
    grid: { left: 64, right: 24, top: 24, bottom: 30 },
    tooltip: { trigger: 'axis', valueFormatter: formatter },
    xAxis: { type: 'time', splitNumber: 4, axisLabel: { hideOverlap: true, formatter: '{HH}:{mm}:{ss}' } },
    yAxis: { type: 'value', axisLabel: { formatter } },
    series: [{ name, type: 'line', showSymbol: false, data: points }],
  }, extra || {});
}

function showCharts(charts, table) {
  const history = table.history || [];
  const at = (p) => new Date(p.at).getTime();
  charts.latency.show(timeChart('sync latency', history.map((p) => [at(p), p.syncLatencyMs]), duration, {
    series: [{
      name: 'sync latency', type: 'line', showSymbol: false, data: history.map((p) => [at(p), p.syncLatencyMs]),
      markLine: { symbol: 'none', lineStyle: { color: '#b45309', type: 'dashed' },
        label: { position: 'insideEndTop', formatter: 'freshness ' + duration(table.freshnessMs) },
        data: [{ yAxis: table.freshnessMs }] },
    }],
    yAxis: { type: 'value', max: (range) => Math.max(range.max, table.freshnessMs * 1.1), axisLabel: { formatter: duration } },
  }));
  charts.pending.show(timeChart('records pending', history.map((p) => [at(p), p.pendingRecords]), count));
  const rates = [];
  for (let i = 1; i < history.length; i++) {
    const seconds = (at(history[i]) - at(history[i - 1])) / 1000;
    if (seconds > 0) {
      rates.push([at(history[i]), Math.max(0, (history[i].rowsTiered - history[i - 1].rowsTiered) / seconds)]);
    }
  }
  charts.rows.show(timeChart('rows/s', rates, count));
}

function showHeader(header, facts, table) {
  fill(header,
    h('div', { class: 'controls' }, stateBadge(table), h('span', { id: 'table-reason' }, table.reason)),
    table.action ? h('div', { id: 'table-action', class: 'muted' }, 'What to do: ' + table.action) : null);
  const figure = (label, value) => h('div', { class: 'figure' }, h('div', { class: 'label' }, label), h('div', { class: 'value' }, value));
  fill(facts,
    figure('Sync latency', duration(table.syncLatencyMs)),
    figure('Freshness', duration(table.freshnessMs)),
    figure('Checkpoint', checkpoint(table)),
    figure('Records pending', count(table.pendingRecords)),
    figure('Observed', time(table.observedAt) + (table.stale ? ' (stale)' : '')));
}

function showBuckets(holder, buckets) {
  if (buckets.length === 0) {
    fill(holder, h('span', { class: 'muted' }, 'No buckets reported yet.'));
    return;
  }
  fill(holder, h('div', { class: 'scroll' }, h('table', {},
    h('thead', {}, h('tr', {}, h('th', {}, 'Partition'), h('th', { class: 'num' }, 'Bucket'), h('th', { class: 'num' }, 'Tiered offset'),
      h('th', { class: 'num' }, 'End offset'), h('th', { class: 'num' }, 'Behind'), h('th', {}, ''))),
    h('tbody', {}, naturalOrder(buckets).map((b) => {
      const tiered = Math.max(0, b.tieredOffset);
      const share = b.endOffset > 0 ? tiered / b.endOffset : 1;
      return h('tr', { 'data-bucket': b.bucket },
        h('td', {}, b.partition || '–'), h('td', { class: 'num' }, b.bucket),
        h('td', { class: 'num' }, b.tieredOffset < 0 ? 'never' : count(b.tieredOffset)),
        h('td', { class: 'num' }, count(b.endOffset)), h('td', { class: 'num' }, count(b.endOffset - tiered)),
        h('td', {}, h('div', { class: 'bar' }, h('span', { style: 'width:' + Math.round(share * 100) + '%' }))));
    })))));
}

/** By partition, then bucket number, as Fluss numbers them (the API lists them in no particular order). */
function naturalOrder(buckets) {
  return [...buckets].sort((a, b) => (a.partition || '').localeCompare(b.partition || '', 'en', { numeric: true })
    || a.bucket - b.bucket);
}

function showActivity(holder, a) {
  const figure = (label, value) => h('div', { class: 'figure' }, h('div', { class: 'label' }, label), h('div', { class: 'value' }, value));
  fill(holder,
    figure('Rounds', count(a.rounds)),
    figure('Rows tiered', count(a.rowsTiered)),
    figure('Last round', a.lastRoundEndedAt ? time(a.lastRoundEndedAt) + ', ' + duration(a.lastRoundDurationMs) + ', '
      + count(a.lastRoundRowsPerSecond) + ' rows/s' : 'none yet'),
    figure('Failures', count(a.failures) + (a.consecutiveFailures ? ' (' + a.consecutiveFailures + ' in a row)' : '')),
    a.lastError ? h('div', { class: 'figure', id: 'last-error' }, h('div', { class: 'label' }, 'Last failure'
      + (a.lastFailureKind ? ' (' + a.lastFailureKind + ')' : '')), h('div', {}, a.lastError),
    a.nextRetryAt ? h('div', { class: 'muted' }, 'Next retry at ' + time(a.nextRetryAt)) : null) : null);
}

function showEvents(holder, events) {
  if (events.length === 0) {
    fill(holder, h('span', { class: 'muted' }, 'No alert has fired for this table.'));
    return;
  }
  fill(holder, h('div', { class: 'scroll' }, h('table', {},
    h('thead', {}, h('tr', {}, ['State', 'Rule', 'Condition', 'Value', 'At', 'Message'].map((c) => h('th', {}, c)))),
    h('tbody', {}, events.map((e) => h('tr', {}, h('td', {}, badge(e.state)), h('td', {}, e.rule), h('td', {}, e.condition),
      h('td', { class: 'num' }, e.value === null ? '–' : count(e.value)), h('td', {}, time(e.at)), h('td', {}, e.message)))))));
}
