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
