// A lab's inputs as zod schemas: the fields of an environment file's lab (env/environment-schema.ts, which writes
// references by name) and of the plugin's component vplatform:index:Lab (references as keys, what vp.Lab takes from
// a Python, Go or YAML program), built once on the resources' own input shapes and the lab planners' constants.
import { z } from "zod";
import { whenValid } from "../schemas/common";
import { withoutMachineOwner } from "../schemas/hardware";
import { API_KEY_RULE_FIELDS, apiKeyShape, checkApiKey } from "./apiKey/schema";
import { deviceShape } from "./device/schema";
import { driveShape } from "./drive/schema";
import { nicShape } from "./nic/schema";
import { USER_ROLES, userShape } from "./user/schema";
import { checkCloneSource, cloneFromShape, virtualMachineShape } from "./virtualMachine/schema";
import { vmSnapshotShape } from "./vmSnapshot/schema";
import { vnetShape } from "./vnet/schema";
import { DEFAULT_COPY_NAME, DEFAULT_COPY_PREFIX, MAX_COPY_PREFIX } from "../plan/lab";
import { COPY_USER_ROLE, HARDWARE_ACCESS } from "../plan/labGrants";

export const calendarEntry = z.strictObject({
  timeZone: z.string().optional().describe("IANA time zone of the sessions and dates (default UTC)"),
  sessions: z
    .array(
      z.strictObject({
        days: z.array(z.string()).describe("Weekdays: monday … sunday"),
        start: z.string().describe('Local time "HH:MM" the copies power on'),
        stop: z.string().describe('Local time "HH:MM" they power off, later the same day (24:00 at the latest)'),
      }),
    )
    .optional(),
  starts: z.string().optional().describe("First day of sessions (2027-01-11); default: from creation"),
  ends: z.string().optional().describe("The term's end (2027-05-14: the end of that day): VMs power off, keys expire"),
});

const { name: _vnetName, network: _net, gateway: _gw, dhcpStart: _ds, dhcpStop: _dp, ...copyVnetFields } = vnetShape;
const { name: _userName, role: _role, ...copyUserFields } = userShape;
const copyUserEntry = z.strictObject({
  ...copyUserFields,
  role: z
    .enum(USER_ROLES)
    .optional()
    .describe(
      `The copy's user's role; default ${COPY_USER_ROLE}: it reaches its own copy only, through grants. Any other reaches beyond the copy`,
    ),
  beyondCopy: z.boolean().optional().describe("The role reaches beyond the copy (every copy, or the platform), and that is meant"),
});
const { name: _keyName, user: _keyUser, ...copyKeyFields } = apiKeyShape;

/** The fields of a lab, its template's VMs as `vm` takes them (names or keys in a file, keys in the component). */
export const labFields = <V extends z.ZodType>(vm: V) => ({
  copies: z.number().int().min(1).describe("How many copies; copy n keeps its name and network whatever the count"),
  copyName: z
    .string()
    .min(1)
    .default(DEFAULT_COPY_NAME)
    .describe("Copy names: {lab} and {n} (the copy number, zero-padded to two digits): course-01"),
  copyPrefix: z
    .number()
    .int()
    .min(1)
    .max(MAX_COPY_PREFIX)
    .default(DEFAULT_COPY_PREFIX)
    .describe("The length of each copy's network carved from the pool (24: one /24 per copy)"),
  pool: z.string().describe("The block the copies' networks are carved from, in copy order, e.g. 10.100.0.0/16"),
  vnet: z.strictObject(copyVnetFields).optional().describe("Other fields of every copy's vnet (named as the copy)"),
  vms: z.array(vm).min(1).describe("The VMs of one copy, named <copy>-<vm>; a cloneFrom naming a VM of the template clones that copy's"),
  user: copyUserEntry
    .optional()
    .describe(
      "One user per copy, named as the copy, with grants on its own copy only: its VMs (read, power, restore, console) and vnet (read)",
    ),
  access: z
    .strictObject({
      hardware: z
        .enum(HARDWARE_ACCESS)
        .optional()
        .describe("What each copy's user may do to its VMs' drives, NICs and snapshots: read (the default) or change"),
    })
    .optional()
    .describe("What each copy's user may do on its own copy beyond running its VMs"),
  apiKey: z
    .strictObject(copyKeyFields)
    .superRefine(checkApiKey, whenValid(...API_KEY_RULE_FIELDS))
    .optional()
    .describe("One API key per copy, of the copy's user (<copy>-key); its secret is a stack output"),
  resetSnapshot: vmSnapshotShape.name
    .optional()
    .describe("A snapshot of this name of every VM of every copy, taken at creation: what a reset restores"),
  calendar: calendarEntry
    .optional()
    .describe("Class hours (weekly sessions in a time zone) and the term's end, run by the platform's own schedules"),
});

// Hardware is nested under its VM, so `machine` (and the VM's key and policy) are implied.
export const driveFields = withoutMachineOwner(driveShape);
export const nicFields = withoutMachineOwner(nicShape);
export const deviceFields = withoutMachineOwner(deviceShape);
const { cloneFrom: _cf, ...vmShapeWithoutClone } = virtualMachineShape;
export const vmFields = vmShapeWithoutClone;

/** A VM of the component's template: the VM's fields, its hardware nested; references are keys (or a template VM's name). */
const componentVm = z.strictObject({
  ...vmFields,
  powerState: z
    .enum(["running", "stopped"])
    .optional()
    .describe("Applied once its hardware is attached (a VmPower); left out, the VM's power is not managed"),
  cloneFrom: z
    .strictObject({
      ...cloneFromShape,
      vm: z.string().min(1).optional().describe("Name of a VM of the template (that copy's VM is cloned), or a VM key (or give snapshot)"),
    })
    .superRefine(checkCloneSource)
    .optional()
    .describe("Clone a VM (the template's, or one by its key) or a VM snapshot (snapshot: its key) instead of making an empty VM"),
  drives: z.array(z.strictObject(driveFields)).optional().describe("The VM's drives (each copy's VM gets its own)"),
  nics: z
    .array(z.strictObject({ ...nicFields, vnet: nicFields.vnet.optional().describe("Vnet key; default: the copy's vnet") }))
    .optional()
    .describe("The VM's NICs; one without vnet is on the copy's vnet"),
  devices: z.array(z.strictObject(deviceFields)).optional().describe("The VM's passthrough devices"),
});

/** The inputs of the plugin's component vplatform:index:Lab: vp.Lab's (its name is the resource's). */
export const labComponentInputs = z.strictObject(labFields(componentVm));
