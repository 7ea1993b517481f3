/**
 * Where a signed-out user goes back to after logging in (docs/architecture.md,
 * "The web client's session"). The guard sends them to `/login?retour=<path>`; the
 * login screen reads it back through `returnPathFrom`, which only accepts a
 * path of this app: a link crafted as `/login?retour=https://ailleurs.example`
 * must not turn the login screen into an open redirect.
 */

const RETURN_PARAM = 'retour';

/** Longer than any route of the app with its filters; a longer value is not one of ours. */
const MAX_RETURN_PATH_LENGTH = 2048;

const LOGIN_PATH = '/login';

/** Any origin will do: it only serves to tell a same-origin path from anything else. */
const PROBE_ORIGIN = 'http://app.invalid';

/** `/login`, carrying the page the user was on unless there is nothing to return to. */
export function loginPathFor(location: { pathname: string; search: string; hash: string }): string {
  const path = `${location.pathname}${location.search}${location.hash}`;
  if (path === '/' || returnPathFrom(`?${RETURN_PARAM}=${encodeURIComponent(path)}`) === null) return LOGIN_PATH;
  return `${LOGIN_PATH}?${new URLSearchParams({ [RETURN_PARAM]: path }).toString()}`;
}

/** The path to return to from the login's query string, or null when it is absent or not ours. */
export function returnPathFrom(search: string): string | null {
  const value = new URLSearchParams(search).get(RETURN_PARAM);
  if (!value || value.length > MAX_RETURN_PATH_LENGTH) return null;
  // '//host' and '/\host' are other origins to a browser; control characters have no place in a route.
  if (!value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return null;
  if ([...value].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f)) return null;
  let url: URL;
  try {
    url = new URL(value, PROBE_ORIGIN);
  } catch {
    return null;
  }
  if (url.origin !== PROBE_ORIGIN || url.pathname === LOGIN_PATH) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}
