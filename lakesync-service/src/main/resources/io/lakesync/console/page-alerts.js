// Alerts: rules (create, edit, delete), notification channels, and the history of firing and resolved alerts.
// The forms are never redrawn by a refresh, so what is being typed survives it.
import { api } from './api.js';
import { h, fill, card, badge, count, time, confirmButton } from './ui.js';

export function alertsPage(main, ctx) {
  const operator = ctx.can('operator');
  const rules = h('tbody', { id: 'rules-body' });
  const channels = h('tbody', { id: 'channels-body' });
  const events = h('tbody', { id: 'events-body' });
  const ruleMessage = h('div', { id: 'rule-message', class: 'message' });
  const channelMessage = h('div', { id: 'channel-message', class: 'message' });
  // What the rule form suggests, from the metric catalogue (read once); the API names the valid ids if one is wrong.
  const metricChoices = h('datalist', { id: 'metrics' });
  let catalogueRead = false;
  const field = (name, label, input) => h('label', {}, label, Object.assign(input, { name, id: 'rule-' + name }));
  const ruleForm = h('form', { id: 'rule-form', class: 'stack' },
    field('name', 'Name', h('input', { required: true, placeholder: 'slow-tables' })),
    field('metric', 'Metric', h('input', { list: 'metrics', required: true, value: 'syncLatencyMs' })),
    metricChoices,
    field('comparison', 'Comparison', h('select', {}, ['>', '>=', '<', '<='].map((c) => h('option', { value: c }, c)))),
    field('threshold', 'Threshold (number or duration)', h('input', { required: true, placeholder: '5min' })),
    field('for', 'For (held this long)', h('input', { placeholder: '0s' })),
    field('window', 'Window (counters)', h('input', { placeholder: '10min' })),
    field('tables', 'Tables (glob)', h('input', { placeholder: '*' })),
    field('severity', 'Severity', h('select', {}, ['warning', 'critical', 'info'].map((s) => h('option', { value: s }, s)))),
    field('channels', 'Channels (comma-separated)', h('input', { placeholder: 'log' })),
    field('description', 'Description', h('input', {})),
    h('label', {}, 'Enabled', Object.assign(h('input', { type: 'checkbox', checked: true }), { name: 'enabled', id: 'rule-enabled' })),
    h('button', { class: 'primary', type: 'submit', id: 'rule-save', disabled: !operator }, 'Save rule'));
  const channelForm = h('form', { id: 'channel-form', class: 'stack' },
    h('label', {}, 'Name', h('input', { name: 'name', id: 'channel-name', required: true })),
    h('label', {}, 'Type', h('select', { name: 'type', id: 'channel-type' }, h('option', { value: 'webhook' }, 'webhook'), h('option', { value: 'log' }, 'log'))),
    h('label', {}, 'Webhook URL', h('input', { name: 'url', id: 'channel-url', placeholder: 'https://…' })),
    h('button', { class: 'primary', type: 'submit', id: 'channel-save', disabled: !operator }, 'Save channel'));

  main.append(h('h1', {}, 'Alerts'),
    card('Rules', operator ? null : h('div', { class: 'muted' }, 'Your role (' + ctx.me.role + ') can look but not change alerts.'),
      h('div', { class: 'scroll' }, h('table', {}, h('thead', {}, h('tr', {},
        ['Name', 'Condition', 'For', 'Tables', 'Severity', 'Channels', 'Enabled', ''].map((c) => h('th', {}, c)))), rules)),
      h('h2', { style: 'margin-top:14px' }, 'Create or edit a rule'), ruleForm, ruleMessage),
    card('Channels', h('div', { class: 'scroll' }, h('table', {}, h('thead', {}, h('tr', {},
      ['Name', 'Type', 'URL', ''].map((c) => h('th', {}, c)))), channels)), channelForm, channelMessage),
    card('Events (newest first)', h('div', { class: 'scroll' }, h('table', {}, h('thead', {}, h('tr', {},
      ['State', 'Severity', 'Rule', 'Table', 'Condition', 'Value', 'At', 'Message'].map((c) => h('th', {}, c)))), events))));

  async function change(message, method, path, body, done) {
    message.className = 'message';
    message.textContent = 'Saving…';
    try {
      await api(method, path, body);
      message.textContent = done;
    } catch (error) {
      const said = ctx.explain(error);
      message.className = 'message error';
      message.textContent = said || '';
    }
    await ctx.refresh();
  }

  ruleForm.addEventListener('submit', (event) => {
    event.preventDefault();
    const value = (name) => ruleForm.elements[name].value.trim() || undefined;
    const name = value('name');
    const list = value('channels');
    change(ruleMessage, 'PUT', '/api/v1/alerts/rules/' + encodeURIComponent(name), {
      metric: value('metric'), comparison: value('comparison'), threshold: value('threshold'), for: value('for'),
      window: value('window'), tables: value('tables'), severity: value('severity'),
      channels: list ? list.split(',').map((c) => c.trim()).filter((c) => c) : undefined,
      enabled: ruleForm.elements.enabled.checked, description: value('description'),
    }, 'Rule ' + name + ' saved.');
  });

  channelForm.addEventListener('submit', (event) => {
    event.preventDefault();
    const name = channelForm.elements.name.value.trim();
    const url = channelForm.elements.url.value.trim();
    change(channelMessage, 'PUT', '/api/v1/alerts/channels/' + encodeURIComponent(name),
      { type: channelForm.elements.type.value, url: url || undefined }, 'Channel ' + name + ' saved.');
  });

  function edit(rule) {
    for (const name of ['name', 'metric', 'comparison', 'threshold', 'for', 'window', 'tables', 'severity', 'description']) {
      ruleForm.elements[name].value = rule[name] === null || rule[name] === undefined ? '' : rule[name];
    }
    ruleForm.elements.channels.value = (rule.channels || []).join(', ');
    ruleForm.elements.enabled.checked = rule.enabled !== false;
    ruleForm.scrollIntoView({ block: 'nearest' });
  }

  return {
    async refresh() {
      if (!catalogueRead) {
        const catalogue = await api('GET', '/api/v1/metrics/catalogue');
        fill(metricChoices, catalogue.map((m) => h('option', { value: m.id }, m.help)));
        catalogueRead = true;
      }
      const [ruleList, channelList, eventList] = await Promise.all([
        api('GET', '/api/v1/alerts/rules'),
        api('GET', '/api/v1/alerts/channels'),
        api('GET', '/api/v1/alerts/events?limit=50'),
      ]);
      fill(rules, ruleList.map((r) => h('tr', { 'data-rule': r.name },
        h('td', {}, r.name), h('td', {}, r.metric + ' ' + r.comparison + ' ' + r.threshold + (r.window ? ' over ' + r.window : '')),
        h('td', {}, r.for || '0s'), h('td', {}, r.tables || '*'), h('td', {}, badge(r.severity || 'warning')),
        h('td', {}, (r.channels || []).join(', ')), h('td', {}, r.enabled === false ? 'no' : 'yes'),
        h('td', {}, h('button', { class: 'edit-rule', disabled: !operator, onclick: () => edit(r) }, 'Edit'), ' ',
          confirmButton('Delete', 'Delete rule ' + r.name + '?',
            () => change(ruleMessage, 'DELETE', '/api/v1/alerts/rules/' + encodeURIComponent(r.name), undefined, 'Rule ' + r.name + ' deleted.'),
            !operator)))));
      fill(channels, channelList.map((c) => h('tr', { 'data-channel': c.name },
        h('td', {}, c.name), h('td', {}, String(c.type).toLowerCase()), h('td', {}, c.url || '–'),
        h('td', {}, confirmButton('Delete', 'Delete channel ' + c.name + '?',
          () => change(channelMessage, 'DELETE', '/api/v1/alerts/channels/' + encodeURIComponent(c.name), undefined, 'Channel ' + c.name + ' deleted.'),
          !operator)))));
      fill(events, eventList.length ? eventList.map((e) => h('tr', { 'data-rule': e.rule, 'data-state': e.state },
        h('td', {}, badge(e.state)), h('td', {}, badge(e.severity)), h('td', {}, e.rule), h('td', {}, e.table),
        h('td', {}, e.condition), h('td', { class: 'num' }, e.value === null ? '–' : count(e.value)), h('td', {}, time(e.at)),
        h('td', {}, e.message))) : h('tr', {}, h('td', { colspan: 8, class: 'muted' }, 'No alert has fired yet.')));
    },
  };
}
