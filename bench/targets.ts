// The request-economy targets (issue 21) the benchmark checks on every measured
// lab of the working tree (recorded rows are not held to them).
import { inTransitions, labs, lifecycleRequests, type Lab, type Measured, ratio } from "./figures";

interface Check {
  target: string;
  applies: (lab: Lab) => boolean;
  measured: (lab: Lab, all: Lab[]) => number | undefined;
  limit: (lab: Lab, all: Lab[]) => number;
  unit?: string;
}

const perVm = (lab: Lab | undefined) => {
  const total = lab && lifecycleRequests(lab);
  return total === undefined ? undefined : total / lab!.vms;
};
/** The same variant's 200-VM lab at the same speed, the yardstick of 1000 VMs. */
const at200 = (lab: Lab, all: Lab[]) => all.find((l) => l.vms === 200 && l.speed === lab.speed && l.variant === lab.variant);
const peakMiB = (lab: Lab) => Math.max(...Object.values(lab.ops).map((r) => r.peakMiB));

const CHECKS: Check[] = [
  {
    target: "up ≤ 1.3× floor (50 and 200 VMs)",
    applies: (lab) => lab.vms === 50 || lab.vms === 200,
    measured: (lab) => lab.ops.up && ratio(lab.ops.up),
    limit: () => 1.3,
    unit: "×",
  },
  { target: "refresh ≤ 8 requests", applies: () => true, measured: (lab) => lab.ops.refresh?.requests, limit: () => 8 },
  { target: "lifecycle ≤ 9 requests per VM", applies: (lab) => lab.vms >= 50, measured: (lab) => perVm(lab), limit: () => 9 },
  {
    target: "up of 50 VMs in power-ons (reported)",
    applies: (lab) => lab.vms === 50,
    measured: (lab) => lab.ops.up && inTransitions(lab.ops.up),
    limit: () => Number.POSITIVE_INFINITY,
  },
  {
    target: "1000 VMs: lifecycle per VM ≤ 200 VMs'",
    applies: (lab) => lab.vms === 1000,
    measured: (lab) => perVm(lab),
    limit: (lab, all) => perVm(at200(lab, all)) ?? Number.NaN,
  },
  { target: "1000 VMs: provider < 400 MiB", applies: (lab) => lab.vms === 1000, measured: peakMiB, limit: () => 399, unit: " MiB" },
  {
    // The default backend: the file backend writing its checkpoints (what a plain `pulumi up` gets).
    target: "1000 VMs: up within 2 hours (default backend)",
    applies: (lab) => lab.vms === 1000 && lab.ops.up?.checkpoints === true && lab.ops.up.backend === undefined,
    measured: (lab) => lab.ops.up?.seconds,
    limit: () => 7200,
    unit: " s",
  },
];

/** One row per target and lab it applies to: the figure, the limit, whether it is met ("?" without a yardstick). */
export function targetRows(results: Measured[]): string[][] {
  const all = labs(results).filter((l) => !l.recorded);
  const rows = [["target", "lab", "variant", "measured", "limit", "met"]];
  for (const lab of all)
    for (const check of CHECKS.filter((c) => c.applies(lab))) {
      const measured = check.measured(lab, all);
      if (measured === undefined) continue;
      const limit = check.limit(lab, all);
      const unit = check.unit ?? "";
      rows.push([
        check.target,
        `${lab.vms} VMs ${lab.speed}`,
        lab.label,
        `${Number(measured.toFixed(2))}${unit}`,
        Number.isFinite(limit) ? `${Number(limit.toFixed(2))}${unit}` : "—",
        Number.isNaN(limit) ? "?" : !Number.isFinite(limit) ? "—" : measured <= limit ? "yes" : "NO",
      ]);
    }
  return rows;
}
