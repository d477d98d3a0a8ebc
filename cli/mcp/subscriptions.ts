// Resource subscriptions: while a client is subscribed to anything, one tail of the course's
// events.jsonl (cli/mcp/live.ts) sends resources/updated for what changed, list_changed on a register.
// A URI no resource or template serves is refused as a read of it is: -32002 with the URI (resource-errors.ts).
import { SubscribeRequestSchema, UnsubscribeRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { changedResources, tailEvents, type LogTail } from './live.ts';
import { unknownResource } from './resource-errors.ts';
import type { ResourceIndex } from './resources.ts';
import type { ServerContext } from './server-context.ts';

/** Serves resources/subscribe and resources/unsubscribe on `ctx.server`, for the resources of `resources`. */
export function registerSubscriptions(ctx: ServerContext, resources: ResourceIndex): void {
  const { server } = ctx;
  // Subscriptions: one tail of the course's events.jsonl while a client is subscribed to anything.
  const subscribed = new Set<string>();
  let tail: LogTail | null = null;
  const follow = async () => {
    if (tail !== null) return;
    let root: string;
    try {
      root = await ctx.courseRoot();
    } catch {
      return; // no course yet (before init): nothing to follow
    }
    tail = tailEvents(root, (events) => {
      for (const uri of changedResources(events))
        if (subscribed.has(uri)) void server.server.sendResourceUpdated({ uri }).catch(() => {});
      if (events.some((event) => event.kind === 'lessons.register')) server.sendResourceListChanged();
    });
  };
  server.server.registerCapabilities({ resources: { subscribe: true, listChanged: true } });
  server.server.setRequestHandler(SubscribeRequestSchema, async (request) => {
    if (!resources.serves(request.params.uri)) throw unknownResource(request.params.uri);
    subscribed.add(request.params.uri);
    await follow();
    return {};
  });
  server.server.setRequestHandler(UnsubscribeRequestSchema, (request) => {
    subscribed.delete(request.params.uri);
    if (subscribed.size === 0) {
      tail?.stop();
      tail = null;
    }
    return {};
  });
  server.server.onclose = () => tail?.stop();
}
