"""A lab: a virtual network, a running VM with two drives (the OS on the looked-up fast tier) and a NIC."""
import pulumi
import pulumi_vplatform as vp

config = pulumi.Config()
GiB = 1024**3

# A look-up: a function of the plugin.
fast = vp.get_storage_tier(name="Tier 1")

lab = vp.Vnet("lab", name="py-lab", network="10.61.0.0/24", dhcp_enabled=True,
              dhcp_start="10.61.0.100", dhcp_stop="10.61.0.200")
web = vp.VirtualMachine("web", name="py-web", cpu_cores=2, ram=config.get_int("ram") or 2048,
                        power_state="running")
# Hardware attaches to the VM's machine key, not its id.
vp.Drive("web-os", machine=web.machine_key, name="os", media="disk", interface="virtio-scsi",
         disksize=20 * GiB, preferred_tier=fast.tier)
vp.Drive("web-data", machine=web.machine_key, name="data", media="disk", disksize=50 * GiB)
vp.Nic("web-eth0", machine=web.machine_key, name="eth0", vnet=lab.id, interface="virtio")

pulumi.export("vmKey", web.id)
pulumi.export("machineKey", web.machine_key)
pulumi.export("status", web.status)
