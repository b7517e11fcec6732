// The code `pulumi import` prints is on `vplatform` and writes enum-typed inputs as Pulumi's generator names
// them (`vplatform.VirtualMachineOsFamily.Linux`): the SDK exports each enum of the plugin's generated SDK,
// with the same members and values.
import * as sdk from ".";
import * as pluginEnums from "../plugin-sdk/types/enums";

describe("the SDK exports every enum the generated code names", () => {
  test.each(Object.entries(pluginEnums))("%s", (name, members) => {
    expect((sdk as Record<string, unknown>)[name]).toEqual(members);
  });
});
