// The script every page loads (site/client/page.js), served as one file so browsers cache it,
// without its comment lines and indentation (site/lib/script.ts).
import script from '../client/page.js?raw';
import { compactScript } from '../lib/script.ts';

export function GET(): Response {
  return new Response(compactScript(script), { headers: { 'content-type': 'text/javascript; charset=utf-8' } });
}
