// The script every page loads (site/client/page.js), served as one file so browsers cache it.
import script from '../client/page.js?raw';

export function GET(): Response {
  return new Response(script, { headers: { 'content-type': 'text/javascript; charset=utf-8' } });
}
