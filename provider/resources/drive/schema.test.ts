// Drive: the cross-field rules and the spec's representation, by hand
// (fieldRules.test.ts covers each field's bounds; spec.test.ts the spec's tables).
import { problems } from "../../../test/schemaProblems";
import { DRIVE_MEDIA, MIN_DRIVE_SIZE, driveInputsSchema, driveShape, type DriveInputs } from "./schema";
import { mappingOf } from "../../schemas/fieldCodec";

const { toApiBody: toDriveApiBody, fromApiRow: fromDriveApiRow } = mappingOf<DriveInputs>(driveShape);

const drive = (input: Record<string, unknown>) => problems(driveInputsSchema, { machine: "54", ...input });

describe("media import, clone and cdrom need a mediaSource (the spec: key of the source media for import, clone, cdrom)", () => {
  const SOURCED = ["import", "clone", "cdrom"];
  test.each(DRIVE_MEDIA.map((m) => [m, SOURCED.includes(m)] as const))("media %s without a source: refused %p", (media, refused) => {
    expect(drive({ media, disksize: 2 ** 30 })).toEqual(refused ? [`mediaSource: media '${media}' needs a mediaSource`] : []);
  });
  test.each(SOURCED)("media %s with a source (a key, as a string or a number) is accepted", (media) => {
    expect(drive({ media, mediaSource: "9" })).toEqual([]);
    expect(drive({ media, mediaSource: 9 })).toEqual([]);
  });
});

describe("a drive is at least the platform's smallest (1 MiB): a smaller disksize is a unit slipped, refused with the fix", () => {
  test("the smallest drive is 1 MiB, and 1 MiB is accepted", () => {
    expect(MIN_DRIVE_SIZE).toBe(2 ** 20);
    expect(drive({ disksize: MIN_DRIVE_SIZE })).toEqual([]);
  });
  test("disksize 20 (meant as 20 GiB) is refused, naming the field, what 20 is and how to write 20 GiB", () => {
    expect(drive({ disksize: 20 })).toEqual(["disksize: 20 is 20 bytes, below the smallest drive (1 MiB); for 20 GiB write 20 * 2 ** 30"]);
  });
  test("a size of a thousand bytes or more is refused with its units, without guessing the size meant", () => {
    expect(drive({ disksize: MIN_DRIVE_SIZE - 1 })).toEqual([
      "disksize: 1048575 is 1048575 bytes (1024 KiB), below the smallest drive (1 MiB)",
    ]);
  });
  test("zero and negative sizes are refused the same way", () => {
    expect(drive({ disksize: 0 })).toEqual(["disksize: 0 is 0 bytes, below the smallest drive (1 MiB)"]);
    expect(drive({ disksize: -5 })).toEqual(["disksize: -5 is -5 bytes, below the smallest drive (1 MiB)"]);
  });
});

describe("a new disk needs a disksize (the spec: bytes, for new disks)", () => {
  test.each([
    ["media disk", { media: "disk" }, ["disksize: a new disk needs a disksize (bytes)"]],
    ["the default media (disk)", {}, ["disksize: a new disk needs a disksize (bytes)"]],
    ["a disk with its size", { disksize: 2 ** 30 }, []],
    ["an EFI disk (sized by the platform)", { media: "efidisk" }, []],
    ["an imported disk (sized by its source)", { media: "import", mediaSource: "9" }, []],
  ])("%s → %j", (_what, input, expected) => expect(drive(input)).toEqual(expected));
  test("every problem of a declaration is reported at its own path", () => {
    expect(
      drive({ machine: "web", media: "cdrom", preferredTier: 9 })
        .map((p) => p.split(":")[0])
        .sort(),
    ).toEqual(["machine", "mediaSource", "preferredTier"]);
  });
  test("the cross-field rules are checked even when another field has an invalid enumeration value", () => {
    expect(
      drive({ media: "cdrom", interface: "scsi" })
        .map((p) => p.split(":")[0])
        .sort(),
    ).toEqual(["interface", "mediaSource"]);
  });
});

describe("the API body is the spec's machine_drives representation", () => {
  test('preferred_tier a string "1".."5", disksize an integer in bytes, defaults sent explicitly', () => {
    expect(toDriveApiBody(driveInputsSchema.parse({ machine: "54", disksize: 20 * 1024 ** 3, preferredTier: 5, name: "os" }))).toEqual({
      machine: "54",
      name: "os",
      media: "disk",
      interface: "virtio-scsi",
      disksize: 21474836480,
      preferred_tier: "5",
    });
  });
  test("an update body leaves the machine out (it moves by replacement)", () => {
    expect(toDriveApiBody({ machine: "54", disksize: 2048 }, "update")).toEqual({ disksize: 2048 });
  });
});

describe("a drive row reads back as the declaration, whatever form the API answers in (no perpetual diff)", () => {
  const declared = driveInputsSchema.parse({
    machine: "54",
    name: "os",
    description: "",
    media: "import",
    interface: "ahci",
    disksize: 10737418240,
    preferredTier: 2,
    mediaSource: "9",
    showPt: true,
    enabled: false,
    readonly: false,
  });
  test.each([
    [
      "numbers and JSON booleans",
      { machine: 54, disksize: 10737418240, preferred_tier: 2, media_source: 9, show_pt: true, enabled: false, readonly: false },
    ],
    [
      "strings",
      {
        machine: "54",
        disksize: "10737418240",
        preferred_tier: "2",
        media_source: "9",
        show_pt: "true",
        enabled: "false",
        readonly: "false",
      },
    ],
    ["1/0 booleans", { machine: 54, disksize: 10737418240, preferred_tier: "2", media_source: 9, show_pt: 1, enabled: 0, readonly: 0 }],
  ])("%s", (_forms, forms) => {
    const row = { $key: 12, name: "os", description: "", media: "import", interface: "ahci", status: 12, ...forms };
    expect(fromDriveApiRow(row, declared)).toEqual(declared);
  });
});
