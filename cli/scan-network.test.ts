// "Outbound network to an address the course gives", closed by construction (docs/security.md
// "Network"): config.yaml is course content, so an address it names is reached only after this user
// allowed it (pipeline/progress/notify-consent.ts). A static scan lists every way a production module
// can open a connection (fetch, http(s) request/get/Agent, net, tls, dgram, dns, http2, undici, ws and
// other client libraries, WebSocket, EventSource, XMLHttpRequest, sendBeacon, a network program by
// name) and fails on any file outside NETWORK_SITES, each entry with where its address comes from; and
// the diagrams' Chromium, the one browser codelabgen starts, refuses every request but its own page's.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { assertAllowListed, moduleImports, productionSources, withoutComments } from './source-scan.ts';
import { REPO_ROOT } from './testing.ts';

/** Files that may open a connection, and why the address is not one a course, worker or client chose unasked. */
const NETWORK_SITES: Record<string, string> = {
  'pipeline/progress/notify.ts':
    "fetch() of config.yaml's notify.url, only after isAllowed(course, { url }) found this user's consent to that exact URL " +
    'for that course folder (pipeline/progress/notify-consent.ts); no redirects, a timeout',
  'pipeline/verify/lesson-step.ts':
    'finds slirp4netns, which pipeline/verify/sandbox-network.ts starts to give a sandbox its own user-mode network: only for a ' +
    "lesson whose spec asks network: true, never the host's loopback (docs/security.md, the sandbox)",
  'site/client/page.js':
    "the reader's browser fetch() of the lessons list at the URL the page itself wrote (data-lessons: href()), same origin",
  'site/components/DevLive.astro':
    "the reader's browser, on the dev server only: fetch(location.href), the page it is showing, to swap in its update",
  'site/routes/progress.astro':
    "the reader's browser, on the dev server only: an EventSource on the progress stream URL the page itself wrote",
};

/** Modules whose every value export opens, or exists to open, a connection (or a DNS query). */
const CLIENT_MODULES = new Set([
  'net',
  'tls',
  'dgram',
  'dns',
  'dns/promises',
  'http2',
  'undici',
  'ws',
  'isomorphic-ws',
  'node-fetch',
  'cross-fetch',
  'axios',
  'got',
  'ky',
  'needle',
  'superagent',
  'socket.io-client',
]);
/** node:net's exports that open nothing. */
const NET_HELPERS = new Set(['isIP', 'isIPv4', 'isIPv6', 'BlockList', 'SocketAddress']);
/** node:http and node:https exports that make a client request; a server (createServer) is "A service that fails open". */
const HTTP_CLIENT = new Set(['request', 'get', 'Agent', 'globalAgent', 'ClientRequest']);
/** Programs that reach the network, named as a string anywhere in the code. */
const NETWORK_PROGRAMS = [
  'curl',
  'wget',
  'nc',
  'ncat',
  'socat',
  'ssh',
  'scp',
  'sftp',
  'rsync',
  'telnet',
  'ftp',
  'slirp4netns',
];

/** The ways `code` can open a connection (empty when it cannot). */
export function networkSites(code: string): string[] {
  const runtime = code.replace(/\bimport\s+type\b[^;]*;|\btypeof\s+import\s*\([^)]*\)/g, '');
  const found = new Set<string>();
  const calls = new RegExp(
    String.raw`(?<![\w$.])fetch\s*\(|\b(?:globalThis|window|self)\.fetch\b|\bsendBeacon\s*\(|` +
      String.raw`\bnew\s+(?:WebSocket|EventSource|XMLHttpRequest|WebTransport|RTCPeerConnection)\b`,
    'g',
  );
  for (const [call] of runtime.matchAll(calls)) found.add(call.replace(/\s+/g, ''));
  for (const { module, named, whole } of moduleImports(runtime)) {
    if (CLIENT_MODULES.has(module)) {
      if (whole !== undefined) found.add(`import ${module}`);
      for (const name of named ?? []) if (!(module === 'net' && NET_HELPERS.has(name))) found.add(`${module}.${name}`);
    } else if (module === 'http' || module === 'https') {
      for (const name of named ?? []) if (HTTP_CLIENT.has(name)) found.add(`${module}.${name}`);
      if (whole === '') found.add(`import ${module}`);
      else if (whole !== undefined)
        for (const [, use] of runtime.matchAll(
          new RegExp(String.raw`(?<![\w$.])\$?${whole.replace('$', '\\$')}\s*\.\s*(\w+)`, 'g'),
        ))
          if (use !== undefined && HTTP_CLIENT.has(use)) found.add(`${module}.${use}`);
    }
  }
  const programs = new RegExp(String.raw`(['"\x60])(?:[\w./-]*/)?(${NETWORK_PROGRAMS.join('|')})\1`, 'g');
  for (const [, , program] of runtime.matchAll(programs)) found.add(`program ${program}`);
  return [...found];
}

test('no production module opens a connection outside the allow-listed files', () => {
  assertAllowListed({
    sitesOf: networkSites,
    allowed: NETWORK_SITES,
    unlisted:
      'a connection opened from a new place: an address from the course needs the user’s consent first (as notify.url: ' +
      'pipeline/progress/notify-consent.ts); add the file to NETWORK_SITES saying where its address comes from',
    stale: 'these allow-listed files no longer open connections: take them off NETWORK_SITES',
  });
});

test('notify.ts posts only through urlReceiver, after the consent check', () => {
  const code = withoutComments(readFileSync(path.join(REPO_ROOT, 'pipeline/progress/notify.ts'), 'utf8'));
  assert.deepEqual(networkSites(code), ['fetch('], 'notify.ts opens connections only by fetch()');
  const fetches = [...code.matchAll(/(?<![\w$.])fetch\s*\(/g)];
  assert.equal(fetches.length, 1, 'one fetch() in notify.ts');
  assert.match(code, /\nasync function post\(url: string,[\s\S]*?\n}\n/, 'the fetch() is in post()');
  const postBody = /\nasync function post\([\s\S]*?\n}\n/.exec(code)?.[0] ?? '';
  assert.ok(postBody.includes('fetch('), 'the one fetch() is inside post()');
  const posts = [...code.matchAll(/(?<![\w$.])post\s*\(/g)].map((match) => match.index);
  assert.equal(posts.length, 2, 'post() is declared once and called once');
  const receiver = /\nasync function urlReceiver\([\s\S]*?\n}\n/.exec(code)?.[0] ?? '';
  const check = receiver.indexOf('if (!isAllowed(course.root, { url }))');
  assert.ok(check >= 0, 'urlReceiver() checks the consent for the exact URL');
  assert.ok(receiver.indexOf('post(') > check, 'the one call of post() is in urlReceiver(), after the consent check');
});

test("the one browser codelabgen starts (the diagrams' Chromium) refuses every request outside its page's origin", () => {
  const browsers = [...productionSources()]
    .filter(([, code]) => /\.(?:launch|launchPersistentContext|connectOverCDP)\s*\(|\bnewContext\s*\(/.test(code))
    .map(([file]) => file);
  assert.deepEqual(
    browsers,
    ['pipeline/site/diagrams.ts'],
    'a browser started somewhere new: refuse its requests as diagrams.ts does',
  );
  const code = productionSources().get('pipeline/site/diagrams.ts') ?? '';
  const refuseAll = code.indexOf("await context.route('**/*', (route) => route.abort(");
  assert.ok(refuseAll > code.indexOf('await browser.newContext()'), 'every request of the context is refused first');
  assert.ok(
    code.indexOf('await context.route(`${ORIGIN}/**`') > refuseAll,
    'then the page origin is served (last registered runs first)',
  );
  assert.equal(code.match(/\bnewContext\s*\(/g)?.length, 1, 'one context');
  assert.equal(code.match(/\.newPage\s*\(/g)?.length, 1, 'its pages only');
});

test('the scan sees every way to open a connection, and not a server or a type', () => {
  assert.deepEqual(networkSites('await fetch(url, { method: "POST" });'), ['fetch(']);
  assert.deepEqual(networkSites('const r = await globalThis.fetch(u);'), ['globalThis.fetch']);
  assert.deepEqual(networkSites('cache.fetch(key); prefetch(x);'), []);
  assert.deepEqual(networkSites("import { request } from 'node:https'; request(url);"), ['https.request']);
  assert.deepEqual(networkSites("import { get as g } from 'http';"), ['http.get']);
  assert.deepEqual(networkSites("import http from 'node:http'; http.createServer(handle);"), []);
  assert.deepEqual(networkSites("import * as h from 'node:http'; h.request(u); h.createServer(x);"), ['http.request']);
  assert.deepEqual(networkSites("const https = require('node:https'); https.get(u);"), ['https.get']);
  assert.deepEqual(networkSites("const { connect } = process.getBuiltinModule('node:tls');"), ['tls.connect']);
  assert.deepEqual(networkSites("import net from 'node:net'; net.connect(port);"), ['import net']);
  assert.deepEqual(networkSites("import { createConnection } from 'net';"), ['net.createConnection']);
  assert.deepEqual(networkSites("import { isIP } from 'node:net';"), []);
  assert.deepEqual(networkSites("import type { AddressInfo } from 'node:net';"), []);
  assert.deepEqual(networkSites("import { type Socket } from 'node:net';"), []);
  assert.deepEqual(networkSites("import { createSocket } from 'node:dgram';"), ['dgram.createSocket']);
  assert.deepEqual(networkSites("import { lookup } from 'node:dns/promises';"), ['dns/promises.lookup']);
  assert.deepEqual(networkSites("const { request } = await import('undici');"), ['undici.request']);
  assert.deepEqual(networkSites("import WebSocket from 'ws';"), ['import ws']);
  assert.deepEqual(networkSites('const s = new WebSocket(u); const e = new EventSource(u);'), [
    'newWebSocket',
    'newEventSource',
  ]);
  assert.deepEqual(networkSites('navigator.sendBeacon(u, body);'), ['sendBeacon(']);
  assert.deepEqual(networkSites("spawn('curl', ['-d', body, url]); execFileSync('/usr/bin/wget', [u]);"), [
    'program curl',
    'program wget',
  ]);
  assert.deepEqual(networkSites("const text = 'curl is a program'; const n = 'nc';"), ['program nc']);
});
