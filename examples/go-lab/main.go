// A lab: a virtual network, a running VM with two drives (the data one on a looked-up tier) and a NIC, and an API key.
package main

import (
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"

	vp "github.com/vplatform/pulumi-vplatform/sdk/go/vplatform"
)

const GiB = 1 << 30

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		cpuCores, ram := config.GetInt(ctx, "cpuCores"), config.GetInt(ctx, "ram")
		if cpuCores == 0 {
			cpuCores = 2
		}
		if ram == 0 {
			ram = 2048
		}
		// A look-up: a function of the plugin.
		bulk, err := vp.GetStorageTier(ctx, &vp.GetStorageTierArgs{Name: "Tier 3"})
		if err != nil {
			return err
		}
		lab, err := vp.NewVnet(ctx, "lab", &vp.VnetArgs{
			Name: pulumi.String("go-lab"), Network: pulumi.String("10.62.0.0/24"), DhcpEnabled: pulumi.Bool(true),
			DhcpStart: pulumi.String("10.62.0.100"), DhcpStop: pulumi.String("10.62.0.200"),
		})
		if err != nil {
			return err
		}
		web, err := vp.NewVirtualMachine(ctx, "web", &vp.VirtualMachineArgs{
			Name: pulumi.String("go-web"), CpuCores: pulumi.Int(cpuCores), Ram: pulumi.Int(ram),
			PowerState: vp.VirtualMachinePowerStateRunning,
		})
		if err != nil {
			return err
		}
		// Hardware attaches to the VM's machine key, not its id.
		if _, err := vp.NewDrive(ctx, "web-os", &vp.DriveArgs{
			Machine: web.MachineKey, Name: pulumi.String("os"), Media: vp.DriveMediaDisk,
			Interface: vp.DriveInterfaceVirtioScsi, Disksize: pulumi.Int(20 * GiB),
		}); err != nil {
			return err
		}
		if _, err := vp.NewDrive(ctx, "web-data", &vp.DriveArgs{
			Machine: web.MachineKey, Name: pulumi.String("data"), Media: vp.DriveMediaDisk, Disksize: pulumi.Int(50 * GiB),
			PreferredTier: pulumi.Int(bulk.Tier),
		}); err != nil {
			return err
		}
		if _, err := vp.NewNic(ctx, "web-eth0", &vp.NicArgs{
			Machine: web.MachineKey, Name: pulumi.String("eth0"), Vnet: lab.ID(), Interface: vp.NicInterfaceVirtio,
		}); err != nil {
			return err
		}
		// A key for the lab's automation: its secret is a secret output, shown only by `pulumi stack output --show-secrets`.
		key, err := vp.NewApiKey(ctx, "lab-key", &vp.ApiKeyArgs{Name: pulumi.String("go-lab-automation")})
		if err != nil {
			return err
		}
		ctx.Export("vmKey", web.ID())
		ctx.Export("machineKey", web.MachineKey)
		ctx.Export("status", web.Status)
		ctx.Export("dataTier", pulumi.Int(bulk.Tier))
		ctx.Export("labKey", key.Secret)
		return nil
	})
}
