/* The send loop the outbox and the games kept share (static/common.js `sender`), and the rule
   of what is tried again later (`later`), with the page's events played by hand. */
import assert from "node:assert/strict";
import { beforeEach, test } from "node:test";

import { RETRY_EVERY, later, sender } from "../../static/common.js";

/** @type {(() => void)[]} the interval's callbacks, ticked by hand */
let ticks = [];
/** @type {string[]} the Web Locks asked for */
let locks = [];

beforeEach(() => {
  ticks = [];
  locks = [];
  const page = Object.assign(new EventTarget(), {
    /** @param {() => void} callback @param {number} ms */
    setInterval(callback, ms) { assert.equal(ms, RETRY_EVERY); ticks.push(callback); return ticks.length; },
  });
  const doc = Object.assign(new EventTarget(), { visibilityState: "visible" });
  Object.defineProperty(globalThis, "window", { value: page, configurable: true });
  Object.defineProperty(globalThis, "document", { value: doc, configurable: true });
  Object.defineProperty(globalThis, "navigator", {
    value: {
      locks: {
        /** @param {string} name @param {() => Promise<unknown>} run */
        request(name, run) { locks.push(name); return run(); },
      },
    },
    configurable: true,
  });
});

/** Let pending promises settle. */
function settled() { return new Promise((resolve) => { setImmediate(resolve); }); }

test("nothing is sent while nothing waits", async () => {
  let runs = 0;
  const send = sender("l", () => false, async () => { runs += 1; });
  assert.equal(await send(), null);
  ticks.forEach((tick) => tick());
  window.dispatchEvent(new Event("online"));
  await settled();
  assert.equal(runs, 0);
});

test("never two sends at once, and each under the Web Lock of its name", async () => {
  /** @type {() => void} */
  let finish = () => {};
  let runs = 0;
  const send = sender("scorekeeper-outbox", () => true, () => {
    runs += 1;
    return new Promise((resolve) => { finish = () => resolve("sent"); });
  });
  const first = send();
  const second = send();
  assert.equal(runs, 1, "a second send while the first is on its way does nothing");
  finish();
  assert.equal(await second, null);
  assert.equal(await first, "sent");
  assert.deepEqual(locks, ["scorekeeper-outbox"]);
  const again = send();
  finish();
  assert.equal(await again, "sent");
  assert.equal(runs, 2, "once done, the next send runs");
});

test("sent again when the phone is online again, shown again, and on every tick while something waits", async () => {
  let waiting = true;
  let runs = 0;
  sender("l", () => waiting, async () => { runs += 1; });
  window.dispatchEvent(new Event("online"));
  await settled();
  assert.equal(runs, 1);
  document.dispatchEvent(new Event("visibilitychange"));
  await settled();
  assert.equal(runs, 2);
  Object.assign(document, { visibilityState: "hidden" });
  document.dispatchEvent(new Event("visibilitychange"));
  await settled();
  assert.equal(runs, 2, "a hidden page sends nothing");
  ticks.forEach((tick) => tick());
  await settled();
  assert.equal(runs, 3);
  waiting = false;
  ticks.forEach((tick) => tick());
  await settled();
  assert.equal(runs, 3, "a tick with nothing waiting sends nothing");
});

test("a send that fails is tried again at the next occasion", async () => {
  let runs = 0;
  const send = sender("l", () => true, async () => {
    runs += 1;
    if (runs === 1) { throw new Error("no answer"); }
    return "sent";
  });
  assert.equal(await send(), null);
  assert.equal(await send(), "sent");
});

test("a server error or too many requests is tried again later; any other answer is not", () => {
  for (const status of [500, 502, 503, 504, 429]) { assert.ok(later(status), String(status)); }
  for (const status of [200, 303, 400, 403, 404, 409, 422]) { assert.ok(!later(status), String(status)); }
});
