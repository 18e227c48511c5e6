/* The import page's progress (static/progress.js): the share sent, then the check. */
import assert from "node:assert/strict";
import { test } from "node:test";

import { uploadProgress } from "../../static/progress.js";

const at = (loaded, total) => ({ lengthComputable: true, loaded, total });

test("while the file is sent the share sent is shown, rounded down", () => {
  assert.deepEqual(uploadProgress(null, at(0, 1000)), { phase: "sending", percent: 0 });
  assert.deepEqual(uploadProgress(null, at(999, 1000)), { phase: "sending", percent: 99 });
});

test("once the whole file is sent the server is checking it", () => {
  assert.deepEqual(uploadProgress(null, at(1000, 1000)), { phase: "checking", percent: null });
});

test("the answer's own progress after the check started changes nothing", () => {
  const checking = uploadProgress(null, at(1000, 1000));
  assert.equal(uploadProgress(checking, at(10, 5000)), checking);
});

test("a size the browser cannot tell gives a bar with no share", () => {
  assert.deepEqual(uploadProgress(null, { lengthComputable: false, loaded: 10, total: 0 }), { phase: "sending", percent: null });
});
