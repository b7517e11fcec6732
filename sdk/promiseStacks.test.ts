import * as pulumi from "@pulumi/pulumi";
import { Vnet } from "./resources.generated";

/**
 * Error.stackTraceLimit while Pulumi registers a Vnet: a (legacy) transformation runs inside its constructor,
 * before anything is sent; it then stops the registration (nothing to serialize or send in a unit test).
 */
function limitDuringRegistration(): number {
  let seen = Number.NaN;
  const seeLimitAndStop: pulumi.ResourceTransformation = () => {
    seen = Error.stackTraceLimit;
    throw new Error("stop here");
  };
  expect(() => new Vnet("lab", { name: "lab", network: "10.20.0.0/24" }, { transformations: [seeLimitAndStop] })).toThrow("stop here");
  return seen;
}

describe("registering a resource captures no promise stacks unless PULUMI_DEBUG_PROMISE_LEAKS asks for them", () => {
  beforeAll(() => {
    pulumi.runtime.setMocks({
      newResource: (args) => ({ id: `${args.name}-id`, state: args.inputs }),
      call: () => ({}),
    });
    // The dynamic provider's closure is serialized with V8 inspector hooks that Jest's VM does not offer.
    const closures = require("@pulumi/pulumi/runtime/closure/serializeClosure");
    jest.spyOn(closures, "serializeFunction").mockResolvedValue({ text: "", exportName: "handler", containsSecrets: false });
  });
  afterEach(() => delete process.env.PULUMI_DEBUG_PROMISE_LEAKS);

  test("by default the registration runs with no stack frames captured, and the limit is restored even when it throws", () => {
    const before = Error.stackTraceLimit;
    expect(limitDuringRegistration()).toBe(0);
    expect(Error.stackTraceLimit).toBe(before);
  });

  test("with PULUMI_DEBUG_PROMISE_LEAKS set, Pulumi's leak report keeps its stacks", () => {
    process.env.PULUMI_DEBUG_PROMISE_LEAKS = "true";
    expect(Error.stackTraceLimit).toBeGreaterThan(0);
    expect(limitDuringRegistration()).toBe(Error.stackTraceLimit);
  });
});
