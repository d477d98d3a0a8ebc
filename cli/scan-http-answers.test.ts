// "A service that fails open, or answers with what it should not", closed by construction
// (docs/security.md "A service that fails open"): codelabgen answers HTTP in two servers only, each
// with one place for its refusals. The MCP server (cli/mcp/http.ts) refuses through reject() (and
// rejectUnparsed() for what Node's parser refuses): a JSON-RPC error with its code, naming no path. The dev server's middlewares (pipeline/site/) are
// installed by the integration behind the guard (pipeline/site/restricted-guard.ts, first of all)
// that answers a URL it cannot decode and every 403 with a body that names no path. A static scan fails when another
// production module starts a server, installs a middleware, sets a status, writes a response or
// makes one (an endpoint's `new Response`), unless it is on HTTP_ANSWERS with its reason.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertAllowListed, moduleImports, productionSources } from './source-scan.ts';

const ENDPOINT = "an endpoint of the site: 200 with the build's own data, never a status or an error body of its own";

/** Files that serve HTTP or answer a request, and how their answers are kept from failing open. */
const HTTP_ANSWERS: Record<string, string> = {
  'cli/mcp/http.ts':
    "the MCP HTTP server: each refusal of its own goes through reject(), or rejectUnparsed() for what Node's parser " +
    "refuses (a JSON-RPC error with the code, no path); the rest is the SDK transport's JSON-RPC (cli/mcp-http.test.ts)",
  'pipeline/site/integration.ts':
    "site dev's middlewares, behind the guard (pipeline/site/restricted-guard.ts, put first of all); its own serves " +
    "mermaid's installed files, kept inside that package by isInside, else passes on",
  'pipeline/site/restricted-guard.ts':
    "the guard, first of all site dev's middlewares: a URL whose path does not decode is a 400 of its own, every 403 " +
    'body one that names no path (Vite lists its allow-list)',
  'pipeline/site/progress-live.ts': "the progress board's event stream: 200 with the board's HTML, or passes on",
  'pipeline/site/svg-dev-guard.ts': 'adds a Content-Security-Policy header to SVG answers; answers nothing itself',
  'site/routes/diagrams.css.ts': ENDPOINT,
  'site/routes/lesson-code.zip.ts': ENDPOINT,
  'site/routes/page.js.ts': ENDPOINT,
  'site/routes/sidebar.json.ts': ENDPOINT,
};

/** node:http, https, http2 and net exports that make a server. */
const SERVER_EXPORTS = new Set(['createServer', 'createSecureServer', 'Server']);

/** How `code` serves HTTP or answers a request (empty when it does not). */
export function answerSites(code: string): string[] {
  const runtime = code.replace(/\bimport\s+type\b[^;]*;|\btypeof\s+import\s*\([^)]*\)/g, '');
  const found = new Set<string>();
  const answers = new RegExp(
    [
      String.raw`\.status(?:Code|Message)\s*=(?!=)`,
      String.raw`\.(?:writeHead|flushHeaders|writeContinue|writeEarlyHints)\s*\(`,
      String.raw`\b(?:res|response)\s*\.\s*(?:end|write|setHeader|removeHeader|appendHeader)\s*\(`,
      String.raw`\.pipe\s*\(\s*(?:res|response)\b`,
      String.raw`\bnew\s+Response\s*\(`,
      String.raw`\bResponse\.(?:json|redirect|error)\s*\(`,
      String.raw`\bAstro\.(?:response\.(?:status|headers)|redirect\s*\()`,
      String.raw`\.middlewares\.(?:use\s*\(|stack\b)`,
      String.raw`\bServerResponse\b`,
    ].join('|'),
    'g',
  );
  for (const [site] of runtime.matchAll(answers)) found.add(site.replace(/\s+/g, ''));
  for (const { module, named, whole } of moduleImports(runtime)) {
    if (!['http', 'https', 'http2', 'net'].includes(module)) continue;
    for (const name of named ?? []) if (SERVER_EXPORTS.has(name)) found.add(`${module}.${name}`);
    if (whole)
      for (const [, use] of runtime.matchAll(new RegExp(String.raw`(?<![\w$.])${whole}\s*\.\s*(\w+)`, 'g')))
        if (use !== undefined && SERVER_EXPORTS.has(use)) found.add(`${module}.${use}`);
  }
  return [...found];
}

test('no production module serves HTTP or answers a request outside the allow-listed files', () => {
  assertAllowListed({
    sitesOf: answerSites,
    allowed: HTTP_ANSWERS,
    unlisted:
      'an HTTP answer from a new place: refuse through reject() (cli/mcp/http.ts) or behind the dev server guard ' +
      '(pipeline/site/restricted-guard.ts), or add the file to HTTP_ANSWERS saying why its answers cannot fail open',
    stale: 'these allow-listed files no longer answer HTTP: take them off HTTP_ANSWERS',
  });
});

test("the MCP server's own answers are reject()'s; the dev server's guard is put first of all its middlewares", () => {
  const sources = productionSources();
  const mcp = sources.get('cli/mcp/http.ts') ?? '';
  const reject = /\nfunction reject\([\s\S]*?\n}\n/.exec(mcp)?.[0] ?? '';
  const unparsed = /\nfunction rejectUnparsed\([\s\S]*?\n}\n/.exec(mcp)?.[0] ?? '';
  const outside = mcp.replace(reject, '').replace(unparsed, '');
  assert.ok(reject.includes('.writeHead('), 'reject() sets the status');
  assert.ok(reject.includes('errorBody(') && unparsed.includes('errorBody('), 'both write the one JSON-RPC error body');
  assert.match(
    mcp,
    /function errorBody\([^)]*\): string \{\s*return JSON\.stringify\(\{ jsonrpc: '2\.0', error: \{ code, message \}, id: null \}\);/,
  );
  assert.match(mcp, /\.on\('clientError', rejectUnparsed\)/, "Node's parser refusals go through rejectUnparsed()");
  assert.match(mcp, /createServer\(\{ requireHostHeader: false \}/, 'a request without Host reaches the Host check');
  assert.deepEqual(
    [...outside.matchAll(/\.writeHead\s*\(|\.statusCode\s*=(?!=)|\.(?:end|write)\s*\(\s*[^)\s]/g)].map(
      (match) => match[0],
    ),
    [],
    'cli/mcp/http.ts sets a status or writes a body only in reject() and rejectUnparsed()',
  );
  const guard = sources.get('pipeline/site/restricted-guard.ts') ?? '';
  assert.match(
    guard,
    /return \(\) => \{\s*server\.middlewares\.stack\.unshift\(\{ route: '', handle: restrictedGuard \}\);/,
  );
  assert.match(sources.get('pipeline/site/integration.ts') ?? '', /plugins: \[[^\]]*\brestrictedGuardPlugin\(\)/);
  const installers = [...sources]
    .filter(([, code]) => /\.middlewares\.(?:use\s*\(|stack\b)/.test(code))
    .map(([file]) => file);
  assert.deepEqual(
    installers.sort(),
    ['pipeline/site/integration.ts', 'pipeline/site/restricted-guard.ts'],
    'only the integration and the guard install middlewares',
  );
});

test('the scan sees servers, statuses, response writes and endpoints, and not requests or MCP servers', () => {
  assert.deepEqual(answerSites('res.statusCode = 500; res.end(text);'), ['.statusCode=', 'res.end(']);
  assert.deepEqual(answerSites('response.writeHead(404).end();'), ['.writeHead(']);
  assert.deepEqual(answerSites('createReadStream(file).pipe(res);'), ['.pipe(res']);
  assert.deepEqual(answerSites('return new Response(body, { status: 500 });'), ['newResponse(']);
  assert.deepEqual(answerSites('return Response.json(body);'), ['Response.json(']);
  assert.deepEqual(answerSites('Astro.response.status = 404;'), ['Astro.response.status']);
  assert.deepEqual(answerSites('server.middlewares.use(handler);'), ['.middlewares.use(']);
  assert.deepEqual(answerSites('server.middlewares.stack.unshift(layer);'), ['.middlewares.stack']);
  assert.deepEqual(answerSites('function handle(req: IncomingMessage, res: ServerResponse) {}'), ['ServerResponse']);
  assert.deepEqual(answerSites("import http from 'node:http'; http.createServer(h);"), ['http.createServer']);
  assert.deepEqual(answerSites("import { createServer } from 'node:net';"), ['net.createServer']);
  assert.deepEqual(answerSites("import { createServer } from '../mcp/server.ts'; createServer({});"), []);
  assert.deepEqual(answerSites('if (res.statusCode === 403) return; child.stdin.end(x);'), []);
});
