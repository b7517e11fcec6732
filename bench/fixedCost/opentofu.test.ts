import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import got from "got";
import { startLabEmulator } from "../lab";
import { missingBinaries, OPENTOFU_PARALLELISM, openTofuBinaries, openTofuNote, openTofuSide } from "./opentofu";
import { TOFU_LAB_DEVIATIONS, TOFU_LAB_PREFIX, tofuCliConfig, tofuLabConfig, VERGEIO_PROVIDER_SOURCE } from "./opentofuConfig";

/** The blocks of main.tf by `kind "name"`, each with its attributes (`key = value`, one a line). */
function blocks(config: string): Map<string, Record<string, string>> {
  const found = new Map<string, Record<string, string>>();
  for (const m of config.matchAll(/^(resource|provider) ("[^"]+"(?: "[^"]+")?) \{\n([\s\S]*?)^\}/gm)) {
    const attributes = Object.fromEntries(
      [...m[3].matchAll(/^\s+(\w+)\s+=\s+(.+?)(?:\s+#.*)?$/gm)].map((a) => [a[1], a[2]] as [string, string]),
    );
    found.set(`${m[1]} ${m[2].replaceAll('"', "")}`, attributes);
  }
  return found;
}

describe("the lab's Terraform configuration has readmeLab's shape at N VMs", () => {
  const config = tofuLabConfig({ vms: 7, dataGiB: 5 });
  const lab = blocks(config);

  test("one network, and per VM a VM, an os drive, a data drive and a NIC, each counted N times", () => {
    expect([...lab.keys()]).toEqual([
      "provider vergeio",
      "resource vergeio_network net",
      "resource vergeio_vm vm",
      "resource vergeio_drive os",
      "resource vergeio_drive data",
      "resource vergeio_nic eth0",
    ]);
    expect(lab.get("resource vergeio_network net")?.count).toBeUndefined();
    for (const key of ["resource vergeio_vm vm", "resource vergeio_drive os", "resource vergeio_drive data", "resource vergeio_nic eth0"])
      expect(lab.get(key)?.count).toBe("7");
  });

  test("VMs of 1 core and 512 MiB; drives of 1 GiB and the data size on tier 3; the NIC on the lab's network", () => {
    expect(lab.get("resource vergeio_vm vm")).toMatchObject({ cpu_cores: "1", ram: "512" });
    expect(lab.get("resource vergeio_drive os")).toMatchObject({ disksize: "1", media: '"disk"', preferred_tier: '"3"' });
    expect(lab.get("resource vergeio_drive data")).toMatchObject({ disksize: "5", media: '"disk"', preferred_tier: '"3"' });
    expect(lab.get("resource vergeio_nic eth0")).toMatchObject({ vnet: "vergeio_network.net.id" });
    for (const key of ["resource vergeio_drive os", "resource vergeio_drive data", "resource vergeio_nic eth0"])
      expect(lab.get(key)?.machine).toBe("vergeio_vm.vm[count.index].machine");
  });

  test(`every name starts with ${TOFU_LAB_PREFIX}`, () => {
    const names = [...lab.values()].map((attributes) => attributes.name).filter((name) => name !== undefined);
    expect(names).toHaveLength(5);
    for (const name of names) expect(name.startsWith(`"${TOFU_LAB_PREFIX}`)).toBe(true);
  });

  test("the settings the maker's provider needs against the platform are there, each one a noted deviation", () => {
    expect(lab.get("resource vergeio_vm vm")?.machine_type).toBe('"q35"');
    expect(lab.get("resource vergeio_network net")?.on_power_loss).toBe('"last_state"');
    expect(TOFU_LAB_DEVIATIONS.join(" ")).toMatch(/machine_type.*on_power_loss/);
  });

  test("the emulator's URL and password come from variables, the password sensitive; the certificate check is off", () => {
    expect(lab.get("provider vergeio")).toMatchObject({
      host: "var.host",
      password: "var.password",
      username: '"admin"',
      insecure: "true",
    });
    expect(config).toMatch(/variable "password" \{\n\s+type\s+= string\n\s+sensitive = true\n\}/);
    expect(config).toContain(`source = "${VERGEIO_PROVIDER_SOURCE}"`);
  });
});

describe("the CLI configuration installs the provider from its local build only", () => {
  test("dev_overrides maps the provider's address to the directory, with no other installation method", () => {
    const rc = tofuCliConfig("/cache/terraform-provider-vergeio");
    expect(rc).toContain(`"${VERGEIO_PROVIDER_SOURCE}" = "/cache/terraform-provider-vergeio"`);
    expect(rc).toMatch(/^provider_installation \{\n {2}dev_overrides \{\n[^}]*\}\n\}\n$/);
  });
});

describe("the binaries are looked for where scripts/build-opentofu.sh puts them", () => {
  test("under VPLATFORM_CACHE when set, else XDG_CACHE_HOME/vplatform", () => {
    expect(openTofuBinaries({ VPLATFORM_CACHE: "/c" })).toEqual({
      tofu: "/c/opentofu/tofu",
      providerDir: "/c/terraform-provider-vergeio",
      provider: "/c/terraform-provider-vergeio/terraform-provider-vergeio",
    });
    expect(openTofuBinaries({ XDG_CACHE_HOME: "/x" }).tofu).toBe("/x/vplatform/opentofu/tofu");
  });

  test("a missing binary skips the side, naming it and the command that builds it", () => {
    const binaries = openTofuBinaries({ VPLATFORM_CACHE: "/c" });
    expect(missingBinaries(binaries, () => true)).toBeUndefined();
    const reason = missingBinaries(binaries, (file) => file === binaries.tofu);
    expect(reason).toContain(binaries.provider);
    expect(reason).not.toContain(binaries.tofu);
    expect(reason).toContain("scripts/build-opentofu.sh");
    expect(missingBinaries(binaries, () => false)).toContain(`${binaries.tofu} and ${binaries.provider}`);
  });
});

describe("the note says how the lab differs from readmeLab and which plans proposed changes", () => {
  test("the deviations always; a plan with changes only when there was one", () => {
    for (const deviation of TOFU_LAB_DEVIATIONS) expect(openTofuNote([])).toContain(deviation);
    expect(openTofuNote([])).not.toContain("proposed changes");
    expect(openTofuNote(["plan"])).toContain("plan proposed changes");
  });
});

const skipped = missingBinaries(openTofuBinaries());
(skipped ? describe.skip : describe)(`OpenTofu and the maker's provider against a real emulator${skipped ? ` (${skipped})` : ""}`, () => {
  test("at 2 VMs: apply sends requests, plan -refresh=false none, plan refreshes; the lab is removed afterwards", async () => {
    const emulator = await startLabEmulator(2, { port: 0, timeScale: 0.01, quiet: true, rateLimitPerHour: 1_000_000_000 });
    const workDir = fs.mkdtempSync(path.join(os.tmpdir(), "vplatform-tofu-"));
    try {
      const side = await openTofuSide({ emulator, vms: 2, workDir });
      if ("skipped" in side) throw new Error(side.skipped);
      expect(side).toMatchObject({ tofuVersion: "1.8.8", vms: 2, parallelism: OPENTOFU_PARALLELISM });
      expect(side.providerVersion).toMatch(/^v\d+\.\d+\.\d+$/);
      expect(side.note).not.toContain("proposed changes");
      // At least one create per resource: the network, and per VM the VM, two drives and a NIC.
      expect(side.apply.requests).toBeGreaterThanOrEqual(1 + 2 * 4);
      expect(side.planNoRefresh.requests).toBe(0);
      expect(side.plan.requests).toBeGreaterThanOrEqual(1 + 2 * 4);
      for (const step of [side.apply, side.planNoRefresh, side.plan]) expect(step.seconds).toBeGreaterThan(0);
      const left = await got(`${emulator.url}/api/v4/vms?filter=name%20bw%20'${TOFU_LAB_PREFIX}'&fields=$key`, {
        headers: { authorization: `Bearer ${emulator.apiKey}` },
        https: { certificateAuthority: emulator.caCert },
      }).json<unknown[]>();
      expect(left).toEqual([]);
    } finally {
      await emulator.close();
      fs.rmSync(workDir, { recursive: true, force: true });
    }
  }, 180_000);
});
