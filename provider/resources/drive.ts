import { diffDrive } from "../plan/diff";
import { DRIVE_READ_FIELDS, DriveInputs, driveInputsSchema, driveShape, fromDriveApiRow, toDriveApiBody } from "../schemas/drive";
import { unplugAndDeleteDrive } from "../reconcile/hardware";
import { defineResource } from "./defineResource";
import { HardwareInputs, hardwareBehaviour } from "./hardwareResource";

type Inputs = DriveInputs & HardwareInputs;

declare module "./defineResource" {
  interface ResourceTokens {
    Drive: true;
  }
}

export const drive = defineResource<Inputs, Inputs>({
  description: "A drive of a VM's machine.",
  ...hardwareBehaviour<Inputs, Inputs>({
    token: "Drive",
    table: "machine_drives",
    markedIn: "description",
    noun: "drive",
    schema: driveInputsSchema,
    shape: driveShape,
    diff: diffDrive,
    toApiBody: (i, mode) => toDriveApiBody(i, mode),
    fromApiRow: (row, declared) => fromDriveApiRow(row, declared) as Partial<Inputs>,
    readFields: DRIVE_READ_FIELDS,
    references: [{ field: "mediaSource", table: "files", noun: "file" }],
    // With hotplug, a running VM gets ONE unplug and the drive goes offline before the DELETE.
    removeLive: (api, owner, id, olds, t) => (owner.allowHotplug ? unplugAndDeleteDrive(api, owner, id, String(olds.name ?? id), t) : undefined),
  }),
});
