import type * as provider from "@pulumi/pulumi/provider";
import { unwrapRpcSecret } from "@pulumi/pulumi/runtime/rpc";
import { ConfigError, resolveProviderConfig } from "../config/provider-config";
import { type OperationDeadline, engineDeadline, withDeadline } from "../client/operationDeadline";
import type { PlatformApi } from "../reconcile/platform";
import { Session } from "../reconcile/session";
import { platformApiFromConfig } from "../reconcile/platformClient";
import type { CheckFailure } from "../resources/framework/checkInputs";
import { stableMarker } from "../reconcile/createMarker";
import { PartialCreateError, type ResourceOperations } from "../resources/framework/defineProvider";
import { LOOKUP_FUNCTIONS, type LookupFunction, checkLookupArgs, runLookup } from "../resources/lookupFunctions";
import { runForResource } from "../client/engineLog";
import { annotateSecrets, asSecrets, withoutSecrets } from "./secretValues";
import { RESOURCE_LIST, type Resource } from "../resources";
import { resourceName, typeOfUrn } from "./resources";
import { type PackageSchema, loadSchema } from "./schema";
import { DYNAMIC_PROVIDER_KEY, dynamicProviderSource } from "./dynamicSdkState";
import { withSdkSpellings } from "./sdkSpellings";
import { MARKER_INPUT } from "../schemas/hiddenInputs";

type Settings = Record<string, unknown>;
type ComponentOptions = Parameters<NonNullable<provider.Provider["construct"]>>[3];

/** A component's Construct: its children registered with the engine, its URN and outputs answered. */
export type ComponentConstruct = (name: string, inputs: Settings, options: ComponentOptions) => Promise<provider.ConstructResult>;

const withoutMarker = ({ [MARKER_INPUT]: _marker, ...outs }: Settings): Settings => outs;

/** The engine's time limit (seconds, 0 = none) of the create/update/delete being served. */
export type RequestTimeout = () => number;

/**
 * One provider instance (the default provider or an explicit `vplatform.Provider`):
 * its own settings and platform client, and every resource of schema.json served
 * by the same operations as the dynamic resources.
 */
export class VplatformProvider implements provider.Provider {
  readonly version: string;
  readonly schema: string;
  private readonly pkg: string;
  private readonly resources: Map<string, Resource>;
  private readonly functions: Map<string, LookupFunction>;
  /** This instance's session: its resources never share locks, caches or budget with another instance's. */
  private session?: Session;

  constructor(
    private readonly requestTimeout: RequestTimeout = () => 0,
    loaded: { text: string; schema: PackageSchema } = loadSchema(),
    private readonly apiFromSettings: (get: (key: string) => string | undefined) => PlatformApi = platformApiFromConfig,
    /** The resources served: the declared ones (the dynamic resources' operations, through a second door). */
    served: readonly Resource[] = RESOURCE_LIST,
    /** The components it constructs, by type (the SDK's vp.Lab: plugin/main.ts). */
    private readonly components: Readonly<Record<string, ComponentConstruct>> = {},
  ) {
    this.schema = loaded.text;
    this.version = loaded.schema.version;
    this.pkg = loaded.schema.name;
    this.resources = new Map(served.map((r) => [r.token, r]));
    this.functions = new Map(LOOKUP_FUNCTIONS.map((fn) => [fn.name, fn]));
  }

  /** Resource names served (`VirtualMachine`, ...). */
  get resourceNames(): string[] {
    return [...this.resources.keys()];
  }

  /** Function (look-up) names served. */
  get functionNames(): string[] {
    return [...this.functions.keys()];
  }

  /** The provider's inputs (schema.json's config keys; secrets arrive wrapped): a client for this instance only. */
  configure(settings: Settings): void {
    this.session?.close();
    this.session = new Session(this.apiFromSettings(this.getter(settings)));
  }

  /** Bad settings refused at preview, each naming its key. */
  checkConfig(news: Settings): CheckFailure[] {
    try {
      resolveProviderConfig(this.getter(news), process.env);
      return [];
    } catch (err) {
      if (!(err instanceof ConfigError)) throw err;
      const key = new RegExp(`^${this.pkg}:(\\w+)`).exec(err.message)?.[1] ?? "";
      return [{ property: key, reason: err.message }];
    }
  }

  /**
   * `olds`: the last run's inputs, so an unchanged machine key is not verified again. Every operation takes plain
   * values and answers with the secrets the engine would keep for a plugin that accepts none (secretValues.ts).
   */
  check(urn: string, olds: Settings | undefined, news: Settings): Promise<provider.CheckResult> {
    return this.run(urn, undefined, async (ops, session, resource) => {
      const checked = await ops.check(session, withoutSecrets(news), withoutSecrets(olds ?? {}));
      const inputs = Object.keys(resource.inputs.shape);
      return {
        ...checked,
        inputs: annotateSecrets(asSecrets(checked.inputs, ops.secretProperties), news),
        ...(checked.failures && { failures: checked.failures.map((f) => withSdkSpellings(f, inputs)) }),
      };
    });
  }

  diff(id: string, urn: string, olds: Settings, news: Settings): Promise<provider.DiffResult> {
    return this.run(urn, undefined, (ops) => ops.diff(id, withoutSecrets(olds), withoutSecrets(news)));
  }

  /**
   * A program that passes no `__marker` (Pulumi YAML, the generated SDK) gets one derived from the URN:
   * the same in every run, so a later `up` finds the row of a create whose answer was lost. It is not
   * recorded: schema.json declares no such property.
   */
  async create(urn: string, secretInputs: Settings): Promise<provider.CreateResult> {
    const inputs = withoutSecrets(secretInputs);
    const given = inputs[MARKER_INPUT] !== undefined;
    const secrets = (ops: ResourceOperations, outs: Settings) => annotateSecrets(asSecrets(outs, ops.secretProperties), secretInputs);
    return this.run(urn, this.deadline("create"), async (ops, session) => {
      try {
        const created = await ops.create(session, given ? inputs : { ...inputs, [MARKER_INPUT]: stableMarker(urn) });
        return { ...created, outs: secrets(ops, given ? created.outs : withoutMarker(created.outs)) };
      } catch (err) {
        if (err instanceof PartialCreateError) {
          if (!given) delete err.properties[MARKER_INPUT];
          Object.assign(err.properties, secrets(ops, err.properties));
        }
        throw err;
      }
    });
  }

  /**
   * A refresh, or an import (no state yet): an imported row's outputs also carry the SDK's dynamic provider, so
   * the code `pulumi import` prints, on `vplatform`, takes the row over (provider/plugin/dynamicSdkState.ts).
   */
  read(id: string, urn: string, props?: Settings): Promise<provider.ReadResult> {
    const imported = props === undefined || Object.keys(props).length === 0;
    return this.run(urn, undefined, async (ops, session, { dynamicFile }) => {
      const live = await ops.read(session, id, withoutSecrets(props ?? {}));
      // A refresh of a row gone answers no id (the engine drops it); an import of one says why, not the engine's
      // "provider does not support importing resources".
      if (imported && !live.id) throw new Error(noRowToImport(ops.token, id));
      const outs = annotateSecrets(asSecrets(live.props, ops.secretProperties), props);
      return {
        ...live,
        props: imported && live.props ? { ...outs, [DYNAMIC_PROVIDER_KEY]: dynamicProviderSource(dynamicFile) } : outs,
        inputs: annotateSecrets(asSecrets(live.inputs, ops.secretProperties), props),
      };
    });
  }

  async update(id: string, urn: string, olds: Settings, news: Settings): Promise<provider.UpdateResult> {
    return this.run(urn, this.deadline("update"), async (ops, session) => ({
      outs: annotateSecrets(
        asSecrets(await ops.update(session, id, withoutSecrets(olds), withoutSecrets(news)), ops.secretProperties),
        news,
      ),
    }));
  }

  delete(id: string, urn: string, props: Settings): Promise<void> {
    return this.run(urn, this.deadline("delete"), (ops, session) => ops.delete(session, id, withoutSecrets(props)));
  }

  /** A component (vplatform:index:Lab): declared by the SDK, whose construct the plugin's entry point hands in. */
  construct(name: string, type: string, inputs: Settings, options: ComponentOptions): Promise<provider.ConstructResult> {
    const component = this.components[type];
    if (!component)
      return Promise.reject(
        new Error(
          `vplatform: unknown component type '${type}' (this provider constructs ${Object.keys(this.components).join(", ") || "none"})`,
        ),
      );
    return component(name, inputs, options);
  }

  /** The look-ups (`vplatform:index:getVnet`, ...): the SDK's functions, run by this instance's session. */
  async invoke(token: string, inputs: Settings): Promise<provider.InvokeResult> {
    const fn = this.functions.get(resourceName(this.pkg, token) ?? "");
    if (!fn) throw new Error(`vplatform: unknown function '${token}' (this provider serves ${this.functionNames.join(", ")})`);
    const checked = checkLookupArgs(fn, withoutSecrets(inputs));
    if (checked.failures) return { failures: checked.failures.map((f) => withSdkSpellings(f, Object.keys(fn.args.shape))) };
    if (!this.session) throw new Error(`vplatform: ${fn.name}: the provider was not configured`);
    return { outputs: await runLookup(fn, this.session, checked.args) };
  }

  private deadline(operation: "create" | "update" | "delete"): OperationDeadline | undefined {
    return engineDeadline(operation, this.requestTimeout());
  }

  private run<T>(
    urn: string,
    deadline: OperationDeadline | undefined,
    /** `resource`: the declaration served, for what its operations do not say (its module of the dynamic SDK). */
    work: (ops: ResourceOperations, session: Session, resource: Resource) => Promise<T>,
  ): Promise<T> {
    const type = typeOfUrn(urn);
    const resource = this.resources.get(resourceName(this.pkg, type) ?? "");
    if (!resource)
      return Promise.reject(
        new Error(`vplatform: unknown resource type '${type}' (this provider serves ${this.resourceNames.join(", ")})`),
      );
    const session = this.session;
    if (!session) return Promise.reject(new Error(`vplatform: the provider of ${urn} was not configured`));
    return runForResource(urn, () => withDeadline(deadline, () => work(resource.operations, session, resource)));
  }

  /** `vplatform:endpoint` → the `endpoint` setting, as text (the config resolver parses it). */
  private getter(settings: Settings): (key: string) => string | undefined {
    return (key) => {
      if (!key.startsWith(`${this.pkg}:`)) return undefined;
      const value = unwrapRpcSecret(settings[key.slice(this.pkg.length + 1)]);
      return value === undefined || value === null ? undefined : typeof value === "string" ? value : JSON.stringify(value);
    };
  }
}

/** Why an import found nothing: the key is a row's `$key`, on the platform this provider's settings reach. */
export const noRowToImport = (token: string, id: string): string =>
  `vplatform: import of ${token.split(":").pop()} '${id}': the platform has no such row. The import takes the row's key ` +
  "(its $key in the platform's API) on the platform this provider's settings reach (vplatform:endpoint, or the provider " +
  "given with --provider)";
