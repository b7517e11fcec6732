// The plugin answers every property its resource declares secret (a secret input echoed, a secret output)
// wrapped as a secret, so the engine records it encrypted and masks it; the rest stays plain.
import { z } from "zod";
import { specialSecretSig, specialSigKey } from "@pulumi/pulumi/runtime/rpc";
import { noChange } from "../plan/diff";
import type { PlatformApi, Row } from "../reconcile/platform";
import { defineResource } from "../resources/framework/defineResource";
import { apiField } from "../schemas/common";
import { annotateSecrets, withoutSecrets } from "./secretValues";
import { VplatformProvider } from "./vplatformProvider";

const sealed = (value: unknown) => ({ [specialSigKey]: specialSecretSig, value });

const locker = defineResource<Row, Row>({
  token: "Locker",
  table: "lockers",
  description: "A locker of the test.",
  schema: z.object({
    name: z.string(),
    code: apiField(z.string().optional(), "code", "string", "Its code", { secret: true, writeOnly: true }),
  }),
  outputs: { key: { type: "string", description: "Its key", secret: true }, size: { type: "integer", description: "Its size" } },
  diff: () => noChange(),
  create: async (_s, inputs) => ({ id: "1", outs: { ...inputs, key: "k-123", size: 3 } }),
  read: async (_s, _id, olds) => ({ outs: olds, inputs: { name: olds.name, code: olds.code } }),
  update: async (_s, _id, olds, news) => ({ ...news, key: olds.key, size: olds.size }),
  delete: async () => undefined,
});

function plugin() {
  const schema = { name: "vplatform", version: "1.2.3", resources: {} };
  const p = new VplatformProvider(
    () => 0,
    { text: JSON.stringify(schema), schema },
    () => ({}) as PlatformApi,
    [locker],
  );
  p.configure({ endpoint: "https://a.example", apiKey: "k" });
  return p;
}
const urn = "urn:pulumi:dev::lab::vplatform:index:Locker::l";

describe("the plugin answers the declared secrets wrapped, and nothing else", () => {
  test("check wraps the secret input", async () => {
    expect((await plugin().check(urn, {}, { name: "a", code: "1234" })).inputs).toEqual({ name: "a", code: sealed("1234") });
  });

  test("create, read and update wrap the secret input's echo and the secret output", async () => {
    const p = plugin();
    const created = await p.create(urn, { name: "a", code: "1234" });
    expect(created.outs).toEqual({ name: "a", code: sealed("1234"), key: sealed("k-123"), size: 3 });
    const read = await p.read("1", urn, { name: "a", code: "1234", key: "k-123", size: 3 });
    expect(read.props).toEqual({ name: "a", code: sealed("1234"), key: sealed("k-123"), size: 3 });
    expect(read.inputs).toEqual({ name: "a", code: sealed("1234") });
    const updated = await p.update("1", urn, { name: "a", key: "k-123", size: 3 }, { name: "b" });
    expect(updated.outs).toEqual({ name: "b", key: sealed("k-123"), size: 3 });
  });

  test("an import's read warns once per field the platform never answers", async () => {
    const lines: string[] = [];
    const spy = jest.spyOn(console, "log").mockImplementation((line: string) => void lines.push(line));
    try {
      await plugin().read("1", urn, {});
    } finally {
      spy.mockRestore();
    }
    expect(lines).toEqual([expect.stringMatching(/^vplatform: Locker 1: code is write-only: .*declare it/)]);
  });
});

describe("secrets as the engine would keep them for a plugin that accepts none (the plugin accepts them, to construct components)", () => {
  test("the resources are handed plain values, however deep the secret", () => {
    expect(withoutSecrets({ name: "n", code: sealed("c"), list: [sealed(1), { deep: sealed(true) }] })).toEqual({
      name: "n",
      code: "c",
      list: [1, { deep: true }],
    });
  });

  test("an answer is secret where the input of its name held a secret, objects property by property", () => {
    const ins = { code: sealed("c"), name: "n", nested: { a: sealed("x"), b: "y" }, list: [sealed(1)] };
    const outs = { code: "c", name: "n", nested: { a: "x", b: "y" }, list: [1], extra: "e" };
    expect(annotateSecrets(outs, ins)).toEqual({
      code: sealed("c"),
      name: "n",
      nested: { a: sealed("x"), b: "y" },
      list: sealed([1]),
      extra: "e",
    });
  });

  test("an answer already secret stays as it is, and nothing is added that the answer does not have", () => {
    expect(annotateSecrets({ key: sealed("k") }, { key: sealed("k"), gone: sealed(1) })).toEqual({ key: sealed("k") });
  });
});
