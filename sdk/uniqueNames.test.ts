import { claimName } from "./uniqueNames";

describe("names the platform keeps unique are claimed once per scope", () => {
  test("a second drive of one name on the same VM is refused, naming both resources and the field", () => {
    const vm = {};
    claimName(vm, "Drive", "os", "web-os", "on the same VM");
    expect(() => claimName(vm, "Drive", "os", "web-os-2", "on the same VM")).toThrow(
      "vplatform: Drive 'web-os-2': name: 'os' is already the name of Drive 'web-os' on the same VM; names must be unique there — rename one of them",
    );
  });

  test("the same name is fine on another VM, for another kind, and unnamed or not yet known", () => {
    const [a, b] = [{}, {}];
    claimName(a, "Nic", "eth0", "a-eth0", "on the same VM");
    expect(() => claimName(b, "Nic", "eth0", "b-eth0", "on the same VM")).not.toThrow();
    expect(() => claimName(a, "Drive", "eth0", "a-disk", "on the same VM")).not.toThrow();
    expect(() => claimName(a, "Nic", undefined, "a-nic2", "on the same VM")).not.toThrow();
    expect(() => claimName(a, "Nic", { apply: () => "eth0" }, "a-nic3", "on the same VM")).not.toThrow();
    expect(() => claimName(undefined, "Nic", "eth0", "loose", "on the same VM")).not.toThrow();
  });
});
