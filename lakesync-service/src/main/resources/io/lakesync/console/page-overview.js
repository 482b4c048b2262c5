// Overview: the cluster-level service switch with its prerequisite checks, cluster totals, active alerts.
import { api } from './api.js';
import { h, fill, card, badge, duration, count, time, tableLink } from './ui.js';

const STATES = ['UP_TO_DATE', 'SYNCING', 'INITIALIZING', 'LAGGING', 'RETRYING', 'BLOCKED', 'UNKNOWN', 'DISABLED'];

export function overviewPage(main, ctx) {
  const switchState = h('span', { id: 'service-state' }, '…');
  const toggle = h('button', { id: 'service-toggle', disabled: true }, '…');
  const message = h('div', { id: 'service-message', class: 'message' });
  const checks = h('ul', { id: 'service-checks', class: 'checks' });
  const totals = h('div', { id: 'totals', class: 'grid' });
  const byState = h('div', { id: 'tables-by-state', class: 'controls' });
  const alerts = h('div', { id: 'active-alerts' });
  let enabled = null;
  let switching = false;

  main.append(
    h('h1', {}, 'Overview'),
    card('Lake-stream integration', h('div', { class: 'controls' }, 'Service: ', switchState, toggle,
      ctx.can('owner') ? null : h('span', { class: 'muted' }, 'Only an owner can switch the service.')), message, checks),
    card('Cluster', totals, byState),
    card('Active alerts', alerts));

  toggle.addEventListener('click', async () => {
    switching = true;
    toggle.disabled = true;
    fill(checks);
    message.className = 'message';
    message.textContent = enabled ? 'Switching the service off…' : 'Running the prerequisite checks (Fluss, then a scratch table in the lake)…';
    try {
      const answer = await api('POST', enabled ? '/api/v1/service/disable' : '/api/v1/service/enable');
      message.textContent = answer.enabled ? 'The service is on: every prerequisite check passed.' : 'The service is off.';
      showChecks(checks, answer.checks);
    } catch (error) {
      const said = ctx.explain(error);
      message.className = 'message error';
      message.textContent = said ? 'Refused: ' + said : '';
      showChecks(checks, error.body && error.body.checks);
    } finally {
      switching = false;
      await ctx.refresh();
    }
  });

  return {
    async refresh() {
      const [service, tables, active, health, instances] = await Promise.all([
        api('GET', '/api/v1/service'),
        api('GET', '/api/v1/tables'),
        api('GET', '/api/v1/alerts/events?active=true'),
        api('GET', '/health'),
        api('GET', '/api/v1/instances'),
      ]);
      enabled = service.enabled;
      switchState.replaceChildren(badge(enabled ? 'ON' : 'OFF', enabled ? 'UP_TO_DATE' : 'DISABLED'));
      if (!switching) {
        toggle.textContent = enabled ? 'Turn off' : 'Turn on';
        toggle.disabled = !ctx.can('owner');
      }
      showTotals(totals, byState, tables, health, instances);
      showAlerts(alerts, active);
    },
  };
}

function showChecks(list, checks) {
  fill(list, (checks || []).map((check) => h('li', {}, badge(check.passed ? 'passed' : 'failed'), ' ', h('strong', {}, check.name),
    check.detail ? h('span', { class: 'muted' }, ' — ' + check.detail) : null)));
}

function showTotals(totals, byState, tables, health, instances) {
  const synced = tables.filter((t) => t.state !== 'DISABLED');
  const worst = synced.reduce((w, t) => (w === null || t.syncLatencyMs > w.syncLatencyMs ? t : w), null);
  const pending = synced.reduce((sum, t) => sum + t.pendingRecords, 0);
  const rowsPerSecond = synced.reduce((sum, t) => sum + (t.activity.syncing ? t.activity.lastRoundRowsPerSecond || 0 : 0), 0);
  const figure = (id, label, value, detail) => h('div', { class: 'figure', id }, h('div', { class: 'label' }, label),
    h('div', { class: 'value' }, value), detail ? h('div', { class: 'muted' }, detail) : null);
  fill(totals,
    figure('total-tables', 'Tables', count(tables.length), count(synced.length) + ' with lake sync on'),
    figure('total-pending', 'Records pending', count(pending)),
    figure('worst-latency', 'Worst sync latency', worst ? duration(worst.syncLatencyMs) : '–', worst ? tableLink(worst) : null),
    figure('total-rows', 'Rows/s (last rounds)', count(rowsPerSecond)),
    figure('total-instances', 'Instances', count(instances.instances.filter((i) => i.state === 'ALIVE').length) + ' alive',
      instances.instances.filter((i) => i.state === 'DEAD').map((i) => i.id + ' dead').join(', ') || null),
    figure('health', 'This instance', badge(health.status), (health.version || '') + ', up ' + duration(health.uptimeSeconds * 1000)));
  const counts = {};
  tables.forEach((t) => { counts[t.state] = (counts[t.state] || 0) + 1; });
  fill(byState, STATES.filter((s) => counts[s]).map((s) => h('a', { href: '#/data?state=' + s, 'data-state': s }, badge(s + ' ' + counts[s], s))),
    tables.length === 0 ? h('span', { class: 'muted' }, 'No tables yet.') : null,
    health.reasons && health.reasons.length ? h('div', { class: 'muted' }, health.reasons.join(' ')) : null);
}

function showAlerts(holder, active) {
  if (active.length === 0) {
    fill(holder, h('span', { class: 'muted', id: 'no-active-alerts' }, 'No alert is firing.'));
    return;
  }
  fill(holder, h('div', { class: 'scroll' }, h('table', {},
    h('thead', {}, h('tr', {}, ['Severity', 'Rule', 'Table', 'Condition', 'Value', 'Since', 'Message'].map((c) => h('th', {}, c)))),
    h('tbody', {}, active.map((e) => h('tr', { 'data-rule': e.rule, 'data-table': e.table },
      h('td', {}, badge(e.severity)), h('td', {}, e.rule), h('td', {}, e.table), h('td', {}, e.condition),
      h('td', { class: 'num' }, e.value === null ? '–' : count(e.value)), h('td', {}, time(e.firedAt)), h('td', {}, e.message)))))));
}
