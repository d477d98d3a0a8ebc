// Published SVGs carry no script: DOMPurify's SVG profile plus the removal of every external
// reference (pipeline/site/svg-sanitize.ts). The built output is checked in site-build.test.ts.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isSvgRequest } from './svg-dev-guard.ts';
import { loadSvgSanitizer, sanitizeSvg } from './svg-sanitize.ts';

export const HOSTILE_SVG = `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE svg>
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 20 10" width="20" height="10" onload="alert('onload')">
  <script>alert('script')</script>
  <style>@import url(https://evil.example/a.css);</style>
  <style>.box { fill: url(#fade); }</style>
  <defs><linearGradient id="fade"><stop offset="0" stop-color="#0b7a75"/></linearGradient></defs>
  <rect class="box" width="10" height="10" onclick="alert('click')" fill="url(#fade)" style="filter: url(https://evil.example/f.svg#x)"/>
  <image href="https://evil.example/beacon.png" width="1" height="1"/>
  <image xlink:href="data:image/png;base64,iVBORw0KGgo=" width="1" height="1"/>
  <use xlink:href="https://evil.example/sprite.svg#icon"/>
  <use href="#fade"/>
  <a href="javascript:alert('link')"><text x="11" y="8">Hi &amp; bye</text></a>
  <set attributeName="onmouseover" to="alert('set')"/>
  <animate attributeName="href" to="javascript:alert('animate')"/>
  <foreignObject width="10" height="10"><div xmlns="http://www.w3.org/1999/xhtml"><iframe src="javascript:alert('fo')"></iframe></div></foreignObject>
</svg>
`;

/** What a published SVG must not hold. */
export const UNSAFE_SVG = /<script|\son[a-z]+\s*=|foreignObject|javascript:|evil\.example|<set|<animate|@import/i;

test('a hostile SVG keeps its drawing and loses scripts, handlers, foreignObject, animation and external references', async () => {
  const clean = sanitizeSvg(HOSTILE_SVG, await loadSvgSanitizer());
  assert.doesNotMatch(clean, UNSAFE_SVG, clean);
  assert.match(clean, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"[^>]* viewBox="0 0 20 10"/);
  for (const kept of [
    '<rect class="box" width="10" height="10" fill="url(#fade)"',
    '<linearGradient id="fade">',
    '.box { fill: url(#fade); }',
    'Hi &amp; bye',
    'data:image/png;base64,iVBORw0KGgo=',
  ]) {
    assert.ok(clean.includes(kept), `${kept} was lost: ${clean}`);
  }
});

test('a file without an <svg> element becomes an empty SVG', async () => {
  const sanitizer = await loadSvgSanitizer();
  assert.equal(
    sanitizeSvg('<html><body><script>alert(1)</script></body></html>', sanitizer),
    '<svg xmlns="http://www.w3.org/2000/svg"/>\n',
  );
  assert.equal(sanitizeSvg('not markup at all', sanitizer), '<svg xmlns="http://www.w3.org/2000/svg"/>\n');
});

test('site dev marks SVG requests (a path ending .svg, or an image endpoint asked for one), and nothing else', () => {
  for (const url of [
    '/@fs/c/1.1/docs/img/a.svg?origWidth=10&origHeight=10&origFormat=svg',
    '/x/A%20B.SVG',
    '/_image?href=%2F%40fs%2Fc%2Fa.svg%3ForigWidth%3D1&f=svg',
  ]) {
    assert.ok(isSvgRequest(url), url);
  }
  for (const url of ['/lessons/1.1/', '/a.svg.png', '/_image?href=%2Fa.png&f=webp', '/%E0%A4%A.svg.js'])
    assert.ok(!isSvgRequest(url), url);
});
