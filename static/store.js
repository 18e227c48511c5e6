/* The phone's store: IndexedDB `scorekeeper`, one object store a kind of thing kept.
   `outbox` holds the deals kept (static/outbox.js), in the order they were kept; `games`
   (version 2) the games started offline (static/kept-games.js); `states` (version 3) the
   last document of each game the page learnt of (static/state.js). Its shape is written
   here only. */

export const NAME = "scorekeeper";
export const VERSION = 3;
/** The object stores of this version. */
export const STORES = ["outbox", "games", "states"];
/** How each is keyed: `outbox` and `games` by `key`, numbered as things are kept; `states`
    by the game's id, one record a game. */
const KEYS = /** @type {Record<string, IDBObjectStoreParameters>} */ ({
  outbox: { keyPath: "key", autoIncrement: true },
  games: { keyPath: "key", autoIncrement: true },
  states: { keyPath: "game" },
});

/**
 * Bring an opened database up to VERSION: add the object stores it lacks, keep what it holds.
 * @param {IDBDatabase} db
 */
export function upgrade(db) {
  STORES.forEach((name) => {
    if (!db.objectStoreNames.contains(name)) {
      db.createObjectStore(name, KEYS[name]);
    }
  });
}

/**
 * @typedef {object} Store
 * @property {<T>(name: string, mode: IDBTransactionMode, work: (store: IDBObjectStore) => IDBRequest<T> | null) => Promise<T | undefined>} transact
 *   Run `work` on one object store in one transaction; resolve with its request's result.
 */

/**
 * The store, opened at its first use and again after a newer page (another tab, a newer
 * release) took it over. `blocked` is told while an older page holds the store at its older
 * version and does not let go (the opening then goes on by itself once that one closes).
 * @param {IDBFactory} factory
 * @param {(on: boolean) => void} blocked
 * @returns {Store}
 */
export function openStore(factory, blocked) {
  /** @type {Promise<IDBDatabase> | null} */
  let opened = null;

  /* A newer page asks for a newer version: this one lets go at once, and opens the store
     again at its next use, as the newer page left it. */
  /** @param {IDBDatabase} db */
  function ready(db) {
    db.onversionchange = () => { db.close(); opened = null; };
    return db;
  }

  /* The store at the version a newer page made: its stores are still these. */
  /** @returns {Promise<IDBDatabase>} */
  function asItIs() {
    return new Promise((resolve, reject) => {
      const request = factory.open(NAME);
      request.onsuccess = () => {
        const db = request.result;
        if (!STORES.every((name) => db.objectStoreNames.contains(name))) {
          db.close();
          reject(new Error("the phone's store lacks its object stores"));
          return;
        }
        resolve(ready(db));
      };
      request.onerror = () => { reject(request.error); };
    });
  }

  /** @returns {Promise<IDBDatabase>} */
  function database() {
    if (!opened) {
      opened = new Promise((resolve, reject) => {
        const request = factory.open(NAME, VERSION);
        request.onupgradeneeded = () => { upgrade(request.result); };
        request.onblocked = () => { blocked(true); };
        request.onsuccess = () => { blocked(false); resolve(ready(request.result)); };
        request.onerror = () => {
          blocked(false);
          if (request.error && request.error.name === "VersionError") { asItIs().then(resolve, reject); }
          else { reject(request.error); }
        };
      });
      /* Not opened: the next use tries again. */
      opened.catch(() => { opened = null; });
    }
    return opened;
  }

  return {
    async transact(name, mode, work) {
      const db = await database();
      return new Promise((resolve, reject) => {
        const tx = db.transaction(name, mode);
        const request = work(tx.objectStore(name));
        tx.oncomplete = () => { resolve(request ? request.result : undefined); };
        tx.onerror = () => { reject(tx.error); };
        tx.onabort = () => { reject(tx.error); };
      });
    },
  };
}

/** The page's store: said on the page (#store-blocked) while an older tab holds it. */
export const store = openStore(globalThis.indexedDB, (on) => {
  const note = document.getElementById("store-blocked");
  if (note) { note.hidden = !on; }
});
