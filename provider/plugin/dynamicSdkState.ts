/**
 * What a row imported through the plugin carries for the SDK's dynamic resources. Pulumi's dynamic-resource
 * host finds a resource's code in the resource's state (`__provider`: a module whose `handler()` returns the
 * provider), and an imported row's state is what the plugin's Read answers. With it, the SDK's class, which
 * aliases the plugin's type, takes the imported resource over: the next preview shows no change, and refresh
 * and destroy load the code from the installed package (`vplatform/provider/<file>`, an entry of its exports).
 */
export const DYNAMIC_PROVIDER_KEY = "__provider";

export const dynamicProviderSource = (dynamicFile: string): string =>
  `exports.handler = function () { return require("vplatform/provider/${dynamicFile}"); };\n`;
