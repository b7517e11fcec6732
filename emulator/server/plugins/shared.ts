/**
 * Marks a plugin as shared with its parent (what the fastify-plugin package does): its hooks,
 * decorators, parsers and handlers apply to the whole application, not only inside the plugin.
 */
import type { FastifyPluginAsync, FastifyPluginOptions } from "fastify";

export function shared<Options extends FastifyPluginOptions>(name: string, plugin: FastifyPluginAsync<Options>): FastifyPluginAsync<Options> {
  const marked = plugin as FastifyPluginAsync<Options> & Record<symbol, unknown>;
  marked[Symbol.for("skip-override")] = true;
  marked[Symbol.for("fastify.display-name")] = name;
  return marked;
}
