/* What the import page says while a file is sent and then checked (templates/tables/
   import.html): the share of the file sent, then that the server is checking it. */

/**
 * @typedef {{phase: "sending" | "checking", percent: number | null}} Progress
 * `percent` is null when it is not known (the bar then only says work is going on).
 */

/**
 * The progress after one of the request's progress events. The upload's events come first;
 * once the whole file is sent the server checks every deal, and later events (the answer
 * coming in) change nothing.
 * @param {Progress | null} before
 * @param {{lengthComputable: boolean, loaded: number, total: number}} event
 * @returns {Progress}
 */
export function uploadProgress(before, event) {
  if (before && before.phase === "checking") { return before; }
  if (!event.lengthComputable || event.total <= 0) { return { phase: "sending", percent: null }; }
  if (event.loaded >= event.total) { return { phase: "checking", percent: null }; }
  return { phase: "sending", percent: Math.floor((100 * event.loaded) / event.total) };
}
