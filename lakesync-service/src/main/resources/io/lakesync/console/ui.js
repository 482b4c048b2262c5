// Small DOM and formatting helpers shared by the pages. Text always goes in as text, never as HTML.

/** An element: h('td', {class: 'num'}, 'text', childElement). Attributes starting with 'on' are listeners. */
export function h(tag, attributes, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes || {})) {
    if (value === undefined || value === null || value === false) {
      continue;
    }
    if (name.startsWith('on')) {
      element.addEventListener(name.substring(2), value);
    } else if (name === 'value') {
      element.value = value;
    } else {
      element.setAttribute(name, value === true ? '' : value);
    }
  }
  append(element, children);
  return element;
}

function append(element, children) {
  for (const child of children) {
    if (Array.isArray(child)) {
      append(element, child);
    } else if (child !== undefined && child !== null && child !== false) {
      element.append(child instanceof Node ? child : String(child));
    }
  }
}

/** Replaces what an element holds. */
export function fill(element, ...children) {
  element.replaceChildren();
  append(element, children);
}

/**
 * Makes an element hold exactly these nodes, moving only what changed, so nodes that stay keep their focus,
 * and what a test or a screen reader holds on to stays attached.
 */
export function reconcile(element, nodes) {
  nodes.forEach((node, i) => {
    if (element.children[i] !== node) {
      element.insertBefore(node, element.children[i] || null);
    }
  });
  while (element.children.length > nodes.length) {
    element.lastElementChild.remove();
  }
}

export function badge(text, kind) {
  return h('span', { class: 'badge ' + (kind || text) }, text);
}

export function stateBadge(table) {
  return h('span', {}, badge(table.state), table.stale ? h('span', { class: 'muted', title: 'last known figures' }, ' (stale)') : null);
}

export function duration(ms) {
  if (ms === null || ms === undefined) {
    return '–';
  }
  if (ms < 1000) {
    return ms + ' ms';
  }
  const s = ms / 1000;
  if (s < 120) {
    return s.toFixed(1) + ' s';
  }
  if (s < 7200) {
    return (s / 60).toFixed(1) + ' min';
  }
  return (s / 3600).toFixed(1) + ' h';
}

export function count(n) {
  return n === null || n === undefined ? '–' : Number(n).toLocaleString('en-US', { maximumFractionDigits: 0 });
}

export function time(iso) {
  if (!iso) {
    return '–';
  }
  const at = new Date(iso);
  const today = new Date().toDateString() === at.toDateString();
  return today ? at.toLocaleTimeString('en-GB') : at.toLocaleString('en-GB');
}

export function checkpoint(table) {
  return table.lakeSnapshotId === null || table.lakeSnapshotId === undefined
    ? 'none yet'
    : 'snapshot ' + table.lakeSnapshotId + ' @ ' + time(table.lakeCommittedAt);
}

/** Sync latency against freshness: the figure and a bar that fills up to the freshness. */
export function latencyBar(table) {
  const share = table.freshnessMs > 0 ? table.syncLatencyMs / table.freshnessMs : 0;
  return h('div', {},
    h('span', { class: 'latency' }, duration(table.syncLatencyMs)),
    h('span', { class: 'muted' }, ' / ' + duration(table.freshnessMs)),
    h('div', { class: 'bar' + (share > 1 ? ' over' : ''), title: 'sync latency against freshness' },
      h('span', { style: 'width:' + Math.min(100, Math.round(share * 100)) + '%' })));
}

export function fullName(table) {
  return table.database + '.' + table.table;
}

export function tableLink(table) {
  return h('a', { href: '#/table/' + encodeURIComponent(table.database) + '/' + encodeURIComponent(table.table) }, fullName(table));
}

// Questions being asked now, so a refresh that redraws a list keeps an open question open.
const asking = new Set();

/** A button that asks once more before it acts: the first click turns it into "question? Yes / Cancel". */
export function confirmButton(label, question, action, disabled) {
  const holder = h('span', {});
  const ask = () => {
    asking.add(question);
    fill(holder, question + ' ',
      h('button', { class: 'danger confirm', onclick: () => { asking.delete(question); fill(holder, 'working…'); action(); } },
        'Yes, ' + label.toLowerCase()), ' ',
      h('button', { onclick: () => { asking.delete(question); fill(holder, first); } }, 'Cancel'));
  };
  const first = h('button', { class: 'danger', disabled, onclick: ask }, label);
  if (asking.has(question) && !disabled) {
    ask();
  } else {
    fill(holder, first);
  }
  return holder;
}

export function card(title, ...children) {
  return h('section', { class: 'card' }, title ? h('h2', {}, title) : null, ...children);
}
