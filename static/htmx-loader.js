/* htmx's second way in. The page loads this server's copy first (a deferred script: a hashed,
   compressed file kept a year, which the service worker holds too), so no phone waits on the
   CDN. Only when that copy did not come (this server or a proxy failing it) is the pinned CDN
   copy asked, checked by its integrity hash, once the page has loaded: htmx, finding the
   document complete, sets itself up at once. Every page works without it. */
import { htmx } from "./common.js";

const me = /** @type {HTMLScriptElement | null} */ (document.querySelector("script[data-cdn]"));

function fromCdn() {
  if (htmx() || !me) { return; }
  const cdn = document.createElement("script");
  cdn.src = me.dataset.cdn || "";
  cdn.integrity = me.dataset.integrity || "";
  cdn.crossOrigin = "anonymous";
  document.head.appendChild(cdn);
}

/* This server's copy ran before this script, or it is asked of the CDN. */
if (!htmx()) {
  if (document.readyState === "complete") {
    fromCdn();
  } else {
    window.addEventListener("load", fromCdn);
  }
}
