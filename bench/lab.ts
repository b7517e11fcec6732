// The scale tests' lab: N VMs, each with two drives and one NIC on one shared
// vnet, powered on (YAML-environment shape: the VM, its hardware, then its
// power); and the emulator with room for N VMs that the benchmark's labs use too.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { PulumiFn } from "@pulumi/pulumi/automation";
import got from "got";
import { buildContext, startEmulator, type EmulatorOptions, type RunningEmulator } from "../emulator";
import { serialize, writeAtomically } from "../emulator/persistence/store";
import { environmentSchema } from "../env/environment-schema";
import { findRepoRoot } from "../env/local-stack";

export interface LabShape {
  vms: number;
  /** Size of each VM's `data` drive (the one a grow changes). */
  dataGiB: number;
  /** A name prefix, so several labs can share an emulator. */
  prefix?: string;
}

/** The lab as an environment file holds it (sizes with units), before the loader's parse. */
export function labEnvironmentSource(shape: LabShape) {
  const p = shape.prefix ?? "lab";
  return {
    vnets: [{ name: `${p}-net`, network: "10.90.0.0/16" }],
    vms: Array.from({ length: shape.vms }, (_, i) => ({
      name: `${p}-${i}`,
      cpuCores: 1,
      ram: 512,
      powerState: "running",
      drives: [
        { name: "os", media: "disk", disksize: "1GiB", preferredTier: 3 },
        { name: "data", media: "disk", disksize: `${shape.dataGiB}GiB`, preferredTier: 3 },
      ],
      nics: [{ name: "eth0", vnet: `${p}-net` }],
    })),
  };
}

export function labEnvironment(shape: LabShape) {
  return environmentSchema.parse(labEnvironmentSource(shape));
}

/**
 * An inline Pulumi program declaring the lab through the YAML environments'
 * builder (the shape reads at run time), loaded as a user's install loads it:
 * from node_modules/vplatform (the build makes it). Inside the repository,
 * `require("vplatform/env")` would name the repository's own files, and the
 * resources' providers would be serialized as closures, not as the installed
 * package's modules (see sdk/providerShim.ts).
 */
export function labProgram(shape: () => LabShape): PulumiFn {
  return async () => {
    const { buildEnvironment } = require(path.join(findRepoRoot(), "node_modules", "vplatform", "dist", "env"));
    buildEnvironment(labEnvironment(shape()));
  };
}

/**
 * An emulator with enough nodes for `vms` running 1-core VMs (the seeded
 * cluster has 64 cores): the extra nodes go into a saved state it starts from.
 */
export async function startLabEmulator(vms: number, opts: EmulatorOptions): Promise<RunningEmulator & { dataDir: string }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "vplatform-lab-emulator-"));
  const ctx = buildContext({ timeScale: opts.timeScale, adminPassword: "unused" });
  for (let i = 3; (i - 1) * 32 < vms + 32; i++)
    ctx.insert("nodes", { name: `node${i}`, cluster: 1, cores: 32, ram: 131072, status: "running" });
  writeAtomically(dataDir, serialize(ctx));
  const emu = await startEmulator({ ...opts, dataDir, quiet: true });
  return {
    ...emu,
    dataDir,
    async close() {
      await emu.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The emulator's request counter, read (GET) or reset (DELETE) with the admin's credentials: what a bench phase cost. */
export function requestCounter(emu: RunningEmulator) {
  const admin = { username: emu.adminUser, password: emu.adminPassword, https: { certificateAuthority: emu.caCert } };
  return (method: "GET" | "DELETE") =>
    got(`${emu.url}/_emulator/requests`, { method, ...admin }).json<{
      total: number;
      entries: { method: string; table: string; count: number }[];
    }>();
}
