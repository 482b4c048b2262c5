// The console's shell: sign-in, hash routes, the refresh loop and the connection banner.
//
//   [signed out] ── token ──▶ GET /api/v1/whoami ──▶ [signed in: page mounted] ── every refresh interval ──▶ page.refresh()
//        ▲                          │ 401                       │ the service does not answer: banner, keep retrying
//        └──────── message ◀────────┴───────────────────────────┘ 401 on any call (token revoked)
import { api, signIn, signOut, signedIn, ApiError, ConnectionLost, SignedOut } from './api.js';
import { h, fill } from './ui.js';
import { overviewPage } from './page-overview.js';
import { dataPage } from './page-data.js';
import { tablePage } from './page-table.js';
import { alertsPage } from './page-alerts.js';
import { retainedPage } from './page-retained.js';
import { usagePage } from './page-usage.js';

const PAGES = { overview: overviewPage, data: dataPage, table: tablePage, alerts: alertsPage, retained: retainedPage, usage: usagePage };
const ROLES = ['viewer', 'operator', 'owner'];

const main = document.getElementById('main');
const banner = document.getElementById('connection-banner');
const notice = document.getElementById('notice');
let me = null;
let page = null;
let timer = null;
let refreshing = false;
let lastSuccess = null;

function explain(error) {
  if (error instanceof SignedOut) {
    return null;
  }
  if (error instanceof ApiError) {
    if (error.status === 401) {
      showSignIn('The API refused the token (401): ' + error.message);
      return null;
    }
    if (error.status === 403) {
      return 'Not allowed for your role (' + me.role + ', 403): ' + error.message;
    }
    return error.message + ' (HTTP ' + error.status + ')';
  }
  if (error instanceof ConnectionLost) {
    connectionLost(error);
    return null;
  }
  return String(error && error.message ? error.message : error);
}

function notify(text, isError) {
  notice.hidden = !text;
  notice.className = 'notice' + (isError ? ' error' : '');
  notice.textContent = text || '';
}

function connectionLost(error) {
  banner.hidden = false;
  banner.textContent = 'Lost connection: ' + error.message + '. Retrying every '
    + Math.round(me.refreshIntervalMs / 100) / 10 + ' s'
    + (lastSuccess ? '; figures are from ' + lastSuccess.toLocaleTimeString('en-GB') + '.' : '.');
}

async function refresh() {
  if (!page || refreshing) {
    return;
  }
  refreshing = true;
  try {
    await page.refresh();
    lastSuccess = new Date();
    banner.hidden = true;
  } catch (error) {
    const message = explain(error);
    if (message) {
      notify(message, true);
    }
  } finally {
    refreshing = false;
  }
}

function route() {
  if (!me) {
    return;
  }
  const [path, query] = location.hash.replace(/^#\/?/, '').split('?');
  const parts = (path || 'overview').split('/').map(decodeURIComponent);
  const name = PAGES[parts[0]] ? parts[0] : 'overview';
  for (const link of document.querySelectorAll('#nav a')) {
    link.classList.toggle('active', link.dataset.page === name || (name === 'table' && link.dataset.page === 'data'));
  }
  notify(null);
  const context = {
    me,
    params: parts.slice(1),
    query: new URLSearchParams(query || ''),
    can: (role) => ROLES.indexOf(me.role) >= ROLES.indexOf(role),
    explain,
    notify,
    refresh,
  };
  main.replaceChildren();
  page = PAGES[name](main, context);
  refresh();
}

function showSignIn(message) {
  signOut();
  me = null;
  page = null;
  clearInterval(timer);
  document.getElementById('nav').hidden = true;
  document.getElementById('who').hidden = true;
  document.getElementById('sign-out').hidden = true;
  banner.hidden = true;
  notify(null);
  const token = h('input', { id: 'token', type: 'password', autocomplete: 'off', placeholder: 'API token', required: true });
  const form = h('form', { class: 'card signin', onsubmit: (event) => { event.preventDefault(); start(token.value); } },
    h('h1', {}, 'Sign in to lakesync'),
    h('p', { class: 'muted' }, 'Paste an API token (from auth.tokens; a local stack writes its owner token to lakesync-data/local-owner.token). It is kept for this browser tab only.'),
    token,
    message ? h('div', { id: 'signin-message', class: 'message error' }, message) : null,
    h('button', { class: 'primary', type: 'submit', id: 'sign-in' }, 'Sign in'));
  fill(main, form);
  token.focus();
}

async function start(token) {
  if (token !== undefined) {
    signIn(token);
  }
  if (!signedIn()) {
    showSignIn();
    return;
  }
  try {
    me = await api('GET', '/api/v1/whoami');
  } catch (error) {
    const said = error instanceof ApiError ? 'The API refused the token (' + error.status + '): ' + error.message : error.message;
    showSignIn(said);
    return;
  }
  document.getElementById('nav').hidden = false;
  const who = document.getElementById('who');
  who.hidden = false;
  who.textContent = me.name + ' (' + me.role + ')';
  document.getElementById('sign-out').hidden = false;
  clearInterval(timer);
  timer = setInterval(refresh, Math.max(500, me.refreshIntervalMs));
  route();
}

document.getElementById('sign-out').addEventListener('click', () => showSignIn());
window.addEventListener('hashchange', route);
start();
