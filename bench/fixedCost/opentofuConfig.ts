// The OpenTofu side's files: the bench's lab (bench/readmeLab) written as a Terraform configuration for the maker's
// provider, and the CLI configuration that installs that provider from a local build (nothing is downloaded).

/** The registry address the configuration names the maker's provider by; dev_overrides maps it to the local build. */
export const VERGEIO_PROVIDER_SOURCE = "verge-io/vergeio";

/** Every name the lab gives starts with this, so its rows are told apart from another lab's on a shared emulator. */
export const TOFU_LAB_PREFIX = "tofu-";

export interface TofuLabShape {
  vms: number;
  /** Size of each VM's `data` drive, GiB (the readmeLab's bench:dataGiB). */
  dataGiB: number;
}

/**
 * Where the maker's provider (v1.4.0) cannot declare what readmeLab declares, or would fail or drift without a
 * setting the Pulumi lab leaves to the platform. The emulator answers as the spec says; the configuration bends.
 */
export const TOFU_LAB_DEVIATIONS = [
  "VMs stay powered off: the maker's provider has no power setting (readmeLab declares them running)",
  "machine_type = q35 on every VM: without it the provider sends machine_type '' and the platform refuses it (spec: pc, q35, pc-i440fx-*, pc-q35-*)",
  "on_power_loss = last_state on the network: the platform's default, which the provider otherwise reads back as a change on every plan",
];

/**
 * main.tf of the lab: one network and `vms` VMs of 1 core and 512 MiB, each with an `os` drive of 1 GiB, a `data`
 * drive and a NIC on the network, as bench/readmeLab declares them. The emulator's URL and admin password come in as
 * the variables `host` and `password` (TF_VAR_host, TF_VAR_password), so no secret is written to a file.
 */
export function tofuLabConfig(shape: TofuLabShape): string {
  const p = TOFU_LAB_PREFIX;
  const perVm = (kind: string, name: string, body: string[]) =>
    [
      `resource "${kind}" "${name}" {`,
      `  count   = ${shape.vms}`,
      `  machine = vergeio_vm.vm[count.index].machine`,
      `  name    = "${p}\${count.index}-${name}"`,
      ...body.map((line) => `  ${line}`),
      "}",
    ].join("\n");
  const drive = (name: string, gib: number) =>
    perVm("vergeio_drive", name, ['media          = "disk"', `disksize       = ${gib}`, 'preferred_tier = "3"']);
  return `${[
    "# The bench's lab (bench/readmeLab) for the maker's Terraform provider, written by bench/fixedCost/opentofuConfig.ts.",
    `terraform {\n  required_providers {\n    vergeio = { source = "${VERGEIO_PROVIDER_SOURCE}" }\n  }\n}`,
    'variable "host" { type = string }',
    'variable "password" {\n  type      = string\n  sensitive = true\n}',
    'provider "vergeio" {\n  host     = var.host\n  username = "admin"\n  password = var.password\n  insecure = true # the emulator\'s certificate is self-signed\n}',
    `resource "vergeio_network" "net" {\n  name          = "${p}net"\n  ipaddress     = "10.90.0.1/16"\n  on_power_loss = "last_state"\n}`,
    `resource "vergeio_vm" "vm" {\n  count        = ${shape.vms}\n  name         = "${p}\${count.index}"\n  cpu_cores    = 1\n  ram          = 512\n  machine_type = "q35"\n}`,
    drive("os", 1),
    drive("data", shape.dataGiB),
    perVm("vergeio_nic", "eth0", ["vnet    = vergeio_network.net.id"]),
  ].join("\n\n")}\n`;
}

/**
 * The CLI configuration (TF_CLI_CONFIG_FILE): the maker's provider from the directory holding its binary, and no
 * installation method besides, so neither `tofu` nor the provider is fetched from anywhere.
 */
export function tofuCliConfig(providerDir: string): string {
  return `provider_installation {\n  dev_overrides {\n    ${JSON.stringify(VERGEIO_PROVIDER_SOURCE)} = ${JSON.stringify(providerDir)}\n  }\n}\n`;
}
