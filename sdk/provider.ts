import * as pulumi from "@pulumi/pulumi";
import { SETTINGS, SETTING_NAMES, settingKey } from "../provider/config/provider-config";
import type { ProviderSettings } from "./schemaTypes.generated";

/** The settings of one site, as the stack config takes them (`vplatform:<setting>`), each optional; outputs welcome. */
export type ProviderArgs = { [S in keyof ProviderSettings]?: pulumi.Input<NonNullable<ProviderSettings[S]>> };

/** A site's settings as the provider reads them: `vplatform:<setting>` → its text. */
export type SiteSettings = Record<string, string>;

/**
 * A site: the platform (endpoint and credentials) the resources given `{ provider }` are made on, and the
 * look-ups given it read. Without one, resources and look-ups use the stack config (`vplatform:*`).
 *
 * The provider of the SDK's resources is Pulumi's Node.js dynamic-resource provider: an explicit instance of
 * it, configured with this site's settings, runs in a process of its own with a session of its own (its own
 * client, request budget and machine locks). So no plugin, no `plugins:` entry and no second SDK is needed,
 * and the settings may be outputs of the same program (the secret of an API key made in it). Secret settings
 * (the API key, password and session token) are Pulumi secrets in state; refresh and destroy use the settings
 * recorded with the provider.
 */
export class Provider extends pulumi.ProviderResource {
  /** The settings as given, for the look-ups run in the program with `{ provider }`. */
  readonly settings: pulumi.Output<SiteSettings>;

  constructor(name: string, args: ProviderArgs, opts?: pulumi.ResourceOptions) {
    const settings = siteSettings(args);
    super("pulumi-nodejs", name, settings, opts);
    this.settings = pulumi.output(settings) as pulumi.Output<SiteSettings>;
  }
}

/** The provider's inputs: each given setting under its config key, as text; the secret ones as secrets. */
function siteSettings(args: ProviderArgs): Record<string, pulumi.Input<string>> {
  const given = SETTING_NAMES.filter((s) => args[s] !== undefined);
  return Object.fromEntries(
    given.map((s) => {
      const text = pulumi.output(args[s] as pulumi.Input<string | number | boolean>).apply((v) => String(v));
      return [settingKey(s), "secret" in SETTINGS[s] && SETTINGS[s].secret ? pulumi.secret(text) : text];
    }),
  );
}
