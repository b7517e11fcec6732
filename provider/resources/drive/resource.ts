import type { Row } from "../../reconcile/platform";
import { describeChange, diffFields, formatValue, named, type ResourceDiff } from "../../plan/diff";
import { type DriveInputs, driveInputsSchema, driveShape } from "./schema";
import { unplugAndDeleteDrive } from "../../reconcile/hardware";
import { toNumber } from "../../schemas/normalize";
import { bytesText } from "../../schemas/sizes";
import { defineResource } from "../framework/defineResource";
import type { HardwareInputs } from "../framework/hardwareResource";
import { DRIVE_TABLE } from "../../schemas/tables";

type Inputs = DriveInputs & HardwareInputs;

const formatBytes = (bytes: unknown) => {
  const n = Number(toNumber(bytes));
  return Number.isFinite(n) && n > 0 ? bytesText(n) : String(bytes);
};

/** What changing a drive does: the preview's replacements, updates and warnings. */

export function diffDrive(olds: Row, news: Row): ResourceDiff {
  const what = `${named("drive", news)} of machine ${formatValue({}, news.machine ?? olds.machine)}`;
  const d = diffFields(driveShape, olds, news, { what, namesUniqueOnPlatform: false });
  const shrinks = d.replaces.includes("disksize");
  if (shrinks) {
    d.warnings.unshift(
      `!!! ${what}: disksize ${formatBytes(olds.disksize)} → ${formatBytes(news.disksize)} would SHRINK it; drives only grow, so this REPLACES the drive and ALL ITS DATA IS LOST !!!`,
    );
  }
  const others = d.replaces.filter((f) => f !== "disksize");
  if (others.length) {
    const why = others.map((f) => describeChange(driveShape, f, olds, news)).join(", ");
    d.warnings.unshift(`${what} is REPLACED (${why}): its data is lost`);
  }
  return d;
}

export const drive = defineResource<Inputs, Inputs>({
  token: "Drive",
  table: DRIVE_TABLE,
  description: "A drive of a VM's machine.",
  schema: driveInputsSchema,
  shape: driveShape,
  names: "perMachine",
  marker: "description",
  hardware: {
    diff: diffDrive,
    // With hotplug, a running VM gets ONE unplug and the drive goes offline before the DELETE.
    removeLive: (api, owner, id, olds, t) =>
      owner.allowHotplug ? unplugAndDeleteDrive(api, owner, id, String(olds.name ?? id), t) : undefined,
  },
});
