// The ids of a component's <script>/<style> sub-requests (pipeline/site/astro-subrequests.ts): a
// component outside Astro's root gets the /@fs form Astro maps back to its compile metadata; every
// other id is left to Vite. The builds that need it: site-build.test.ts "drafts and broken content".
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { REPO_ROOT } from '../../cli/testing.ts';
import { fsSubRequestId } from './astro-subrequests.ts';

const PAGE = path.join(REPO_ROOT, 'site', 'routes', 'progress.astro');
const ROOT = '/home/u/.cache/codelabgen/site/install-x/l1/l0/content-y/root';

test('a sub-request of a component outside the root gets /@fs; any other id is left alone', () => {
  assert.equal(
    fsSubRequestId(`${PAGE}?astro&type=script&index=0&lang.ts`, ROOT),
    `/@fs${PAGE}?astro&type=script&index=0&lang.ts`,
  );
  assert.equal(
    fsSubRequestId(`${PAGE}?astro&type=style&index=1&lang.css`, ROOT),
    `/@fs${PAGE}?astro&type=style&index=1&lang.css`,
  );
  // the component itself, ids already in /@fs form, components inside the root, root-relative ids
  assert.equal(fsSubRequestId(PAGE, ROOT), null);
  assert.equal(fsSubRequestId(`/@fs${PAGE}?astro&type=script&index=0&lang.ts`, ROOT), null);
  assert.equal(fsSubRequestId(`${PAGE}?astro&type=script&index=0&lang.ts`, path.join(REPO_ROOT, 'site')), null);
  assert.equal(fsSubRequestId('/src/pages/index.astro?astro&type=script&index=0&lang.ts', ROOT), null);
  assert.equal(fsSubRequestId(`${PAGE}?raw`, ROOT), null);
});

test("in a host's build only the package's pages get /@fs: another package's component outside the root (Starlight's) keeps its id", () => {
  const id = `${PAGE}?astro&type=script&index=0&lang.ts`;
  const starlight = path.join(REPO_ROOT, 'node_modules', '@astrojs', 'starlight', 'components', 'Page.astro');
  assert.equal(fsSubRequestId(id, ROOT, path.join(REPO_ROOT, 'site')), `/@fs${id}`);
  assert.equal(
    fsSubRequestId(`${starlight}?astro&type=script&index=0&lang.ts`, ROOT, path.join(REPO_ROOT, 'site')),
    null,
  );
});
