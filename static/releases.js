/* How the service worker (templates/offline/sw.js) hands the phone from one release to the
   next: which caches go, which file of this release stands for one of an earlier release,
   how a kept page is marked as a copy. No worker here: it imports these. */

/** A static file's hashed name (app.3f2a9b1c04d5.css) names one content forever. */
export const HASHED = /\.[0-9a-f]{12}(?=(\.[^./]+)?$)/;

/**
 * Whether an address names one content forever (so the browser's own cache may give it).
 * @param {string} url
 * @returns {boolean}
 */
export function isHashed(url) { return HASHED.test(url); }

/**
 * This release's address of each shell file, by its name without the hash.
 * @param {string[]} shell
 * @returns {Map<string, string>}
 */
export function currentNames(shell) {
  return new Map(shell.map((url) => [url.replace(HASHED, ""), url]));
}

/**
 * The address of this release's copy of a file an earlier release named (a page kept then
 * asks for it), or null when it is this release's own or no file of this release.
 * @param {Map<string, string>} current
 * @param {string} path
 * @returns {string | null}
 */
export function sameFile(current, path) {
  const now = current.get(path.replace(HASHED, ""));
  return now && now !== path ? now : null;
}

/**
 * The caches a new release drops: earlier releases' shells and runtimes other than this
 * release's; the pages kept (and the phone's IndexedDB) stay.
 * @param {string[]} names
 * @param {string} shell this release's shell cache
 * @param {string} runtime this release's runtime cache
 * @returns {string[]}
 */
export function staleCaches(names, shell, runtime) {
  return names.filter((name) => (name.startsWith("shell-") && name !== shell) || (name.startsWith("runtime-") && name !== runtime));
}

/**
 * A kept page as served from the phone: its <html> says when it was kept.
 * @param {string} html
 * @param {string} at
 * @returns {string}
 */
export function markedCopy(html, at) {
  return html.replace(/<html\b/i, `<html data-offline-copy="${at}"`);
}

/**
 * The addresses of the games' exports the worker keeps (the phone's engine scores from
 * them), under the app's root (its mount prefix, "" at the top of the site).
 * @param {string} root
 * @returns {RegExp}
 */
export function exportPattern(root) {
  return new RegExp("^" + rootPattern(root) + "/games/[^/]+/export\\.json$");
}

/** @param {string} root @returns {string} the app's root as a pattern, without its last slash */
function rootPattern(root) {
  return root.replace(/\/+$/, "").replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * Whether the worker may keep an answer: never one the server marks no-store (the pages
 * that hold this browser's edit link: the worker asks for their copy without it instead).
 * @param {string | null} cacheControl the answer's Cache-Control header
 * @returns {boolean}
 */
export function keepable(cacheControl) {
  return !(cacheControl || "").split(",").some((directive) => directive.split("=")[0].trim().toLowerCase() === "no-store");
}

/**
 * The game whose page this address is (`<root>/games/<id>`, the id as in the path), or null.
 * @param {string} root the app's root ("" at the top of the site)
 * @param {string} path
 * @returns {string | null}
 */
export function gameOf(root, path) {
  const found = new RegExp("^" + rootPattern(root) + "/games/([^/]+)$").exec(path);
  return found && found[1] !== "new" ? found[1] : null;
}

/**
 * Whether this address is the game's own: its page or one under it (its export, a deal's
 * correction page).
 * @param {string} root
 * @param {string} game
 * @param {string} path
 * @returns {boolean}
 */
export function ofGame(root, game, path) {
  const page = root.replace(/\/+$/, "") + "/games/" + game;
  return path === page || path.startsWith(page + "/");
}

/**
 * How long, and how many, pages the worker keeps (as Workbox's expiration does).
 * @typedef {{ maxEntries: number, maxAgeSeconds: number }} Limits
 */

/**
 * Whether a copy kept at this time (ISO 8601, the worker's X-Kept-At) is too old to be
 * served; a copy with no time it was kept is.
 * @param {string | null} keptAt
 * @param {number} now ms since 1970
 * @param {Limits} limits
 * @returns {boolean}
 */
export function tooOld(keptAt, now, limits) {
  const at = Date.parse(keptAt || "");
  return Number.isNaN(at) || now - at > limits.maxAgeSeconds * 1000;
}

/**
 * The copies to drop: every one too old, then the oldest kept beyond the count allowed.
 * The lasting ones (the pages kept from the start, fetched again by each release) are
 * neither dropped nor counted.
 * @param {{ url: string, keptAt: string | null }[]} entries every copy, by its address
 * @param {number} now ms since 1970
 * @param {Limits} limits
 * @param {(url: string) => boolean} lasting
 * @returns {string[]} the addresses to drop
 */
export function expired(entries, now, limits, lasting) {
  const mortal = entries.filter((entry) => !lasting(entry.url));
  const old = mortal.filter((entry) => tooOld(entry.keptAt, now, limits));
  const left = mortal.filter((entry) => !old.includes(entry))
    .sort((a, b) => Date.parse(b.keptAt || "") - Date.parse(a.keptAt || ""));
  return [...old, ...left.slice(Math.max(0, limits.maxEntries))].map((entry) => entry.url);
}
