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
