/* The phone's store (static/store.js) across versions, on fake-indexeddb: what each release
   finds and leaves in IndexedDB `scorekeeper`. */
import assert from "node:assert/strict";
import { test } from "node:test";

import { IDBFactory } from "fake-indexeddb";

import { NAME, VERSION, openStore } from "../../static/store.js";

/**
 * Open the database as an older or newer page would, with `upgrade` for its own version.
 * @param {IDBFactory} factory
 * @param {number} version
 * @param {(db: IDBDatabase) => void} upgrade
 * @returns {Promise<IDBDatabase>}
 */
function openAt(factory, version, upgrade) {
  return new Promise((resolve, reject) => {
    const request = factory.open(NAME, version);
    request.onupgradeneeded = () => { upgrade(request.result); };
    request.onsuccess = () => { resolve(request.result); };
    request.onerror = () => { reject(request.error); };
  });
}

/** @param {IDBFactory} factory */
function storeOf(factory) {
  /** @type {boolean[]} */
  const said = [];
  return { store: openStore(factory, (on) => { said.push(on); }), said };
}

/**
 * @param {ReturnType<typeof openStore>} store
 * @param {string} name
 */
function all(store, name) { return store.transact(name, "readonly", (s) => s.getAll()); }

test("a first visit makes every object store: deals and games numbered as kept, states by game", async () => {
  const factory = new IDBFactory();
  const { store } = storeOf(factory);
  await store.transact("outbox", "readwrite", (s) => s.put({ number: 1 }));
  await store.transact("games", "readwrite", (s) => s.put({ id: "g" }));
  await store.transact("states", "readwrite", (s) => s.put({ game: "g", document: "{}" }));
  await store.transact("states", "readwrite", (s) => s.put({ game: "g", document: "{\"deals\": []}" }));
  assert.deepEqual(await all(store, "outbox"), [{ number: 1, key: 1 }]);
  assert.deepEqual(await all(store, "games"), [{ id: "g", key: 1 }]);
  assert.deepEqual(await all(store, "states"), [{ game: "g", document: "{\"deals\": []}" }]);
  const db = await openAt(factory, VERSION, () => {});
  assert.equal(db.version, 3);
  assert.deepEqual([...db.objectStoreNames].sort(), ["games", "outbox", "states"]);
  db.close();
});

test("version 2's deals and games stay kept when version 3 adds the states", async () => {
  const factory = new IDBFactory();
  const old = await openAt(factory, 2, (db) => {
    db.createObjectStore("outbox", { keyPath: "key", autoIncrement: true });
    db.createObjectStore("games", { keyPath: "key", autoIncrement: true });
  });
  await new Promise((resolve) => {
    const tx = old.transaction(["outbox", "games"], "readwrite");
    tx.objectStore("outbox").put({ number: 2, state: "waiting" });
    tx.objectStore("games").put({ id: "g" });
    tx.oncomplete = resolve;
  });
  old.close();
  const { store } = storeOf(factory);
  assert.deepEqual(await all(store, "outbox"), [{ number: 2, state: "waiting", key: 1 }]);
  assert.deepEqual(await all(store, "games"), [{ id: "g", key: 1 }]);
  assert.deepEqual(await all(store, "states"), []);
});

test("version 1's deals stay kept when version 2 adds the games", async () => {
  const factory = new IDBFactory();
  const old = await openAt(factory, 1, (db) => { db.createObjectStore("outbox", { keyPath: "key", autoIncrement: true }); });
  await new Promise((resolve) => {
    const tx = old.transaction("outbox", "readwrite");
    tx.objectStore("outbox").put({ number: 7, state: "waiting" });
    tx.oncomplete = resolve;
  });
  old.close();
  const { store } = storeOf(factory);
  assert.deepEqual(await all(store, "outbox"), [{ number: 7, state: "waiting", key: 1 }]);
  assert.deepEqual(await all(store, "games"), []);
});

test("an open page lets a newer version in, and opens the store again as that left it", async () => {
  const factory = new IDBFactory();
  const { store, said } = storeOf(factory);
  await store.transact("outbox", "readwrite", (s) => s.put({ number: 1 }));
  /* A newer release (version 4, a store of its own) opens while this page holds version 3. */
  const newer = await openAt(factory, 4, (db) => { db.createObjectStore("later"); });
  newer.close();
  /* This page's store is at 4 now: it opens it as it is, its deals still there. */
  assert.deepEqual(await all(store, "outbox"), [{ number: 1, key: 1 }]);
  assert.deepEqual(said.filter(Boolean), [], "nobody was told of a blocked store");
});

test("a page of an older release finds the store as a newer one left it", async () => {
  const factory = new IDBFactory();
  const newer = await openAt(factory, 5, (db) => {
    db.createObjectStore("outbox", { keyPath: "key", autoIncrement: true });
    db.createObjectStore("games", { keyPath: "key", autoIncrement: true });
    db.createObjectStore("states", { keyPath: "game" });
  });
  newer.close();
  const { store } = storeOf(factory);
  assert.deepEqual(await all(store, "games"), []);
  assert.deepEqual(await all(store, "states"), []);
});

test("a store a newer version left without our object stores is refused, and tried again later", async () => {
  const factory = new IDBFactory();
  const newer = await openAt(factory, 5, (db) => { db.createObjectStore("elsewhere"); });
  newer.close();
  const { store } = storeOf(factory);
  await assert.rejects(all(store, "outbox"), /lacks its object stores/);
  await assert.rejects(all(store, "outbox"), /lacks its object stores/);
});

test("an older page that does not let go is said, and said no more once it closes", async () => {
  const factory = new IDBFactory();
  const old = await openAt(factory, 1, (db) => { db.createObjectStore("outbox", { keyPath: "key", autoIncrement: true }); });
  const { store, said } = storeOf(factory);
  const reading = all(store, "outbox");
  await new Promise((resolve) => { setTimeout(resolve, 50); });
  assert.deepEqual(said, [true]);
  old.close();
  assert.deepEqual(await reading, []);
  assert.deepEqual(said, [true, false]);
});
