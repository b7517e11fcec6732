// The stacks of the tests, of the bench and of `vplatform env` take an operation's summary, and an up's outputs when
// none is secret, from the engine's events instead of three more runs of the CLI (env/summary-from-events.ts). Here
// each is compared with what Automation reads back from the CLI (the history and `pulumi stack output`) for the same
// operation: a create, an up with nothing to do, a refresh and a destroy, with outputs plain, nested and secret.
import * as pulumi from "@pulumi/pulumi";
import type { Stack } from "@pulumi/pulumi/automation";
import * as vp from "../../sdk";
import { collect, startE2e, type E2eContext } from "./harness";

let withSecret = false;
let ctx: E2eContext;
beforeAll(async () => {
  ctx = await startE2e("summary-from-events", async () => {
    const net = new vp.Vnet("net", { name: "events-net", network: "10.80.0.0/24" });
    return {
      name: net.name,
      nested: { ram: 1024, tags: ["a", "b"], on: false },
      ...(withSecret ? { token: pulumi.secret("s3cret"), deep: { token: pulumi.secret("s3cret") } } : {}),
    };
  });
}, 120_000);
afterAll(async () => ctx?.dispose());

/** The Automation stack itself, whose `info()` and `outputs()` run the CLI. */
const readBack = (): Stack => Object.getPrototypeOf(ctx.stack);

describe("an operation's summary and outputs, from the engine's events, are what the CLI reads back", () => {
  test("a create, then an up with nothing to do: the same changes and outputs", async () => {
    const created = await ctx.stack.up(collect(ctx));
    expect(created.summary.resourceChanges).toEqual({ create: 2 });
    // Taken from the events: the history entry's own number is not there.
    expect(created.summary).not.toHaveProperty("version");
    expect(await readBack().info()).toHaveProperty("version");
    expect(created.summary.resourceChanges).toEqual((await readBack().info())?.resourceChanges);
    expect(created.outputs).toEqual(await readBack().outputs());
    const again = await ctx.stack.up(collect(ctx));
    expect(again.summary.resourceChanges).toEqual({ same: 2 });
    expect(again.summary.resourceChanges).toEqual((await readBack().info())?.resourceChanges);
    expect(again.outputs).toEqual(await readBack().outputs());
  }, 180_000);

  test("secret outputs, which the events mask, are read from the CLI, shown and marked secret", async () => {
    withSecret = true;
    const up = await ctx.stack.up(collect(ctx));
    expect(up.outputs.token).toEqual({ value: "s3cret", secret: true });
    // Automation marks only a secret at the top; a nested one is shown all the same.
    expect(up.outputs.deep.value).toEqual({ token: "s3cret" });
    expect(up.outputs).toEqual(await readBack().outputs());
  }, 180_000);

  test("a refresh and a destroy: the same changes as their history entries", async () => {
    const refresh = await ctx.stack.refresh(collect(ctx));
    expect(refresh.summary).toMatchObject({ kind: "refresh", result: "succeeded" });
    expect(refresh.summary.resourceChanges).toEqual((await readBack().info())?.resourceChanges);
    const destroy = await ctx.stack.destroy(collect(ctx));
    expect(destroy.summary.resourceChanges).toEqual({ delete: 2 });
    expect(destroy.summary.resourceChanges).toEqual((await readBack().info())?.resourceChanges);
  }, 180_000);
});
