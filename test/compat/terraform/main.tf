terraform {
  required_providers {
    vergeio = { source = "verge-io/vergeio" }
  }
}
# The maker's Terraform provider's own resources and data sources against the emulator; run by hand (the provider
# is built from its source, which the Go module proxy does not serve): see emulator/README.md.
variable "host" { type = string }     # the emulator's URL, https://127.0.0.1:<port>
variable "password" { type = string } # the emulator's admin password

provider "vergeio" {
  host     = var.host
  username = "admin"
  password = var.password
  insecure = true
}
data "vergeio_version" "v" {}
data "vergeio_clusters" "all" {}
data "vergeio_nodes" "all" {}
data "vergeio_networks" "external" { filter_name = "External" }
data "vergeio_groups" "admins" { filter_name = "Administrators (default)" }
data "vergeio_mediasources" "all" {}
data "vergeio_vms" "all" {}

resource "vergeio_network" "net" {
  name         = "tf-net"
  ipaddress    = "10.80.0.1"
  dhcp_enabled = false
}
resource "vergeio_vm" "vm" {
  name         = "tf-vm"
  description  = "made by the maker's Terraform provider"
  cpu_cores    = 2
  ram          = 2048
  machine_type = "q35"
  os_family    = "linux"
}
resource "vergeio_drive" "disk" {
  machine        = vergeio_vm.vm.machine
  name           = "tf-disk"
  interface      = "virtio-scsi"
  media          = "disk"
  disksize       = 10
  preferred_tier = "1"
}
resource "vergeio_nic" "nic" {
  machine   = vergeio_vm.vm.machine
  name      = "tf-nic"
  interface = "virtio"
  vnet      = vergeio_network.net.id
}
resource "vergeio_user" "user" {
  name         = "tf-user"
  displayname  = "Terraform user"
  email        = "tf@example.test"
  password     = "Tf-passw0rd!"
  enabled      = true
}
resource "vergeio_member" "member" {
  group  = data.vergeio_groups.admins.groups[0].id
  member = "/v4/users/${vergeio_user.user.id}"
}
output "version" { value = data.vergeio_version.v }
output "nodes" { value = length(data.vergeio_nodes.all.nodes) }
output "groups" { value = data.vergeio_groups.admins.groups }
