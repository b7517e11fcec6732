"""A lab: a virtual network, a running VM with two drives (the data one on a looked-up tier) and a NIC, and an API key."""
import pulumi
import pulumi_vplatform as vp

config = pulumi.Config()
GiB = 1024**3

# A look-up: a function of the plugin.
bulk = vp.get_storage_tier(name="Tier 3")

lab = vp.Vnet("lab", name="py-lab", network="10.61.0.0/24", dhcp_enabled=True,
              dhcp_start="10.61.0.100", dhcp_stop="10.61.0.200")
web = vp.VirtualMachine("web", name="py-web", cpu_cores=config.get_int("cpuCores") or 2,
                        ram=config.get_int("ram") or 2048, power_state="running")
# Hardware attaches to the VM's machine key, not its id.
vp.Drive("web-os", machine=web.machine_key, name="os", media="disk", interface="virtio-scsi", disksize=20 * GiB)
vp.Drive("web-data", machine=web.machine_key, name="data", media="disk", disksize=50 * GiB,
         preferred_tier=bulk.tier)
vp.Nic("web-eth0", machine=web.machine_key, name="eth0", vnet=lab.id, interface="virtio")
# A key for the lab's automation: its secret is a secret output, shown only by `pulumi stack output --show-secrets`.
key = vp.ApiKey("lab-key", name="py-lab-automation")

pulumi.export("vmKey", web.id)
pulumi.export("machineKey", web.machine_key)
pulumi.export("status", web.status)
pulumi.export("dataTier", bulk.tier)
pulumi.export("labKey", key.secret)
