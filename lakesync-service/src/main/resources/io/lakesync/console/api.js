// Calls the lakesync HTTP API with the token signed in for this browser tab (sessionStorage only).

const TOKEN_KEY = 'lakesync.token';

/** The API answered with an error status; message is what it said. */
export class ApiError extends Error {
  constructor(status, message, body) {
    super(message);
    this.status = status;
    this.body = body;
  }
}

/** The service did not answer at all. */
export class ConnectionLost extends Error {}

/** The tab signed out while a refresh was under way; nothing is sent without a token. */
export class SignedOut extends Error {}

export function signedIn() {
  return sessionStorage.getItem(TOKEN_KEY) !== null;
}

export function signIn(token) {
  sessionStorage.setItem(TOKEN_KEY, token.trim());
}

export function signOut() {
  sessionStorage.removeItem(TOKEN_KEY);
}

/** JSON of the answer (null when empty); throws ApiError, ConnectionLost or SignedOut. */
export async function api(method, path, body) {
  const token = sessionStorage.getItem(TOKEN_KEY);
  if (token === null) {
    throw new SignedOut('signed out');
  }
  const headers = { Accept: 'application/json', Authorization: 'Bearer ' + token };
  if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
  }
  let response;
  try {
    response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (e) {
    throw new ConnectionLost('lakesync does not answer at ' + location.origin + ' (' + e.message + ')');
  }
  const text = await response.text();
  let json = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch (e) {
    json = null;
  }
  if (!response.ok) {
    const said = (json && (json.error || json.title)) || text || response.statusText;
    throw new ApiError(response.status, said, json);
  }
  return json;
}

/** The path of a table's API resource, for example /api/v1/tables/fluss/orders. */
export function tablePath(database, table) {
  return '/api/v1/tables/' + encodeURIComponent(database) + '/' + encodeURIComponent(table);
}
