// Compatibility suite: the platform maker's Go client, govergeos (exact version in go.mod), drives
// the emulator unchanged. Run by test/compat/govergeos.test.ts, which starts an emulator with a
// tiny time scale (every transition ends before the client's first 5-second poll) and passes
// VPLATFORM_COMPAT_URL and VPLATFORM_COMPAT_API_KEY. Flows run in parallel so their polls overlap.
package compat

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"testing"
	"time"

	vergeos "github.com/verge-io/govergeos"
)

func client(t *testing.T) *vergeos.Client {
	t.Helper()
	url, key := os.Getenv("VPLATFORM_COMPAT_URL"), os.Getenv("VPLATFORM_COMPAT_API_KEY")
	if url == "" || key == "" {
		t.Fatal("VPLATFORM_COMPAT_URL and VPLATFORM_COMPAT_API_KEY must name a running emulator")
	}
	c, err := vergeos.NewClient(vergeos.WithBaseURL(url), vergeos.WithAPIKey(key), vergeos.WithInsecureTLS(true))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func ctx(t *testing.T) context.Context {
	c, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	return c
}

// must unwraps a client call; an error fails the running test (Go cannot pass t beside a pair).
func must[T any](value T, err error) T {
	if err != nil {
		panic(fmt.Sprintf("client call failed: %v", err))
	}
	return value
}

func yes() *bool { b := true; return &b }

// newVM creates a VM with the fields the maker's Terraform provider sends on every create.
func newVM(t *testing.T, c *vergeos.Client, name string) *vergeos.VM {
	t.Helper()
	vm := must(c.VMs.Create(ctx(t), &vergeos.VMCreateRequest{
		Name: name, CPUCores: 2, RAM: 2048, MachineType: "pc-q35-10.0", OSFamily: "linux",
		DisablePowercycle: yes(), AllowHotplug: yes(), GuestAgent: yes(),
	}))
	if vm.Machine == 0 || int(vm.ID) == 0 {
		t.Fatalf("VM read back without keys: %+v", vm)
	}
	t.Cleanup(func() {
		_ = c.VMs.PowerOff(context.Background(), int(vm.ID))
		_ = c.VMs.Delete(context.Background(), int(vm.ID))
	})
	return vm
}

func newNetwork(t *testing.T, c *vergeos.Client, name, cidr string) *vergeos.Network {
	t.Helper()
	net := must(c.Networks.Create(ctx(t), &vergeos.NetworkCreateRequest{
		Name: name, Type: "internal", Network: cidr, IPAddress: cidr[:len(cidr)-4] + "1",
		DHCPEnabled: yes(), DHCPDynamic: yes(), DHCPSequential: yes(),
		DHCPStart: cidr[:len(cidr)-4] + "100", DHCPStop: cidr[:len(cidr)-4] + "200",
	}))
	t.Cleanup(func() { _ = c.Networks.Delete(context.Background(), int(net.ID)) })
	return net
}

// raw posts a JSON body with the client's credentials, for the one request the client gets wrong.
func raw(t *testing.T, method, path string, body any) int {
	t.Helper()
	payload, _ := json.Marshal(body)
	req, _ := http.NewRequest(method, os.Getenv("VPLATFORM_COMPAT_URL")+"/api/v4"+path, bytes.NewReader(payload))
	req.Header.Set("Authorization", "Bearer "+os.Getenv("VPLATFORM_COMPAT_API_KEY"))
	req.Header.Set("Content-Type", "application/json")
	insecure := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true}}}
	resp, err := insecure.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

func TestVMWithDiskCdromAndNIC(t *testing.T) {
	t.Parallel()
	c := client(t)
	vm := newVM(t, c, "compat-hardware")
	isos := must(c.Files.ListISOs(ctx(t)))
	if len(isos) == 0 {
		t.Fatal("no ISO file to mount")
	}
	disk := must(c.VMDrives.Create(ctx(t), vm.Machine, &vergeos.VMDriveCreateRequest{
		Name: "os", Media: "disk", Interface: "virtio-scsi", SizeGB: 20, PreferredTier: "3", Fsync: "1",
	}))
	if disk.SizeGB != 20 || disk.Fsync != "1" || disk.PowerState != "offline" || disk.Machine != vm.Machine {
		t.Fatalf("disk read back as %+v", disk)
	}
	cdrom := must(c.VMDrives.Create(ctx(t), vm.Machine, &vergeos.VMDriveCreateRequest{
		Name: "install", Media: "cdrom", Interface: "ahci", File: int(isos[0].ID),
	}))
	if int(cdrom.File) != int(isos[0].ID) || cdrom.Media != "cdrom" {
		t.Fatalf("cdrom read back as %+v", cdrom)
	}
	if drives := must(c.VMDrives.List(ctx(t), vm.Machine)); len(drives) != 2 {
		t.Fatalf("want 2 drives, got %d", len(drives))
	}
	net := newNetwork(t, c, "compat-hw-net", "10.61.0.0/24")
	nic := must(c.VMNICs.Create(ctx(t), vm.Machine, &vergeos.VMNICCreateRequest{Name: "eth0", Interface: "virtio", VNET: int(net.ID)}))
	if int(nic.VNET) != int(net.ID) || nic.MAC == "" || !nic.Enabled {
		t.Fatalf("NIC read back as %+v", nic)
	}
	t.Cleanup(func() { _ = c.VMNICs.Delete(context.Background(), int(nic.ID)) })
	updated := must(c.VMDrives.Update(ctx(t), int(disk.ID), &vergeos.VMDriveUpdateRequest{SizeBytes: ptr(int64(30) << 30)}))
	if updated.SizeGB != 30 {
		t.Fatalf("grown disk read back as %d GB", updated.SizeGB)
	}
	if err := c.VMDrives.Delete(ctx(t), int(cdrom.ID)); err != nil {
		t.Fatal(err)
	}
}

func ptr[T any](v T) *T { return &v }

func TestPowerOnAndOff(t *testing.T) {
	t.Parallel()
	c := client(t)
	vm := newVM(t, c, "compat-power")
	if err := c.VMs.PowerOn(ctx(t), int(vm.ID)); err != nil {
		t.Fatal(err)
	}
	if !must(c.VMs.Get(ctx(t), int(vm.ID))).PowerState {
		t.Fatal("VM not running after PowerOn")
	}
	// A drive added to the running VM (allow_hotplug) comes online; hot-unplugged, it can be deleted.
	// (The client's own Delete of an online drive posts the machine key as vm_actions.vm: see README.)
	hot := must(c.VMDrives.Create(ctx(t), vm.Machine, &vergeos.VMDriveCreateRequest{Name: "hot", Media: "disk", SizeGB: 1}))
	if online := must(c.VMDrives.Get(ctx(t), int(hot.ID))); online.PowerState != "online" && online.PowerState != "hotplugging" {
		t.Fatalf("drive added to a running VM is %q", online.PowerState)
	}
	// The platform refuses an unplug while the hot-plug runs (422 "already hotplugging this device"): wait for online.
	eventually(t, func() bool { return must(c.VMDrives.Get(ctx(t), int(hot.ID))).PowerState == "online" }, func() string {
		return fmt.Sprintf("drive added to a running VM still %q", must(c.VMDrives.Get(ctx(t), int(hot.ID))).PowerState)
	})
	if err := c.VMDrives.HotUnplugDrive(ctx(t), int(vm.ID), int(hot.ID)); err != nil {
		t.Fatal(err)
	}
	if err := c.VMDrives.Delete(ctx(t), int(hot.ID)); err != nil {
		t.Fatal(err)
	}
	if err := c.VMs.PowerOff(ctx(t), int(vm.ID)); err != nil {
		t.Fatal(err)
	}
	if must(c.VMs.Get(ctx(t), int(vm.ID))).PowerState {
		t.Fatal("VM still running after PowerOff")
	}
}

func TestSnapshotAndRestore(t *testing.T) {
	t.Parallel()
	c := client(t)
	vm := newVM(t, c, "compat-snap")
	must(c.VMDrives.Create(ctx(t), vm.Machine, &vergeos.VMDriveCreateRequest{Name: "os", Media: "disk", SizeGB: 10}))
	if err := c.VMs.Snapshot(ctx(t), int(vm.ID), &vergeos.VMSnapshotOptions{Retention: 3600}); err != nil {
		t.Fatal(err)
	}
	snaps := must(c.VMSnapshots.ListByVM(ctx(t), vm.Machine))
	if len(snaps) != 1 || int(snaps[0].Machine) != vm.Machine || int(snaps[0].SnapMachine) == 0 || snaps[0].Expires == 0 {
		t.Fatalf("snapshots read back as %+v", snaps)
	}
	snap := must(c.VMSnapshots.Get(ctx(t), int(snaps[0].Key)))
	must(c.VMDrives.Create(ctx(t), vm.Machine, &vergeos.VMDriveCreateRequest{Name: "added-later", Media: "disk", SizeGB: 1}))
	// The client's Restore posts the snapshot's MACHINE key as `vm`; the spec's vm_actions take the
	// VM key (emulator/README.md), so the emulator answers 404 rather than restore another VM.
	if err := c.VMSnapshots.Restore(ctx(t), int(snap.Key), nil); !vergeos.IsNotFoundError(err) {
		t.Fatalf("Restore with the machine key: want 404, got %v", err)
	}
	if status := raw(t, "POST", "/vm_actions", map[string]any{"vm": int(vm.ID), "action": "restore", "params": map[string]any{"snapshot": int(snap.Key)}}); status != 201 {
		t.Fatalf("restore with the VM key answered %d", status)
	}
	var drives []vergeos.VMDrive
	eventually(t, func() bool {
		drives = must(c.VMDrives.List(ctx(t), vm.Machine))
		return len(drives) == 1 && drives[0].Name == "os"
	}, func() string { return fmt.Sprintf("drives after restore: %+v", drives) })
}

func TestNetworkCreatedPoweredOnRulesApplied(t *testing.T) {
	t.Parallel()
	c := client(t)
	net := newNetwork(t, c, "compat-net", "10.62.0.0/24")
	if net.PowerState || !net.DHCPDynamic || !net.DHCPSequential || !net.Enabled {
		t.Fatalf("new network read back as %+v", net)
	}
	if err := c.Networks.PowerOn(ctx(t), int(net.ID)); err != nil {
		t.Fatal(err)
	}
	running := must(c.Networks.Get(ctx(t), int(net.ID)))
	if !running.PowerState {
		t.Fatal("network not running after PowerOn")
	}
	gw := "10.62.0.254"
	changed := must(c.Networks.Update(ctx(t), int(net.ID), &vergeos.NetworkUpdateRequest{DHCPStop: &gw}))
	if !changed.NeedFWApply {
		t.Fatal("a DHCP change on a running network should wait for an apply")
	}
	if err := c.Networks.ApplyRules(ctx(t), int(net.ID)); err != nil {
		t.Fatal(err)
	}
	if must(c.Networks.Get(ctx(t), int(net.ID))).NeedFWApply {
		t.Fatal("need_fw_apply still set after ApplyRules")
	}
	if err := c.Networks.ApplyDNS(ctx(t), int(net.ID)); err != nil {
		t.Fatal(err)
	}
	if err := c.Networks.Reset(ctx(t), int(net.ID), true); err != nil {
		t.Fatal(err)
	}
	if err := c.Networks.PowerOff(ctx(t), int(net.ID)); err != nil {
		t.Fatal(err)
	}
	if must(c.Networks.Get(ctx(t), int(net.ID))).PowerState {
		t.Fatal("network still running after PowerOff")
	}
}

func TestNodesClustersAndMigration(t *testing.T) {
	t.Parallel()
	c := client(t)
	nodes := must(c.Nodes.List(ctx(t)))
	if len(nodes) < 2 || nodes[0].ID == 0 || nodes[0].Cores == 0 || nodes[0].RAM == 0 {
		t.Fatalf("nodes read back as %+v", nodes)
	}
	node := must(c.Nodes.Get(ctx(t), nodes[1].ID))
	if node.Name != nodes[1].Name {
		t.Fatalf("node %d read back as %+v", nodes[1].ID, node)
	}
	if physical := must(c.Nodes.ListPhysical(ctx(t))); len(physical) != len(nodes) {
		t.Fatalf("physical nodes: %d of %d", len(physical), len(nodes))
	}
	if byName := must(c.Nodes.GetByName(ctx(t), nodes[0].Name)); byName.ID != nodes[0].ID {
		t.Fatalf("node by name read back as %+v", byName)
	}
	clusters := must(c.Clusters.List(ctx(t)))
	if len(clusters) == 0 || !clusters[0].Enabled || !clusters[0].Compute || !clusters[0].Storage {
		t.Fatalf("clusters read back as %+v", clusters)
	}
	if byName := must(c.Clusters.GetByName(ctx(t), clusters[0].Name)); byName.Key != clusters[0].Key {
		t.Fatalf("cluster by name read back as %+v", byName)
	}
	status := must(c.Clusters.GetStatus(ctx(t), int(clusters[0].Key)))
	if status.TotalNodes != len(nodes) || status.Status != "online" || status.TotalRAM == 0 {
		t.Fatalf("cluster status read back as %+v", status)
	}
	vm := newVM(t, c, "compat-migrate")
	if err := c.VMs.PowerOn(ctx(t), int(vm.ID)); err != nil {
		t.Fatal(err)
	}
	placed := machineNode(t, c, vm.Machine)
	target := nodes[0].ID
	if target == placed {
		target = nodes[1].ID
	}
	if err := c.VMs.Migrate(ctx(t), int(vm.ID), &vergeos.VMMigrateOptions{TargetNode: target}); err != nil {
		t.Fatal(err)
	}
	eventually(t, func() bool { return machineNode(t, c, vm.Machine) == target }, func() string {
		return fmt.Sprintf("VM still on node %d, want %d", machineNode(t, c, vm.Machine), target)
	})
}

// eventually polls `holds` every 50 ms until it does, and fails the test with `state` after 30 s.
func eventually(t *testing.T, holds func() bool, state func() string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !holds() {
		if time.Now().After(deadline) {
			t.Fatal(state())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// machineNode reads the node a machine runs on (fields chosen: agent_guest_info is an array in
// the spec, an object in the client; see emulator/README.md).
func machineNode(t *testing.T, c *vergeos.Client, machine int) int {
	t.Helper()
	rows := must(c.MachineStatus.List(ctx(t), vergeos.WithFilter(fmt.Sprintf("machine eq %d", machine)),
		vergeos.WithFields("$key,machine,status,running,powerstate,node,node#name as node_name,migrated_node")))
	if len(rows) != 1 {
		t.Fatalf("machine %d: %d status rows", machine, len(rows))
	}
	return int(rows[0].Node)
}
