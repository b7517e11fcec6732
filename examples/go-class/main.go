// A class lab: three copies of one VM, each on its own /24 of the pool (go-class-01, -02, -03).
package main

import (
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"

	vp "github.com/vplatform/pulumi-vplatform/sdk/go/vplatform"
)

const GiB = 1 << 30

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		ram := config.GetInt(ctx, "ram")
		if ram == 0 {
			ram = 1024
		}
		course, err := vp.NewLab(ctx, "go-class", &vp.LabArgs{
			Copies: pulumi.Int(3), Pool: pulumi.String("10.83.0.0/16"),
			Vms: vp.LabVmArray{vp.LabVmArgs{
				Name: pulumi.String("web"), CpuCores: pulumi.Int(1), Ram: pulumi.Int(ram),
				PowerState: vp.VirtualMachinePowerStateRunning,
				Drives: vp.LabVmDriveArray{vp.LabVmDriveArgs{
					Name: pulumi.String("os"), Media: vp.DriveMediaDisk, Disksize: pulumi.Int(10 * GiB),
				}},
				Nics: vp.LabVmNicArray{vp.LabVmNicArgs{Name: pulumi.String("eth0")}},
			}},
		})
		if err != nil {
			return err
		}
		ctx.Export("copies", course.Copies)
		return nil
	})
}
