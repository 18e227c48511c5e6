/* The engine on the phone: a module worker that runs scorekeeper/engine/ in Pyodide.

   Started by static/phone.js on a phone with the game's edit rights, once its page is idle.
   Every file comes from this app (the service worker keeps them for offline use): the
   vendored runtime (static/pyodide/<version>/, tools/vendor_pyodide.py) and the bundle of
   the engine, its bridge scorekeeper/phone.py and the compiled catalogs, made from the
   server's own files (scorekeeper/web/offline.py). No rule is written here: every call is
   answered by scorekeeper/phone.py.

   Messages: {id, call, args} with call one of "start" (args: [language]), "load",
   "preview", "play", "check" (scorekeeper/phone.py's Phone); the answer is {id, value} or
   {id, error}. A "ready" message says how long the start took. */
import { loadPyodide } from {{ (runtime ~ "pyodide.mjs")|tojson }};

var RUNTIME = {{ runtime|tojson }};
var BUNDLE = {{ bundle|tojson }};
var HOME = "/home/pyodide/scorekeeper-bundle";
var started = performance.now();

var ready = (async function () {
  var python = await loadPyodide({
    indexURL: RUNTIME,
    stdLibURL: RUNTIME + "stdlib.zip",
    lockFileURL: RUNTIME + "pyodide-lock.json",
    packageBaseUrl: RUNTIME,
  });
  var answer = await fetch(BUNDLE, { credentials: "same-origin" });
  if (!answer.ok) { throw new Error("The engine's bundle did not come: " + answer.status); }
  python.unpackArchive(await answer.arrayBuffer(), "zip", { extractDir: HOME });
  python.runPython("import sys; sys.path.insert(0, " + JSON.stringify(HOME) + ")");
  var phoneModule = python.pyimport("scorekeeper.phone");
  return { python: python, module: phoneModule };
})();

var phone = null;

/* A language's catalog in the bundle: the app's (messages) or WTForms' own (wtforms). */
function catalog(python, language, domain) {
  var path = HOME + "/scorekeeper/translations/" + language + "/LC_MESSAGES/" + domain + ".mo";
  try { return python.FS.readFile(path); } catch (missing) { return null; }
}

async function answer(call, args) {
  var found = await ready;
  if (call === "start") {
    var words = catalog(found.python, args[0], "messages");
    var forms = catalog(found.python, args[0], "wtforms");
    phone = found.module.start(
      words ? found.python.toPy(words) : null,
      forms ? found.python.toPy(forms) : null,
    );
    return true;
  }
  if (call === "stats") {
    return { memory: found.python._module.HEAPU8.byteLength };
  }
  if (!phone) { throw new Error("Not started"); }
  return phone[call].apply(phone, args);
}

self.addEventListener("message", function (event) {
  var data = event.data || {};
  answer(data.call, data.args || []).then(function (value) {
    self.postMessage({ id: data.id, value: value });
  }, function (error) {
    self.postMessage({ id: data.id, error: String(error && error.message || error) });
  });
});

ready.then(function () {
  self.postMessage({ ready: true, ms: Math.round(performance.now() - started) });
}, function (error) {
  self.postMessage({ ready: false, error: String(error && error.message || error) });
});
