/* The release handover the service worker makes (static/releases.js): what a new release
   drops, which of its files stands for an earlier release's, how a kept page is marked. */
import assert from "node:assert/strict";
import { test } from "node:test";

import { currentNames, isHashed, markedCopy, sameFile, staleCaches } from "../../static/releases.js";

const SHELL = ["/static/app.3f2a9b1c04d5.css", "/static/outbox.0123456789ab.js", "/static/icons/icon-32.aaaaaaaaaaaa.png", "/manifest.webmanifest"];

test("a hashed name names one content forever; a plain one does not", () => {
  assert.ok(isHashed("/static/app.3f2a9b1c04d5.css"));
  assert.ok(isHashed("/static/LICENSE.3f2a9b1c04d5"));
  assert.ok(!isHashed("/static/app.css"));
  assert.ok(!isHashed("/static/app.3f2a9b1c04.css"), "eleven digits are no hash of ours");
  assert.ok(!isHashed("/manifest.webmanifest"));
});

test("an earlier release's file is served as this release's copy of it", () => {
  const current = currentNames(SHELL);
  assert.equal(sameFile(current, "/static/outbox.ffffffffffff.js"), "/static/outbox.0123456789ab.js");
  assert.equal(sameFile(current, "/static/app.000000000000.css"), "/static/app.3f2a9b1c04d5.css");
  assert.equal(sameFile(current, "/static/outbox.js"), "/static/outbox.0123456789ab.js");
});

test("this release's own file, or one it does not have, stands for nothing", () => {
  const current = currentNames(SHELL);
  assert.equal(sameFile(current, "/static/outbox.0123456789ab.js"), null);
  assert.equal(sameFile(current, "/static/gone.0123456789ab.js"), null);
  assert.equal(sameFile(current, "/static/app.0123456789ab.js"), null, "another extension is another file");
});

test("a new release drops earlier shells and runtimes, never the pages kept", () => {
  const names = ["shell-r1", "shell-r2", "runtime-0.27", "runtime-0.28", "pages", "other"];
  assert.deepEqual(staleCaches(names, "shell-r2", "runtime-0.28"), ["shell-r1", "runtime-0.27"]);
  assert.deepEqual(staleCaches(["shell-r2", "runtime-0.28", "pages"], "shell-r2", "runtime-0.28"), []);
});

test("a kept page says when it was kept", () => {
  const html = '<!doctype html>\n<HTML lang="en"><head></head></HTML>';
  assert.equal(markedCopy(html, "2026-12-04T12:00:00Z"), '<!doctype html>\n<html data-offline-copy="2026-12-04T12:00:00Z" lang="en"><head></head></HTML>');
  assert.equal(markedCopy("<p>no html element</p>", "x"), "<p>no html element</p>");
});

test("the exports the worker keeps are those under the app's root", async () => {
  const { exportPattern } = await import("../../static/releases.js");
  const top = exportPattern("");
  assert.ok(top.test("/games/Ab3_x-9/export.json"));
  assert.ok(!top.test("/games/a/b/export.json"));
  const under = exportPattern("/scores");
  assert.ok(under.test("/scores/games/Ab3_x-9/export.json"));
  assert.ok(!under.test("/games/Ab3_x-9/export.json"));
  assert.ok(exportPattern("/scores/").test("/scores/games/a/export.json"));
  // A root is matched as written, never as a pattern.
  assert.ok(!exportPattern("/a.b").test("/aXb/games/a/export.json"));
});

test("an answer marked no-store is never kept; any other may be", async () => {
  const { keepable } = await import("../../static/releases.js");
  assert.ok(!keepable("no-store"));
  assert.ok(!keepable("private, No-Store"));
  assert.ok(!keepable("no-cache,no-store, max-age=0"));
  assert.ok(keepable("private, no-cache"), "the copy without the edit link");
  assert.ok(keepable("public, no-cache"));
  assert.ok(keepable(null));
  assert.ok(keepable('no-cache="no-store-me"'), "a directive's value is no directive");
});

test("a game's page and the addresses under it are known by the app's root", async () => {
  const { gameOf, ofGame } = await import("../../static/releases.js");
  assert.equal(gameOf("", "/games/Ab3_x-9"), "Ab3_x-9");
  assert.equal(gameOf("/scores", "/scores/games/Ab3_x-9"), "Ab3_x-9");
  assert.equal(gameOf("/scores/", "/scores/games/Ab3_x-9"), "Ab3_x-9");
  assert.equal(gameOf("/scores", "/games/Ab3_x-9"), null, "not under the root");
  assert.equal(gameOf("", "/games/new"), null, "the new-game page is no game");
  assert.equal(gameOf("", "/games/Ab3/export.json"), null);
  assert.ok(ofGame("/scores", "Ab3", "/scores/games/Ab3"));
  assert.ok(ofGame("/scores", "Ab3", "/scores/games/Ab3/export.json"));
  assert.ok(ofGame("", "Ab3", "/games/Ab3/deals/2/edit"));
  assert.ok(!ofGame("", "Ab3", "/games/Ab34"), "another game whose id starts alike");
  assert.ok(!ofGame("/scores", "Ab3", "/games/Ab3"));
});

const DAY = 24 * 60 * 60 * 1000;
const NOW = Date.parse("2026-12-06T12:00:00Z");
const LIMITS = { maxEntries: 2, maxAgeSeconds: 30 * 24 * 60 * 60 };

/** @param {number} days */
function daysAgo(days) { return new Date(NOW - days * DAY).toISOString(); }

test("a copy older than the age allowed, or with no time kept, is too old to serve", async () => {
  const { tooOld } = await import("../../static/releases.js");
  assert.ok(!tooOld(daysAgo(29), NOW, LIMITS));
  assert.ok(tooOld(daysAgo(31), NOW, LIMITS));
  assert.ok(tooOld(null, NOW, LIMITS));
  assert.ok(tooOld("yesterday", NOW, LIMITS));
});

test("the pages kept are bounded: the old ones go, then the oldest beyond the count", async () => {
  const { expired } = await import("../../static/releases.js");
  const entries = [
    { url: "/games/a", keptAt: daysAgo(3) },
    { url: "/", keptAt: daysAgo(90) },
    { url: "/games/b", keptAt: daysAgo(1) },
    { url: "/games/c", keptAt: daysAgo(40) },
    { url: "/games/d", keptAt: daysAgo(2) },
    { url: "/games/e", keptAt: null },
  ];
  const lasting = (/** @type {string} */ url) => url === "/";
  assert.deepEqual(expired(entries, NOW, LIMITS, lasting).sort(), ["/games/a", "/games/c", "/games/e"]);
  // Within both limits nothing goes; the lasting pages are not counted.
  assert.deepEqual(expired(entries.slice(0, 3), NOW, LIMITS, lasting), []);
  assert.deepEqual(expired(entries, NOW, { maxEntries: 0, maxAgeSeconds: LIMITS.maxAgeSeconds }, lasting).sort(),
    ["/games/a", "/games/b", "/games/c", "/games/d", "/games/e"]);
});
