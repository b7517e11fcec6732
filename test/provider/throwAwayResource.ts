// The doors serving a throw-away resource beside the registry's (provider/resources/declaredOnce.test.ts and
// declaredRow.test.ts): a plugin instance and a dynamic door, each on the platform the test gives.
import { VplatformProvider } from "../../provider/plugin/vplatformProvider";
import type { PlatformApi } from "../../provider/reconcile/platform";
import { type DynamicDoor, dynamicDoor } from "../../provider/resources/framework/defineProvider";
import type { Resource } from "../../provider/resources/framework/defineResource";
import { SessionRegistry } from "../../provider/resources/framework/sessionRegistry";

/** The plugin serving `served` on `api`, configured for a site whose settings do not matter. */
export function pluginServing(served: readonly Resource[], api: PlatformApi): VplatformProvider {
  const schema = { name: "vplatform", version: "1.2.3", resources: {} };
  const plugin = new VplatformProvider(
    () => 0,
    { text: JSON.stringify(schema), schema },
    () => api,
    served,
  );
  plugin.configure({ endpoint: "https://a.example", apiKey: "k" });
  return plugin;
}

/** The dynamic door of `resource` on `api`, configured as the engine does first. */
export async function dynamicDoorOn(resource: Resource, api: PlatformApi): Promise<DynamicDoor> {
  const door = dynamicDoor(resource.operations, new SessionRegistry(() => api));
  await door.configure({ config: { get: () => undefined } } as never);
  return door;
}
