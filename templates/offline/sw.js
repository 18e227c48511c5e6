/* Scorekeeper's service worker: the app opens with no connection.

   - The shell (scripts, styles, icons, the manifest, htmx: the vendored copy, and the
     pinned CDN copy once fetched) is kept per release and served from the phone.
   - Every page this phone opens is fetched from the network first and its copy kept, per
     address, as this browser got it (a viewer's page on a viewer's phone, the
     scorekeeper's on the scorekeeper's). With no answer, the copy is served, marked as a
     copy (data-offline-copy on <html>: when it was kept), and the page says it is offline.
   - Nothing the server marks no-store is kept: such a page holds this browser's edit link
     (the scorekeeper's), and the worker asks for its copy instead (the X-Offline-Copy
     header), the same page without the link. A game's page later answered as a viewer's
     page where the scorekeeper's copy was kept (the link revoked, the cookies cleared):
     everything kept of that game goes.
   - The pages kept are bounded (LIMITS: how many, how long), as Workbox's expiration does:
     the oldest beyond the count and every one too old go, and a copy too old is not served;
     the pages kept from the start are fetched again by each release and not counted.
   - Home and the rules are kept from the start; a page never opened says it has no copy.
   - Everything else (saves, previews, live polls and streams, the API) goes to the network
     as before: a save that cannot go is kept by the page (static/outbox.js).
   - The engine's runtime and bundle (the phone's worker, static/phone.js) are kept the
     first time a scorekeeper's phone fetches them, in a cache of the runtime's release,
     and served from the phone; so is the last copy of each game's export, which the
     worker scores from (fetched from the network first).
   A new release is a new worker: it takes over at once (skipWaiting, clients.claim) and
   drops the old shell. The pages kept and the deals kept on the phone are not touched.
   The static files have content-hashed names (scorekeeper/http/assets.py): a new release's
   changed file is a new address, so no phone keeps an old script under a new page.
   A module worker: what it decides of a release's handover is static/releases.js. */
import { currentNames, expired, exportPattern, gameOf, isHashed, keepable, markedCopy, ofGame, sameFile as currentOf, staleCaches, tooOld } from {{ url_for('static', filename='releases.js')|tojson }};

var RELEASE = {{ release|tojson }};
var SHELL = {{ shell|tojson }};
var PAGES = {{ pages|tojson }};
var FALLBACK = {{ fallback|tojson }};
var CDN = {{ cdn|tojson }};
var PHONE = {{ phone|tojson }}; /* the phone's worker, the engine's bundle, the runtime */
var RUNTIME_CACHE = "runtime-" + {{ runtime|tojson }}; /* kept across releases of the app */
var ROOT = {{ request.script_root|tojson }}; /* the app's root: every address matched is under it */
var EXPORT = exportPattern(ROOT);
var LIMITS = {{ limits|tojson }}; /* the pages kept: how many, and for how long (seconds) */
var COPY = {{ copy_header|tojson }}; /* asks for a page's copy without this browser's edit link */
var SHELL_CACHE = "shell-" + RELEASE;
var PAGE_CACHE = "pages";
var STATIC = new URL(SHELL[0], self.location.href).pathname.replace(/[^/]*$/, "");
var WAIT = 4000; /* ms a page may take before its copy is shown instead */
var KEPT_AT = "X-Kept-At";
var EDITOR = "X-Kept-Editor"; /* on a copy asked for without the edit link: this browser edited */

function fresh(url) { return new Request(url, { cache: "reload", credentials: "same-origin" }); }

/* A static file's hashed name names one content forever: the copy the page just got is
   that content, so the browser's own cache may give it. */
function shellRequest(url) {
  return isHashed(url) ? new Request(url, { credentials: "same-origin" }) : fresh(url);
}

/* This release's address of each shell file: a page kept from an earlier release names
   that release's files, and gets this one's instead. */
var CURRENT = currentNames(SHELL);

self.addEventListener("install", function (event) {
  event.waitUntil(Promise.all([
    caches.open(SHELL_CACHE).then(function (cache) { return cache.addAll(SHELL.map(shellRequest)); }),
    caches.open(PAGE_CACHE).then(function (cache) {
      /* A page already kept (perhaps newer) stays; one that fails is simply not kept yet. */
      return Promise.all(PAGES.map(function (url) {
        return cache.match(url).then(function (found) {
          if (found && url !== FALLBACK) { return null; }
          return fetch(fresh(url)).then(function (response) { return keepPage(cache, url, response); })
            .catch(function () { return null; });
        });
      }));
    }),
  ]).then(function () { return self.skipWaiting(); }));
});

/* A page is asked of the network while this worker starts (navigation preload), not
   once it has started: a stopped worker takes a while to start on a phone. */
function preloadPages() {
  var preload = self.registration.navigationPreload;
  return preload ? preload.enable().catch(function () { return null; }) : Promise.resolve();
}

self.addEventListener("activate", function (event) {
  event.waitUntil(Promise.all([preloadPages(), caches.keys().then(function (names) {
    return Promise.all(staleCaches(names, SHELL_CACHE, RUNTIME_CACHE).map(function (name) {
      return caches.delete(name);
    }));
  })]).then(function () { return self.clients.claim(); }));
});

/* The address a page is kept under, and as the worker's lists name it (path and query). */
function href(request) { return new URL(typeof request === "string" ? request : request.url, self.location.href).href; }
function pathOf(url) { var address = new URL(url, self.location.href); return address.pathname + address.search; }

/* A page kept from the start: fetched again by every release, never dropped. */
function lasting(url) { return PAGES.indexOf(pathOf(url)) >= 0; }

/* An answer (2xx) the server lets be kept (not no-store). */
function storable(response) { return response.ok && keepable(response.headers.get("Cache-Control")); }

/* A whole page, answered 200 (not a redirect, not an error). */
function isPage(response) {
  var type = response.headers.get("Content-Type") || "";
  return response.status === 200 && response.type === "basic" && type.indexOf("text/html") === 0;
}

/* Keeps an answer the server lets be kept, with when it was kept; then bounds the cache. */
function put(cache, url, response, editor) {
  return response.clone().arrayBuffer().then(function (body) {
    var headers = new Headers(response.headers);
    headers.set(KEPT_AT, new Date().toISOString());
    if (editor) { headers.set(EDITOR, "1"); } else { headers.delete(EDITOR); }
    return cache.put(url, new Response(body, { status: response.status, statusText: response.statusText, headers: headers }));
  }).then(function () { return trim(cache); });
}

/* A page worth keeping is kept as it came when the server allows it; a page marked
   no-store (this browser's edit link in it) is not: its copy without the link is asked
   for and kept instead, or, refused too, no copy stays. */
function keepPage(cache, request, response) {
  var url = href(request);
  if (!isPage(response)) { return Promise.resolve(null); }
  if (keepable(response.headers.get("Cache-Control"))) {
    return rightsLost(cache, url).then(function () { return put(cache, url, response, false); });
  }
  var headers = new Headers();
  headers.set(COPY, "1");
  return fetch(new Request(url, { cache: "no-store", credentials: "same-origin", headers: headers })).then(function (copy) {
    if (isPage(copy) && keepable(copy.headers.get("Cache-Control"))) { return put(cache, url, copy, true); }
    return cache.delete(url, { ignoreVary: true });
  });
}

/* A game's page answered as it is (a viewer's page) where the scorekeeper's copy was kept:
   this browser no longer edits the game. Its copies and its export go. */
function rightsLost(cache, url) {
  var game = gameOf(ROOT, new URL(url).pathname);
  if (!game) { return Promise.resolve(null); }
  return cache.match(url, { ignoreVary: true }).then(function (kept) {
    if (!kept || !kept.headers.get(EDITOR)) { return null; }
    return cache.keys().then(function (requests) {
      return Promise.all(requests.filter(function (asked) {
        return ofGame(ROOT, game, new URL(asked.url).pathname);
      }).map(function (asked) { return cache.delete(asked, { ignoreVary: true }); }));
    });
  });
}

/* The pages cache within its bounds (static/releases.js `expired`), one trim at a time. */
var trimming = Promise.resolve(null);
function trim(cache) {
  trimming = trimming.then(function () {
    return cache.keys().then(function (requests) {
      return Promise.all(requests.map(function (asked) {
        return cache.match(asked, { ignoreVary: true }).then(function (kept) {
          return { url: asked.url, keptAt: kept ? kept.headers.get(KEPT_AT) : null };
        });
      }));
    }).then(function (entries) {
      return Promise.all(expired(entries, Date.now(), LIMITS, lasting).map(function (url) {
        return cache.delete(url, { ignoreVary: true });
      }));
    });
  }).then(function () { return null; }, function () { return null; });
  return trimming;
}

/* The copy kept at this address, unless too old (then dropped), or null. */
function kept(cache, request) {
  return cache.match(request, { ignoreVary: true, ignoreSearch: false }).then(function (found) {
    if (!found || lasting(href(request)) || !tooOld(found.headers.get(KEPT_AT), Date.now(), LIMITS)) {
      return found || null;
    }
    return cache.delete(href(request), { ignoreVary: true }).then(function () { return null; });
  });
}

/* The kept copy of a page, marked as a copy, or null. */
function copyOf(request) {
  return caches.open(PAGE_CACHE).then(function (cache) {
    return kept(cache, request);
  }).then(function (copy) {
    if (!copy) { return null; }
    return copy.text().then(function (html) {
      var at = copy.headers.get(KEPT_AT) || "";
      var marked = markedCopy(html, at);
      return new Response(marked, { status: 200, statusText: "OK", headers: copy.headers });
    });
  });
}

function copyOrFallback(request) {
  return copyOf(request).then(function (copy) { return copy || copyOf(new Request(FALLBACK)); })
    .then(function (copy) { return copy || Response.error(); });
}

/* Network first; with no answer in time (or a server error) the copy kept on the phone.
   An answer that comes late still refreshes the copy for next time. */
function page(event) {
  var request = event.request;
  /* The answer to the preload when there is one (it fails as the fetch would). */
  var asked = Promise.resolve(event.preloadResponse).then(function (preloaded) {
    return preloaded || fetch(request);
  });
  var keeping = asked.then(function (response) {
    /* Copied now: once the page has it, its body is used and can no longer be copied. */
    var copy = response.clone();
    return caches.open(PAGE_CACHE).then(function (cache) { return keepPage(cache, request, copy); });
  }).catch(function () { return null; });
  event.waitUntil(keeping);
  return new Promise(function (resolve) {
    var done = false;
    function answer(response) { if (!done) { done = true; resolve(response); } }
    var timer = setTimeout(function () {
      copyOf(request).then(function (copy) { if (copy) { answer(copy); } });
    }, WAIT);
    asked.then(function (response) {
      clearTimeout(timer);
      if (response.status >= 500) {
        return copyOf(request).then(function (copy) { answer(copy || response); });
      }
      return answer(response);
    }, function () {
      clearTimeout(timer);
      return copyOrFallback(request).then(answer);
    });
  });
}

/* The shell: from this release's cache, else fetched and kept there; a file of an earlier
   release the server no longer has (or with no connection): this release's copy of it. */
function shellFile(request) {
  return caches.open(SHELL_CACHE).then(function (cache) {
    return cache.match(request, { ignoreVary: true }).then(function (found) {
      if (found) { return found; }
      return fetch(request).then(function (response) {
        if (storable(response)) { cache.put(request, response.clone()); return response; }
        if (response.ok) { return response; }
        return sameFile(cache, request).then(function (kept) { return kept || response; });
      }, function (error) {
        return sameFile(cache, request).then(function (kept) {
          if (kept) { return kept; }
          throw error;
        });
      });
    });
  });
}

function sameFile(cache, request) {
  var now = currentOf(CURRENT, new URL(request.url).pathname);
  if (!now) { return Promise.resolve(null); }
  return cache.match(now, { ignoreVary: true }).then(function (kept) { return kept || null; });
}

/* The phone's engine: from its cache, else fetched and kept there. The runtime (named by
   its version) is kept across releases of the app; the worker and the engine's bundle
   belong to this release, with the shell. */
function phoneCache(url) {
  return caches.open(url.indexOf(STATIC) === 0 ? RUNTIME_CACHE : SHELL_CACHE);
}

function phoneFile(request) {
  return phoneCache(new URL(request.url).pathname).then(function (cache) {
    return cache.match(request.url).then(function (found) {
      if (found) { return found; }
      return fetch(request).then(function (response) {
        if (storable(response)) { cache.put(request.url, response.clone()); }
        return response;
      });
    });
  });
}

/* A game's export, for the phone's engine: the network first, else the last copy (kept
   with the pages, bounded as they are, unless the server forbids it). */
function exported(request) {
  return caches.open(PAGE_CACHE).then(function (cache) {
    return fetch(request).then(function (response) {
      if (storable(response)) {
        return put(cache, request.url, response.clone(), false).then(function () { return response; });
      }
      return response;
    }, function () {
      return kept(cache, request.url).then(function (copy) { return copy || Response.error(); });
    });
  });
}

function keepPhone() {
  return Promise.all(PHONE.map(function (url) {
    return phoneCache(url).then(function (cache) {
      return cache.match(new URL(url, self.location.href).href).then(function (found) {
        if (found) { return null; }
        return fetch(new Request(url, { credentials: "same-origin" })).then(function (response) {
          return storable(response) ? cache.put(new URL(url, self.location.href).href, response) : null;
        });
      });
    });
  }));
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") { return; }
  var url = new URL(request.url);
  if (CDN && url.href === CDN) { event.respondWith(shellFile(request)); return; }
  if (url.origin !== self.location.origin) { return; }
  if (request.mode === "navigate") { event.respondWith(page(event)); return; }
  if (PHONE.indexOf(url.pathname) >= 0) { event.respondWith(phoneFile(request)); return; }
  if (EXPORT.test(url.pathname)) { event.respondWith(exported(request)); return; }
  if (url.pathname.indexOf(STATIC) === 0 || SHELL.indexOf(url.pathname) >= 0) {
    event.respondWith(shellFile(request));
  }
});

self.addEventListener("message", function (event) {
  var data = event.data || {};
  /* A release installed and still waiting: the page asks it to take over (static/offline.js). */
  if (data === "skipWaiting") { self.skipWaiting(); }
  if (data === "release" && event.source) { event.source.postMessage({ release: RELEASE }); }
  /* A scorekeeper's phone whose engine ran: keep every file it needs (those it fetched
     before this worker controlled the page were not seen here). */
  if (data === "keepPhone") {
    event.waitUntil(keepPhone().then(function () {
      if (event.source) { event.source.postMessage({ phoneKept: true }); }
    }, function () { return null; }));
  }
  /* A game's export the phone's engine loaded before this worker controlled its page. */
  if (data.keepExport) {
    var address = new URL(data.keepExport, self.location.href);
    if (address.origin === self.location.origin && EXPORT.test(address.pathname)) {
      event.waitUntil(exported(new Request(address.href, { credentials: "same-origin" })));
    }
  }
  /* A page opened before this worker ran: keep its copy as this browser gets it. */
  if (data.keep && new URL(data.keep).origin === self.location.origin) {
    event.waitUntil(caches.open(PAGE_CACHE).then(function (cache) {
      return fetch(fresh(data.keep)).then(function (response) { return keepPage(cache, data.keep, response); });
    }).catch(function () { return null; }));
  }
});
