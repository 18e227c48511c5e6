/* What the page's scripts share: the words the server wrote for them, the buttons and lines
   they add, the rule of when a post is kept on the phone instead, the send loop. Nothing
   here runs by itself: each script imports what it uses. */

/** ms a save may take before it is kept on the phone instead. */
export const ANSWER_WITHIN = 10000;
/** ms between tries while things kept on the phone wait for the server. */
export const RETRY_EVERY = 10000;

/** @typedef {Record<string, string | number>} Values */

/**
 * Fill in one of the sentences the server wrote on `element` (data-<name>, "{n}" for values).
 * @param {HTMLElement | null} element
 * @param {string} name
 * @param {Values} [values]
 * @returns {string}
 */
export function words(element, name, values) {
  const template = element ? element.dataset[name] || "" : "";
  return template.replace(/\{(\w+)\}/g, (all, key) => (values && values[key] !== undefined ? String(values[key]) : all));
}

/**
 * Make an element with a class and a text.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {string} [className]
 * @param {string | null} [content]
 * @returns {HTMLElementTagNameMap[K]}
 */
export function element(tag, className, content) {
  const made = document.createElement(tag);
  if (className) { made.className = className; }
  if (content !== undefined && content !== null) { made.textContent = content; }
  return made;
}

/**
 * A secondary button that names its action and the key of what it acts on.
 * @param {string} label
 * @param {string} kind the data attribute's name (camelCase): `outbox`, `keptGame`
 * @param {string} action
 * @param {number | string} key
 * @returns {HTMLButtonElement}
 */
export function button(label, kind, action, key) {
  const made = element("button", "secondary", label);
  made.type = "button";
  made.dataset[kind] = action;
  made.dataset.key = String(key);
  return made;
}

/**
 * A server error or "too many requests" is an answer to try again later, as no answer is.
 * @param {number} status
 * @returns {boolean}
 */
export function later(status) { return status >= 500 || status === 429; }

/**
 * Post a form's fields as the form would, given up after ANSWER_WITHIN.
 * @param {string} url
 * @param {URLSearchParams} body
 * @param {RequestInit} [more]
 * @returns {Promise<Response>}
 */
export function postForm(url, body, more) {
  /** @type {RequestInit} */
  const options = {
    method: "POST",
    body: body.toString(),
    credentials: "same-origin",
    ...more,
    headers: { "Content-Type": "application/x-www-form-urlencoded", ...(more && more.headers) },
  };
  if (window.AbortSignal && AbortSignal.timeout) { options.signal = AbortSignal.timeout(ANSWER_WITHIN); }
  return fetch(url, options);
}

/**
 * The messages a refused form's page shows, each once, in the order shown.
 * @param {ParentNode} page
 * @param {string} selector
 * @returns {string}
 */
export function messages(page, selector) {
  /** @type {string[]} */
  const seen = [];
  page.querySelectorAll(selector).forEach((item) => {
    const message = (item.textContent || "").trim();
    if (message && seen.indexOf(message) < 0) { seen.push(message); }
  });
  return seen.join(" ");
}

/**
 * Put a kept post's fields back into a form (the CSRF token and `skip` left as they are).
 * @param {HTMLFormElement} form
 * @param {string} body
 * @param {(name: string, input: HTMLInputElement) => boolean} [hiddenToo] a hidden field filled too
 */
export function fill(form, body, hiddenToo) {
  new URLSearchParams(body).forEach((value, name) => {
    if (name === "csrf_token") { return; }
    form.querySelectorAll(`[name="${CSS.escape(name)}"]`).forEach((found) => {
      const input = /** @type {HTMLInputElement} */ (found);
      if (input.type === "radio" || input.type === "checkbox") { input.checked = input.value === value; }
      else if (input.type !== "hidden" || (hiddenToo && hiddenToo(name, input))) { input.value = value; }
    });
  });
}

/**
 * Run `start` once the page is parsed (at once if it is).
 * @param {() => void} start
 */
export function whenParsed(start) {
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
}

/**
 * One sender for what a page keeps: never two sends at once, in this tab or another (a Web
 * Lock of that name), and a send again whenever the server may be back: online again, the
 * page shown again, and every RETRY_EVERY while `waiting` says something waits.
 * @template T
 * @param {string} lock
 * @param {() => boolean} waiting
 * @param {() => Promise<T>} run
 * @returns {() => Promise<T | null>}
 */
export function sender(lock, waiting, run) {
  let sending = false;
  async function send() {
    if (sending || !waiting()) { return null; }
    sending = true;
    try {
      return await (navigator.locks ? navigator.locks.request(lock, run) : run());
    } catch {
      return null;
    } finally {
      sending = false;
    }
  }
  window.addEventListener("online", () => { send(); });
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") { send(); }
  });
  window.setInterval(() => { if (waiting()) { send(); } }, RETRY_EVERY);
  return send;
}

/**
 * The `detail` of an htmx event (htmx's own shapes: its documentation names them).
 * @param {Event} event
 * @returns {any}
 */
export function detailOf(event) { return /** @type {CustomEvent} */ (event).detail; }

/**
 * The element an event came from, when it is one.
 * @param {Event} event
 * @returns {Element | null}
 */
export function targetOf(event) { return event.target instanceof Element ? event.target : null; }

/**
 * htmx, once it has loaded (this server's copy or the CDN's: static/htmx-loader.js).
 * @returns {any}
 */
export function htmx() { return /** @type {any} */ (window).htmx || null; }
