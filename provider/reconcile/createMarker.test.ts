import { z } from "zod";
import { apiField } from "../schemas/common";
import { stableMarker, withGenerationMarker } from "./createMarker";
import { MARKER_INPUT } from "../schemas/hiddenInputs";

const shape = {
  name: apiField(z.string(), "name", "string", "Name"),
  rotation: apiField(z.string().optional(), "rotation", "string", "Replaces when changed", { onChange: "replace" }),
  user: apiField(z.string().optional(), "user", "key", "Replaces when changed", { onChange: "replace" }),
};
const IDENTITY = stableMarker("urn:pulumi:dev::lab::vplatform:index:ApiKey::ci");
const marker = (inputs: Record<string, unknown>) => withGenerationMarker({ ...inputs, [MARKER_INPUT]: IDENTITY }, shape)[MARKER_INPUT];

describe("a create tags its row with the marker of its generation", () => {
  test("a replacement (a replacing input changed) gets a marker of its own: it never finds the row it replaces", () => {
    expect(marker({ name: "ci", rotation: "2" })).not.toBe(marker({ name: "ci", rotation: "1" }));
    expect(marker({ name: "ci", user: "7" })).not.toBe(marker({ name: "ci", user: "8" }));
  });

  test("the same declaration run again gets the same marker: an interrupted create still finds the row it made", () => {
    expect(marker({ name: "ci", rotation: "2", user: "7" })).toBe(marker({ user: "7", rotation: "2", name: "ci" }));
  });

  test("inputs that update in place do not change it", () => {
    expect(marker({ name: "ci", rotation: "1" })).toBe(marker({ name: "renamed", rotation: "1" }));
  });

  test("with no replacing input given, it is the resource's own marker (rows made before keep being found)", () => {
    expect(marker({ name: "ci" })).toBe(IDENTITY);
  });

  test("a create without a marker (a direct call) gets none", () => {
    const inputs = { name: "ci", rotation: "1" };
    expect(withGenerationMarker(inputs, shape)).toBe(inputs);
  });
});
