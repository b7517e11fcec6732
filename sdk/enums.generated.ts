// Generated from schema.json's enums by scripts/gen-schema.ts; do not edit.

/** The VM's powerCyclePolicy, followed when a running VM cannot take this device live (no hotplug; passthrough devices never): set by the SDK from the VM whose machineKey is given; unset means restart. */
export const DevicePowerCyclePolicy = {
  Restart: "restart",
  Refuse: "refuse",
} as const;
export type DevicePowerCyclePolicy = (typeof DevicePowerCyclePolicy)[keyof typeof DevicePowerCyclePolicy];

/** Device type */
export const DeviceType = {
  Gpu: "gpu",
  NvidiaVgpu: "nvidia_vgpu",
  Tpm: "tpm",
  NodeUsbDevices: "node_usb_devices",
  NodeSriovNicDevices: "node_sriov_nic_devices",
  NodePciDevices: "node_pci_devices",
  NodeHostGpuDevices: "node_host_gpu_devices",
  NodeNvidiaVgpuDevices: "node_nvidia_vgpu_devices",
} as const;
export type DeviceType = (typeof DeviceType)[keyof typeof DeviceType];

/** Drive interface */
export const DriveInterface = {
  VirtioScsi: "virtio-scsi",
  Virtio: "virtio",
  Ide: "ide",
  Ahci: "ahci",
  Nvme: "nvme",
  Cifs: "cifs",
  Nfs: "nfs",
  Vsan: "vsan",
  Lsi53c895a: "lsi53c895a",
  Megasas: "megasas",
  MegasasGen2: "megasas-gen2",
  Mptsas1068: "mptsas1068",
  VirtioScsiDedicated: "virtio-scsi-dedicated",
  Pflash: "pflash",
  Direct: "direct",
  TpmState: "tpm_state",
  Usb: "usb",
} as const;
export type DriveInterface = (typeof DriveInterface)[keyof typeof DriveInterface];

/** Media type (changing it replaces the drive) */
export const DriveMedia = {
  Disk: "disk",
  Cdrom: "cdrom",
  Import: "import",
  Clone: "clone",
  Efidisk: "efidisk",
  Value9p: "9p",
  Dir: "dir",
  Clone9p: "clone9p",
  Clonedir: "clonedir",
  Nonpersistent: "nonpersistent",
  Nonpersistent9p: "nonpersistent9p",
  Nonpersistentdir: "nonpersistentdir",
} as const;
export type DriveMedia = (typeof DriveMedia)[keyof typeof DriveMedia];

/** The VM's powerCyclePolicy, followed when a running VM cannot take this drive live (no hotplug; passthrough devices never): set by the SDK from the VM whose machineKey is given; unset means restart. */
export const DrivePowerCyclePolicy = {
  Restart: "restart",
  Refuse: "refuse",
} as const;
export type DrivePowerCyclePolicy = (typeof DrivePowerCyclePolicy)[keyof typeof DrivePowerCyclePolicy];

/** file or directory */
export const GetVolumeFilesResultEntriesItemType = {
  File: "file",
  Directory: "directory",
} as const;
export type GetVolumeFilesResultEntriesItemType = (typeof GetVolumeFilesResultEntriesItemType)[keyof typeof GetVolumeFilesResultEntriesItemType];

/** What each copy's user may do to its VMs' drives, NICs and snapshots: read (the default) or change */
export const LabAccessHardware = {
  Read: "read",
  Change: "change",
} as const;
export type LabAccessHardware = (typeof LabAccessHardware)[keyof typeof LabAccessHardware];

/** NIC model */
export const NicInterface = {
  Virtio: "virtio",
  E1000: "e1000",
  E1000e: "e1000e",
  Rtl8139: "rtl8139",
  Pcnet: "pcnet",
  Igb: "igb",
  Vmxnet3: "vmxnet3",
  Direct: "direct",
} as const;
export type NicInterface = (typeof NicInterface)[keyof typeof NicInterface];

/** The VM's powerCyclePolicy, followed when a running VM cannot take this NIC live (no hotplug; passthrough devices never): set by the SDK from the VM whose machineKey is given; unset means restart. */
export const NicPowerCyclePolicy = {
  Restart: "restart",
  Refuse: "refuse",
} as const;
export type NicPowerCyclePolicy = (typeof NicPowerCyclePolicy)[keyof typeof NicPowerCyclePolicy];

/** ScheduleDaysItem */
export const ScheduleDaysItem = {
  Monday: "monday",
  Tuesday: "tuesday",
  Wednesday: "wednesday",
  Thursday: "thursday",
  Friday: "friday",
  Saturday: "saturday",
  Sunday: "sunday",
} as const;
export type ScheduleDaysItem = (typeof ScheduleDaysItem)[keyof typeof ScheduleDaysItem];

/** Unit of repetition; never runs once */
export const ScheduleRepeatEvery = {
  Minute: "minute",
  Hour: "hour",
  Day: "day",
  Week: "week",
  Month: "month",
  Year: "year",
  Never: "never",
} as const;
export type ScheduleRepeatEvery = (typeof ScheduleRepeatEvery)[keyof typeof ScheduleRepeatEvery];

/** What the task does: send (a webhook's, the default), poweron, poweroff, kill (a VM's), enable, disable (a user's) */
export const TaskAction = {
  Send: "send",
  Poweron: "poweron",
  Poweroff: "poweroff",
  Kill: "kill",
  Enable: "enable",
  Disable: "disable",
} as const;
export type TaskAction = (typeof TaskAction)[keyof typeof TaskAction];

/** Rights of the user, and of every API key of the user: admin, vmoperator (VM actions and hardware), readonly, or none (only what the platform's permissions grant) */
export const UserRole = {
  Admin: "admin",
  Vmoperator: "vmoperator",
  Readonly: "readonly",
  None: "none",
} as const;
export type UserRole = (typeof UserRole)[keyof typeof UserRole];

/** Boot order */
export const VirtualMachineBootOrder = {
  Cd: "cd",
  Cdn: "cdn",
  Dc: "dc",
  Nc: "nc",
  N: "n",
  C: "c",
  D: "d",
  Strict: "strict",
  Nd: "nd",
  Do: "do",
} as const;
export type VirtualMachineBootOrder = (typeof VirtualMachineBootOrder)[keyof typeof VirtualMachineBootOrder];

/** Cloud-init datasource */
export const VirtualMachineCloudinitDatasource = {
  None: "none",
  Nocloud: "nocloud",
  ConfigDriveV2: "config_drive_v2",
} as const;
export type VirtualMachineCloudinitDatasource = (typeof VirtualMachineCloudinitDatasource)[keyof typeof VirtualMachineCloudinitDatasource];

/** Console type (applies at next start) */
export const VirtualMachineConsole = {
  Vnc: "vnc",
  Spice: "spice",
  Serial: "serial",
  None: "none",
} as const;
export type VirtualMachineConsole = (typeof VirtualMachineConsole)[keyof typeof VirtualMachineConsole];

/** Migration method */
export const VirtualMachineMigrationMethod = {
  Auto: "auto",
  Live: "live",
} as const;
export type VirtualMachineMigrationMethod = (typeof VirtualMachineMigrationMethod)[keyof typeof VirtualMachineMigrationMethod];

/** What the VM does after a power loss */
export const VirtualMachineOnPowerLoss = {
  PowerOn: "power_on",
  LastState: "last_state",
  LeaveOff: "leave_off",
} as const;
export type VirtualMachineOnPowerLoss = (typeof VirtualMachineOnPowerLoss)[keyof typeof VirtualMachineOnPowerLoss];

/** Guest OS family */
export const VirtualMachineOsFamily = {
  Linux: "linux",
  Windows: "windows",
  Freebsd: "freebsd",
  Other: "other",
} as const;
export type VirtualMachineOsFamily = (typeof VirtualMachineOsFamily)[keyof typeof VirtualMachineOsFamily];

/** What to do when a change needs a power cycle of a running VM: restart (graceful shutdown, forced after timeouts.gracefulShutdown, apply, power on) or refuse with an error. */
export const VirtualMachinePowerCyclePolicy = {
  Restart: "restart",
  Refuse: "refuse",
} as const;
export type VirtualMachinePowerCyclePolicy = (typeof VirtualMachinePowerCyclePolicy)[keyof typeof VirtualMachinePowerCyclePolicy];

/** Desired power state; unset leaves power alone. Read from the live machine status, not the powerstate column. */
export const VirtualMachinePowerState = {
  Running: "running",
  Stopped: "stopped",
} as const;
export type VirtualMachinePowerState = (typeof VirtualMachinePowerState)[keyof typeof VirtualMachinePowerState];

/** Real-time clock base */
export const VirtualMachineRtcBase = {
  Utc: "utc",
  Localtime: "localtime",
} as const;
export type VirtualMachineRtcBase = (typeof VirtualMachineRtcBase)[keyof typeof VirtualMachineRtcBase];

/** Sound card */
export const VirtualMachineSound = {
  None: "none",
  Sb16: "sb16",
  Es1370: "es1370",
  Ac97: "ac97",
  Adlib: "adlib",
  Gus: "gus",
  Cs4231a: "cs4231a",
  Hda: "hda",
  Pcspk: "pcspk",
} as const;
export type VirtualMachineSound = (typeof VirtualMachineSound)[keyof typeof VirtualMachineSound];

/** Video card (applies at next start) */
export const VirtualMachineVideo = {
  Std: "std",
  Cirrus: "cirrus",
  Vmware: "vmware",
  Qxl: "qxl",
  Virtio: "virtio",
  None: "none",
} as const;
export type VirtualMachineVideo = (typeof VirtualMachineVideo)[keyof typeof VirtualMachineVideo];

/** Desired power state, read back from the live machine status */
export const VmPowerState = {
  Running: "running",
  Stopped: "stopped",
} as const;
export type VmPowerState = (typeof VmPowerState)[keyof typeof VmPowerState];

/** Layer-2 type */
export const VnetLayer2Type = {
  Vxlan: "vxlan",
  Vlan: "vlan",
  None: "none",
} as const;
export type VnetLayer2Type = (typeof VnetLayer2Type)[keyof typeof VnetLayer2Type];

/** Desired power state: a network passes traffic only while it runs. Unset leaves power alone. Powered on with its pending changes applied; read back from the live status of its router. */
export const VnetPowerState = {
  Running: "running",
  Stopped: "stopped",
} as const;
export type VnetPowerState = (typeof VnetPowerState)[keyof typeof VnetPowerState];

/** Unit of rateLimit */
export const VnetRateLimitType = {
  MbytesSecond: "mbytes/second",
  MbitsSecond: "mbits/second",
  PacketsSecond: "packets/second",
} as const;
export type VnetRateLimitType = (typeof VnetRateLimitType)[keyof typeof VnetRateLimitType];

/** Network type */
export const VnetType = {
  Internal: "internal",
  External: "external",
  Dmz: "dmz",
} as const;
export type VnetType = (typeof VnetType)[keyof typeof VnetType];
