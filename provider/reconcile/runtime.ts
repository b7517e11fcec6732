import { SETTING_NAMES, settingKey } from "../config/provider-config";
import { KeyedMutex } from "./keyedMutex";
import { currentOperation } from "./operationContext";
import { PlatformApi } from "./platform";

/**
 * Process-wide state of the provider. All dynamic resources of a deployment
 * share one provider process and load this module from node_modules, so the
 * client (with its rate limit and request budget) and the per-machine locks
 * live here exactly once. Nothing one resource decides is kept here for
 * another to read: a drive learns its VM's power policy from its own inputs.
 */
type ConfigGetter = (key: string) => string | undefined;

let configGetter: ConfigGetter = () => undefined;
/** The provider settings the current client was built from. */
let configuredWith: string | undefined;
let api: PlatformApi | undefined;
let apiFactory: ((get: ConfigGetter) => PlatformApi) | undefined;

export const machineLocks = new KeyedMutex();

/**
 * From the dynamic provider's configure(req): the whole namespaced stack config.
 * The engine configures once per resource type, with the same settings: the
 * client (its connections, its request count) is kept then; a client built
 * from other settings is closed.
 */
export function configureRuntime(get: ConfigGetter): void {
  const settings = JSON.stringify(SETTING_NAMES.map((s) => get(settingKey(s)) ?? null));
  if (settings === configuredWith) return;
  configuredWith = settings;
  configGetter = get;
  dropClient();
}

function dropClient(): void {
  api?.close?.();
  api = undefined;
}

/** Installed once by the module that knows how to build the real client (and by tests). */
export function setPlatformApiFactory(factory: (get: ConfigGetter) => PlatformApi): void {
  apiFactory = factory;
  configuredWith = undefined;
  dropClient();
}

/** The client of the provider instance running this operation (plugin), else the process's configured one (dynamic). */
export function platformApi(): PlatformApi {
  const scoped = currentOperation()?.api;
  if (scoped) return scoped;
  if (!api) {
    if (!apiFactory) throw new Error("vplatform: internal error: no API client factory installed");
    api = apiFactory(configGetter);
  }
  return api;
}

/**
 * Machines stopped for a hardware change that they could not take running,
 * with the start that is still owed: several changes queued on one machine
 * share one restart, which the last of them runs.
 */
const owedStarts = new Map<string, () => Promise<void>>();

export function oweStart(machineKey: string, start: () => Promise<void>): void {
  owedStarts.set(machineKey, start);
}

/** The machine's power is decided otherwise now (a declared power state, a deletion). */
export function forgetOwedStart(machineKey: string): void {
  owedStarts.delete(machineKey);
}

/** For the holder of the machine's lock: runs the owed start unless more changes wait to run on the stopped machine. */
export async function settleOwedStart(machineKey: string): Promise<void> {
  const start = owedStarts.get(machineKey);
  if (!start || machineLocks.queuedBehind(machineKey)) return;
  owedStarts.delete(machineKey);
  await start();
}

/** Runs a change to one machine after every earlier change to it finished; the last one pays a start owed to it. */
export function withMachineLock<T>(machineKey: string, work: () => Promise<T>): Promise<T> {
  return machineLocks.run(machineKey, async () => {
    let result: T;
    try {
      result = await work();
    } catch (err) {
      await settleOwedStart(machineKey).catch((startErr) => console.log(`vplatform: starting machine ${machineKey} again failed too: ${String(startErr)}`));
      throw err;
    }
    await settleOwedStart(machineKey);
    return result;
  });
}
