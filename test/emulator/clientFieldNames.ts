/**
 * The table field names the maker's clients send — in `fields`, in `filter` and in POST/PUT bodies — per table
 * of this emulator and per client, extracted by reading their sources (never copied: names only):
 * - pyVergeOS: github.com/verge-io/pyVergeOS 6c83f8c
 * - govergeos: github.com/verge-io/govergeos v0.1.9
 * - terraformProvider: github.com/verge-io/terraform-provider-vergeio
 * Each entry names the client files the names come from. `clientFieldNames.test.ts` fails when one is unknown.
 * Names of tables the emulator does not have are left out (those calls answer 404 for the whole table).
 */

/** Where a client sends a name: `fields`, `filter`, or a POST/PUT body. */
export type NameUse = "fields" | "filter" | "body";
export type MakerClient = "pyVergeOS" | "govergeos" | "terraformProvider";
export type ClientFieldNames = Record<string, Partial<Record<MakerClient, Partial<Record<NameUse, string[]>>>>>;

export const CLIENT_FIELD_NAMES: ClientFieldNames = {
  auth_sources: {
    // pyvergeos/resources/auth_sources.py
    pyVergeOS: {
      fields: ["$key", "button_background_color", "button_color", "button_fa_icon", "debug", "debug_ts", "driver", "icon_color",
        "menu", "name"],
      filter: ["driver", "name"],
      body: ["button_background_color", "button_color", "button_fa_icon", "debug", "icon_color", "menu", "name", "settings"],
    },
  },
  billing: {
    // pyvergeos/resources/billing.py
    pyVergeOS: {
      fields: ["$key", "created", "description", "from", "gpus", "gpus_idle", "gpus_total", "online_cores", "online_nodes",
        "online_ram", "phys_ram_used", "phys_total_cpu", "phys_vram_used", "running_machines", "sent", "storage_datapoints",
        "tier_0_total", "tier_0_used", "tier_1_total", "tier_1_used", "tier_2_total", "tier_2_used", "tier_3_total",
        "tier_3_used", "tier_4_total", "tier_4_used", "tier_5_total", "tier_5_used", "to", "total_cores", "total_nodes",
        "total_ram", "used_cores", "used_ram", "vgpus", "vgpus_idle", "vgpus_total", "workload_datapoints"],
      filter: ["created"],
    },
  },
  billing_actions: {
    // pyvergeos/resources/billing.py
    pyVergeOS: {
      body: ["action"],
    },
  },
  catalog_repositories: {
    // pyvergeos/resources/catalogs.py
    pyVergeOS: {
      fields: ["$key", "allow_insecure", "auto_refresh", "description", "enabled", "last_refreshed", "max_tier", "name",
        "override_default_scope", "status#state as status_state", "status#status as status_value", "type", "url", "user"],
      filter: ["enabled", "name", "type"],
      body: ["allow_insecure", "auto_refresh", "description", "enabled", "max_tier", "name", "override_default_scope",
        "password", "url", "user"],
    },
  },
  cloudinit_files: {
    // pyvergeos/resources/cloudinit_files.py
    pyVergeOS: {
      fields: ["$key", "allocated_bytes", "contains_variables", "creator", "filesize", "modified", "name", "owner", "render",
        "used_bytes"],
      filter: ["name", "owner", "render"],
      body: ["contents", "name", "render"],
    },
    // cloudinit.go
    govergeos: {
      fields: ["$key", "allocated_bytes", "contains_variables", "contents", "creator", "filesize", "modified", "name", "owner",
        "render", "used_bytes"],
    },
  },
  clusters: {
    // pyvergeos/resources/clusters.py, pyvergeos/resources/system.py
    pyVergeOS: {
      fields: ["$key", "compute", "cores_per_unit", "created", "default_cpu", "description", "enabled", "kvm_nested",
        "max_cores_per_vm", "max_ram_per_vm", "name", "ram_overcommit_pct", "ram_per_unit", "recommended_cpu_type",
        "status#display(status) as status_display", "status#online_cores as online_cores", "status#online_nodes as online_nodes",
        "status#online_ram as online_ram", "status#running_machines as running_machines", "status#status as status_state",
        "status#total_cores as total_cores", "status#total_nodes as total_nodes", "status#total_ram as total_ram",
        "status#used_cores as used_cores", "status#used_ram as used_ram", "storage", "target_ram_pct"],
      filter: ["compute", "enabled", "name", "storage"],
      body: ["allow_nested_virt_migration", "allow_vgpu_migration", "compute", "cores_per_unit", "cost_per_unit",
        "critical_core_temp", "default_cpu", "description", "disable_cpu_security_mitigations", "disable_sleep", "disable_smt",
        "enable_nvme_power_management", "enable_split_lock_detection", "enabled", "kvm_nested", "log_filter", "max_core_temp",
        "max_core_temp_warn_perc", "max_cores_per_vm", "max_ram_per_vm", "name", "price_per_unit", "ram_overcommit_pct",
        "ram_per_unit", "scaling_governor", "storage_buffersize", "storage_cachesize", "storage_hugepages", "swap_per_drive",
        "swap_tier", "target_ram_pct", "x86_energy_perf_policy"],
    },
    // cluster.go
    govergeos: {
      fields: ["$key", "allow_nested_virt_migration", "allow_vgpu_migration", "compute", "cores_per_unit", "cost_per_unit",
        "created", "critical_core_temp", "default_cpu", "description", "disable_cpu_security_mitigations", "disable_sleep",
        "disable_smt", "enable_nvme_power_management", "enable_split_lock_detection", "enabled", "id", "kvm_nested",
        "log_filter", "max_core_temp", "max_core_temp_warn_perc", "max_cores_per_vm", "max_ram_per_vm", "name", "price_per_unit",
        "ram_overcommit_pct", "ram_per_unit", "recommended_cpu_type", "scaling_governor", "spec_store_bypass_disable",
        "status[cluster,status,status_info,state,last_update,total_nodes,online_nodes,running_machines," +
        "total_ram,online_ram,used_ram,total_cores,online_cores,used_cores,phys_ram_used,phys_vram_used," +
        "phys_total_cpu]", "storage", "storage_buffersize", "storage_cachesize", "storage_hugepages", "swap_per_drive",
        "swap_tier", "system", "target_ram_pct", "x86_energy_perf_policy"],
    },
    // vergeio/data_source_clusters.go
    terraformProvider: {
      fields: ["$key", "description", "name"],
      filter: ["name"],
    },
  },
  files: {
    // pyvergeos/resources/drives.py, pyvergeos/resources/system.py
    pyVergeOS: {
      fields: ["$key", "name", "path"],
      filter: ["name"],
    },
    // file.go
    govergeos: {
      fields: ["$key", "allocated_bytes", "creator", "description", "filesize", "modified", "name", "owner", "preferred_tier",
        "type", "url", "used_bytes"],
    },
    // vergeio/data_source_mediasources.go
    terraformProvider: {
      fields: ["$key", "description", "filesize", "name"],
    },
  },
  groups: {
    // pyvergeos/resources/groups.py
    pyVergeOS: {
      fields: ["$key", "count(members) as member_count", "created", "creator", "description", "email", "enabled", "id",
        "identity", "name", "system_group"],
      filter: ["enabled", "name", "system_group"],
      body: ["description", "email", "enabled", "id", "name"],
    },
    // group.go
    govergeos: {
      fields: ["$key", "auth_source", "created", "creator", "description", "email", "enabled", "name", "system_group", "type"],
    },
    // vergeio/data_source_groups.go
    terraformProvider: {
      fields: ["$key", "description", "enabled", "name"],
      filter: ["name"],
    },
  },
  machine_devices: {
    // pyvergeos/resources/devices.py
    pyVergeOS: {
      fields: ["$key", "created", "description", "enabled", "machine", "machine#name as machine_name", "machine_type",
        "modified", "name", "optional", "orderid", "resource_group", "resource_group#name as resource_group_name",
        "status#status as device_status", "status#status_info as status_info", "type", "uuid"],
      filter: ["enabled", "name", "type"],
      body: ["count", "description", "name", "resource_group", "settings_args"],
    },
    // vm_device.go
    govergeos: {
      fields: ["$key", "asset", "created", "description", "enabled", "machine", "machine_type", "modified", "name", "optional",
        "orderid", "resource_group", "type", "uuid"],
      filter: ["machine"],
    },
  },
  machine_drives: {
    // pyvergeos/resources/drives.py
    pyVergeOS: {
      fields: ["$key", "description", "disksize", "enabled", "interface", "machine", "media", "media_source",
        "media_source#allocated_bytes as allocated_bytes", "media_source#name as media_file", "name", "orderid",
        "preferred_tier", "readonly", "serial", "status#display(status) as status_display", "status#status as status",
        "used_bytes"],
      filter: ["name"],
      body: ["description", "disksize", "media_source", "name", "preferred_tier", "readonly"],
    },
    // vm_drive.go
    govergeos: {
      fields: ["$key", "advanced", "asset", "description", "discard", "disksize", "enabled", "fsync", "interface", "machine",
        "media", "media_source", "name", "optimize", "orderid", "preferred_tier", "preserve_drive_format", "readonly", "serial",
        "used_bytes"],
      filter: ["machine"],
    },
    // vergeio/resource_drive.go
    terraformProvider: {
      body: ["asset", "description", "disksize", "enabled", "interface", "machine", "media", "media_source", "name",
        "preferred_tier", "preserve_drive_format", "readonly", "serial"],
    },
  },
  machine_nics: {
    // pyvergeos/resources/nics.py
    pyVergeOS: {
      fields: ["$key", "description", "enabled", "interface", "ipaddress", "macaddress", "machine", "name", "orderid",
        "stats#rx_bytes as rx_bytes", "stats#rxbps as rxbps", "stats#tx_bytes as tx_bytes", "stats#txbps as txbps",
        "status#display(status) as status_display", "status#speed as speed", "status#status as status", "vnet",
        "vnet#$key as vnet_key", "vnet#machine#status#status as vnet_status", "vnet#name as vnet_name"],
      filter: ["name"],
      body: ["description", "ipaddress", "macaddress", "name", "vnet"],
    },
    // machine_nic.go, vm_nic.go
    govergeos: {
      fields: ["$key", "asset", "description", "device", "disable_mq", "driver", "enabled", "interface", "ipaddress",
        "macaddress", "machine", "model", "name", "orderid", "port", "stats[all]", "status[all]", "vendor", "vnet"],
      filter: ["machine"],
    },
    // vergeio/resource_nic.go
    terraformProvider: {
      body: ["asset", "description", "driver", "enabled", "interface", "macaddress", "machine", "model", "name", "port",
        "vendor", "vnet"],
    },
  },
  machine_snapshots: {
    // pyvergeos/resources/snapshots.py
    pyVergeOS: {
      fields: ["$key", "created", "created_manually", "description", "expires", "expires_type", "machine", "name", "quiesced",
        "snap_machine", "snapshot_period"],
      filter: ["name"],
      body: ["description", "expires"],
    },
    // vm_snapshot.go
    govergeos: {
      fields: ["$key", "created", "created_manually", "description", "expires", "expires_type", "machine",
        "machine#$display as machine_display", "machine#snapshot_profile#$display as snapshot_profile", "name", "queue_delete",
        "quiesce", "quiesced", "snap_machine", "snapshot_period"],
    },
  },
  machine_status: {
    // pyvergeos/resources/machine_stats.py
    pyVergeOS: {
      fields: ["$key", "agent_features", "agent_guest_info", "agent_version", "last_update", "local_time", "machine",
        "migratable", "migrated_node", "migration_destination", "node", "node#name as node_name", "powerstate", "running",
        "running_cores", "running_ram", "started", "state", "status", "status_info"],
    },
    // machine_status.go
    govergeos: {
      fields: ["$key", "agent_features", "agent_guest_info", "agent_version", "last_update", "local_time", "machine",
        "migratable", "migrated_node", "migration_destination", "node", "node#name as node_name", "powerstate", "running",
        "running_cores", "running_ram", "started", "state", "status", "status_info"],
      filter: ["machine"],
    },
  },
  members: {
    // pyvergeos/resources/groups.py
    pyVergeOS: {
      fields: ["$key", "creator", "member", "member#$display as member_display", "parent_group"],
      filter: ["parent_group"],
      body: ["member", "parent_group"],
    },
    // member.go
    govergeos: {
      fields: ["$key", "creator", "member", "parent_group", "system"],
    },
    // vergeio/resource_member.go
    terraformProvider: {
      body: ["member", "parent_group"],
    },
  },
  node_nvidia_vgpu_devices: {
    // pyvergeos/resources/gpu.py
    pyVergeOS: {
      fields: ["$key", "created", "device", "driver", "fingerprint", "iommu_group", "max_instances", "modified", "module",
        "name", "node", "node#name as node_name", "numa", "pci_device", "physical_function", "slot", "type_id", "vendor",
        "vendor_device_hex", "virtfn"],
      filter: ["node", "vendor"],
    },
  },
  nodes: {
    // pyvergeos/resources/nodes.py, pyvergeos/resources/system.py
    pyVergeOS: {
      fields: ["$key", "appserver_version", "asset_tag", "cluster", "cluster#name as cluster_name", "cores", "cpu", "cpu_speed",
        "description", "failover_ram", "iommu", "ipmi_address", "ipmi_status", "kernel_version", "machine",
        "machine#stats#core_temp as core_temp", "machine#stats#ram_used as ram_used", "machine#stats#total_cpu as cpu_usage",
        "machine#stats#vram_used as vram_used", "machine#status#display(status) as status_display",
        "machine#status#running as running", "machine#status#started as started", "machine#status#status as status",
        "maintenance", "model", "name", "need_restart", "os_version", "overcommit", "physical", "qemu_version", "ram",
        "restart_reason", "vm_ram", "vsan_connected", "vsan_nodeid", "vsan_version", "yb_version"],
      filter: ["cluster#name", "maintenance", "name"],
    },
    // node.go
    govergeos: {
      fields: ["appserver_version", "asset_tag", "capture_logs", "cluster", "cores", "cpu", "cpu_speed", "critical_core_temp",
        "dashboard", "description", "failover_ram", "id", "iommu", "ipmi_address", "ipmi_status", "ipmi_status_info",
        "ipmi_user", "kernel_version", "lldp", "machine", "maintenance", "max_core_temp", "max_core_temp_warn_perc", "model",
        "name", "need_restart", "note", "os_version", "overcommit", "physical", "pxe_vnet", "qemu_version", "ram",
        "restart_reason", "vm_ram", "vsan_connected", "vsan_nodeid", "vsan_version", "yb_version"],
    },
    // vergeio/data_source_nodes.go
    terraformProvider: {
      fields: ["description", "id", "name"],
      filter: ["name"],
    },
  },
  resource_groups: {
    // pyvergeos/resources/resource_groups.py
    pyVergeOS: {
      fields: ["$key", "class", "count(resources) as resource_count", "created", "description",
        "display(class) as class_display", "display(type) as type_display", "enabled", "modified", "name", "type", "uuid"],
      filter: ["enabled", "name", "uuid"],
      body: ["class", "description", "key_args", "settings_args"],
    },
    // resourcegroup.go
    govergeos: {
      fields: ["$key", "description", "enabled", "name", "type"],
    },
  },
  storage_tiers: {
    // pyvergeos/resources/storage_tiers.py, pyvergeos/resources/system.py, pyvergeos/resources/tenant_storage.py
    pyVergeOS: {
      fields: ["$key", "capacity", "description", "tier", "used"],
      filter: ["tier"],
    },
    // vsan.go
    govergeos: {
      fields: ["$key", "allocated", "capacity", "dedupe_ratio", "description", "modified",
        "stats[reads,writes,read_bytes,write_bytes,rops,wops,rbps,wbps]", "tier", "used", "used_inflated", "used_pct"],
    },
  },
  tag_categories: {
    // pyvergeos/resources/tags.py
    pyVergeOS: {
      fields: ["$key", "created", "description", "modified", "name", "single_tag_selection", "taggable_clusters",
        "taggable_groups", "taggable_nodes", "taggable_sites", "taggable_tenant_nodes", "taggable_tenants", "taggable_users",
        "taggable_vms", "taggable_vmware_containers", "taggable_vnet_rules", "taggable_vnets", "taggable_volumes"],
      filter: ["name"],
      body: ["description", "name", "single_tag_selection", "taggable_clusters", "taggable_groups", "taggable_nodes",
        "taggable_sites", "taggable_tenant_nodes", "taggable_tenants", "taggable_users", "taggable_vms",
        "taggable_vmware_containers", "taggable_vnet_rules", "taggable_vnets", "taggable_volumes"],
    },
    // tag_category.go
    govergeos: {
      fields: ["$key", "created", "description", "modified", "name", "single_tag_selection", "taggable_clusters",
        "taggable_groups", "taggable_nodes", "taggable_sites", "taggable_tenant_nodes", "taggable_tenants", "taggable_users",
        "taggable_vms", "taggable_vmware_containers", "taggable_vnet_rules", "taggable_vnets", "taggable_volumes"],
    },
  },
  tag_members: {
    // pyvergeos/resources/tags.py, pyvergeos/resources/vms.py
    pyVergeOS: {
      fields: ["$key", "tag", "tag#category#name as category_name", "tag#name as tag_name"],
      filter: ["member"],
      body: ["member", "tag"],
    },
    // tagmember.go
    govergeos: {
      fields: ["$key", "member", "tag"],
    },
  },
  tags: {
    // pyvergeos/resources/tags.py
    pyVergeOS: {
      fields: ["$key", "category", "category#name as category_name", "created", "description", "modified", "name"],
      filter: ["category", "name"],
      body: ["description", "name"],
    },
    // tag.go
    govergeos: {
      fields: ["$key", "category", "category#$display as category_display", "created", "description", "modified", "name"],
    },
  },
  task_events: {
    // pyvergeos/resources/task_events.py
    pyVergeOS: {
      fields: ["$key", "context", "event", "event_name", "owner", "owner#$display as owner_display", "table",
        "table_event_filters", "task", "task#$display as task_display", "task#name as task_name", "trigger"],
      filter: ["event", "owner", "table", "task"],
      body: ["context", "event_name", "table_event_filters"],
    },
  },
  task_schedule_triggers: {
    // pyvergeos/resources/task_schedule_triggers.py
    pyVergeOS: {
      fields: ["$key", "display(schedule) as schedule_display", "display(task) as task_display",
        "flatten(schedule[$key as sch_$key,enabled as sch_enabled," +
        "start_time_of_day as sch_start_time_of_day,repeat_iteration as sch_repeat_iteration," +
        "end_date as sch_end_date,display(day_of_month) as sch_day_of_month," +
        "display(repeat_every) as sch_repeat_every])", "schedule", "task", "trigger"],
      filter: ["schedule", "task"],
    },
  },
  task_schedules: {
    // pyvergeos/resources/task_schedules.py
    pyVergeOS: {
      fields: ["$key", "all_day", "creator", "creator#$display as creator_display", "day_of_month", "description", "enabled",
        "end_date", "end_time_of_day", "friday", "monday", "name", "repeat_every", "repeat_iteration", "saturday", "start_date",
        "start_date_epoch", "start_time_of_day", "sunday", "system_created", "task", "task#$display as task_display", "thursday",
        "tuesday", "wednesday"],
      filter: ["enabled", "name", "repeat_every"],
      body: ["day_of_month", "description", "enabled", "end_date", "end_time_of_day", "friday", "monday", "name", "repeat_every",
        "repeat_iteration", "saturday", "start_date", "start_time_of_day", "sunday", "task", "thursday", "tuesday", "wednesday"],
    },
  },
  tasks: {
    // pyvergeos/resources/tasks.py
    pyVergeOS: {
      fields: ["$key", "action", "action_display", "count(events) as events_count", "count(triggers) as triggers_count",
        "creator", "creator#$display as creator_display", "delete_after_run", "description", "enabled", "id", "last_run", "name",
        "owner", "owner#$display as owner_display", "status", "system_created", "table"],
      filter: ["action", "enabled", "name", "owner", "status"],
      body: ["delete_after_run", "description", "enabled", "name", "settings_args"],
    },
    // task.go
    govergeos: {
      fields: ["$key", "action", "action_display", "creator", "delete_after_run", "description", "enabled", "id", "last_run",
        "name", "owner", "status", "system_created", "table"],
    },
  },
  user_api_keys: {
    // pyvergeos/resources/api_keys.py
    pyVergeOS: {
      fields: ["$key", "created", "description", "expires", "ip_allow_list", "ip_deny_list", "lastlogin_ip", "lastlogin_stamp",
        "name", "user", "user#name as user_name"],
      filter: ["name", "user"],
      body: ["description", "expires", "expires_type", "ip_allow_list", "ip_deny_list"],
    },
    // api_key.go
    govergeos: {
      fields: ["$key", "created", "description", "expires", "expires_type", "ip_allow_list", "ip_deny_list", "lastlogin_ip",
        "lastlogin_stamp", "name", "user", "user#name as user_name"],
    },
  },
  users: {
    // pyvergeos/resources/users.py, pyvergeos/resources/vms.py
    pyVergeOS: {
      fields: ["$key", "account_locked", "auth_source", "auth_source#name as auth_source_name", "change_password", "created",
        "creator", "displayname", "email", "enabled", "failed_attempts", "identity", "last_login", "name", "physical_access",
        "remote_name", "two_factor_authentication", "two_factor_type", "type"],
      filter: ["enabled", "name", "type"],
      body: ["change_password", "displayname", "email", "enabled", "password", "physical_access", "ssh_keys",
        "two_factor_authentication", "two_factor_setup_next_login", "two_factor_type"],
    },
    // user.go
    govergeos: {
      fields: ["$key", "account_locked", "auth_source", "change_password", "created", "creator", "displayname", "email",
        "enabled", "failed_attempts", "id", "last_login", "name", "physical_access", "remote_name", "ssh_keys", "theme",
        "two_factor_authentication", "two_factor_type", "type"],
    },
    // vergeio/resource_user.go
    terraformProvider: {
      body: ["auth_source", "change_password", "displayname", "email", "enabled", "name", "password", "remote_name", "type"],
    },
  },
  vm_actions: {
    // pyvergeos/resources/nas_services.py, pyvergeos/resources/snapshots.py, pyvergeos/resources/vms.py
    pyVergeOS: {
      body: ["action", "params", "vm"],
    },
  },
  vm_services: {
    // pyvergeos/resources/nas_services.py, pyvergeos/resources/nas_users.py, pyvergeos/resources/nas_volume_syncs.py
    // pyvergeos/resources/nas_volumes.py
    pyVergeOS: {
      fields: ["$key", "cifs", "count(volumes) as volume_count", "disable_swap", "max_imports", "max_syncs", "name", "nfs",
        "read_ahead_kb_default", "vm", "vm#$display as vm_display", "vm#created as created", "vm#description as vm_description",
        "vm#machine#cores as vm_cores", "vm#machine#ram as vm_ram", "vm#machine#status#running as vm_running",
        "vm#machine#status#status as vm_status", "vm#modified as modified", "vm#name as vm_name"],
      filter: ["name"],
      body: ["disable_swap", "max_imports", "max_syncs", "read_ahead_kb_default"],
    },
    // nas_service.go
    govergeos: {
      fields: ["$key", "antivirus", "cifs", "created", "disable_swap", "enabled", "max_imports", "max_syncs", "modified", "name",
        "nfs", "read_ahead_kb_default", "vm"],
    },
  },
  vms: {
    // pyvergeos/resources/nas_services.py, pyvergeos/resources/snapshots.py, pyvergeos/resources/system.py
    // pyvergeos/resources/vms.py
    pyVergeOS: {
      fields: ["$key", "cloudinit_datasource", "cpu_cores", "created", "description", "enabled", "guest_agent", "is_snapshot",
        "machine", "machine#cluster as cluster_key", "machine#cluster#name as cluster_name", "machine#ha_group as ha_group",
        "machine#status#node as node_key", "machine#status#node#name as node_name", "machine#status#running as running",
        "machine#status#status as power_state", "machine#status#status as status", "machine_type", "modified", "name",
        "os_family", "ram", "secure_boot", "uefi"],
      filter: ["is_snapshot", "machine"],
      body: ["cloudinit_datasource", "cpu_cores", "description", "ram"],
    },
    // vm.go
    govergeos: {
      fields: ["$key", "allow_export", "allow_hotplug", "boot_delay", "boot_order", "cloudinit_datasource", "cluster",
        "cluster_failover", "console", "cpu_cores", "cpu_type", "created", "created_from", "creator", "description",
        "disable_hypervisor", "enabled", "guest_agent", "ha_group", "imported", "iommu", "is_snapshot", "machine",
        "machine#status#running as powerstate", "machine_type", "migration_method", "modified", "name", "need_restart",
        "nested_virtualization", "on_power_loss", "os_description", "os_family", "owner", "owner_user", "power_cycle_timeout",
        "preferred_node", "ram", "rtc_base", "secure_boot", "serial_port", "snapshot_profile", "sound", "uefi", "usb_legacy",
        "uuid", "video"],
    },
    // vergeio/data_source_vms.go, vergeio/resource_vm.go
    terraformProvider: {
      fields: ["$key", "is_snapshot", "machine", "name"],
      filter: ["name"],
      body: ["allow_hotplug", "boot_delay", "boot_order", "cluster", "console", "console_pass", "console_pass_enabled",
        "cpu_cores", "cpu_type", "description", "disable_powercycle", "display", "enabled", "machine", "machine_type", "name",
        "os_description", "os_family", "preferred_node", "ram", "rtc_base", "secure_boot", "serial_port", "snapshot_profile",
        "sound", "uefi", "usb_tablet", "video"],
    },
  },
  vnet_actions: {
    // pyvergeos/resources/networks.py
    pyVergeOS: {
      body: ["action", "params", "vnet"],
    },
  },
  vnets: {
    // pyvergeos/resources/nas_services.py, pyvergeos/resources/networks.py, pyvergeos/resources/nics.py
    // pyvergeos/resources/system.py, pyvergeos/resources/tenant_external_ips.py, pyvergeos/resources/tenant_layer2.py
    // pyvergeos/resources/tenant_network_blocks.py, pyvergeos/resources/vm_recipes.py
    pyVergeOS: {
      fields: ["$key", "description", "dhcp_enabled", "dhcp_start", "dhcp_stop", "dns", "domain", "enabled", "gateway",
        "interface_vnet", "ip", "ipaddress", "layer2_id", "layer2_type", "machine#status#running as running",
        "machine#status#status as power_state", "machine#status#status as status", "mtu", "name", "need_dns_apply",
        "need_fw_apply", "need_proxy_apply", "need_restart", "network", "nic#stats#rx_bytes as rx_bytes",
        "nic#stats#rx_pckts as rx_packets", "nic#stats#rxbps as rx_bps", "nic#stats#tx_bytes as tx_bytes",
        "nic#stats#tx_pckts as tx_packets", "nic#stats#txbps as tx_bps", "nic_dmz#stats#rx_bytes as dmz_rx_bytes",
        "nic_dmz#stats#rx_pckts as dmz_rx_packets", "nic_dmz#stats#rxbps as dmz_rx_bps",
        "nic_dmz#stats#tx_bytes as dmz_tx_bytes", "nic_dmz#stats#tx_pckts as dmz_tx_packets",
        "nic_dmz#stats#txbps as dmz_tx_bps", "on_power_loss", "proxy_enabled", "type"],
      filter: ["name", "running", "type"],
      body: ["dhcp_start", "dhcp_stop", "dnslist", "domain", "gateway", "interface_vnet", "ipaddress", "layer2_id", "mtu",
        "network"],
    },
    // network.go
    govergeos: {
      fields: ["$key", "bgp_asn", "cluster", "cluster_failover", "creator", "description", "dhcp_dynamic", "dhcp_enabled",
        "dhcp_sequential", "dhcp_start", "dhcp_stop", "dmz_ipaddress", "dmz_statistics", "dns", "dnslist", "domain",
        "enable_bonding", "enabled", "gateway", "ha_group", "hostname", "interface_vnet", "ipaddress", "ipaddress_type",
        "ipsec_enabled", "layer2_id", "layer2_type", "macaddress", "mirror_logs", "monitor_gateway", "monitor_interval_ms",
        "monitor_ip", "mtu", "name", "need_dns_apply", "need_fw_apply", "need_proxy_apply", "need_restart", "network",
        "network_dns", "note", "on_power_loss", "override_dhcp_dns", "physical_bridged", "port_mirroring", "port_mirroring_vnet",
        "powerstate", "preferred_node", "proxy_enabled", "proxy_listen_address", "pxe", "rate_limit", "rate_limit_burst",
        "rate_limit_type", "statistics", "tftp_server", "trace", "type", "vxlan_multicast"],
    },
    // vergeio/data_source_networks.go, vergeio/resource_network.go
    terraformProvider: {
      fields: ["$key", "description", "name"],
      filter: ["name"],
      body: ["dhcp_dynamic", "dhcp_enabled", "dhcp_sequential", "dhcp_start", "dhcp_stop", "enabled", "ipaddress", "name",
        "on_power_loss", "vnet_default_gateway"],
    },
  },
  volumes: {
    // pyvergeos/resources/nas_antivirus.py, pyvergeos/resources/nas_cifs.py, pyvergeos/resources/nas_nfs.py
    // pyvergeos/resources/nas_volumes.py
    pyVergeOS: {
      fields: ["$key", "automount_snapshots", "created", "creator", "description", "discard", "drive",
        "drive#media_source#filesize as allocated_bytes", "drive#media_source#used_bytes as used_bytes", "enabled", "encrypt",
        "fs_type", "id", "is_snapshot", "maxsize", "modified", "name", "note", "owner_group", "owner_user", "preferred_tier",
        "read_only", "service", "service#$display as service_display", "service#vm#$display as nas_vm_display",
        "service#vm#machine#status#status as nas_status", "snapshot_profile",
        "snapshot_profile#$display as snapshot_profile_display", "status#mounted as mounted", "status#status as mount_status"],
      filter: ["enabled", "fs_type", "id", "name", "service"],
      body: ["automount_snapshots", "description", "discard", "enabled", "maxsize", "owner_group", "owner_user",
        "preferred_tier", "read_only", "snapshot_profile"],
    },
    // volume.go
    govergeos: {
      fields: ["$key", "automount_snapshots", "cifs_protocol", "cifs_user", "created", "creator", "description", "discard",
        "drive", "enabled", "encrypt", "fs_type", "id", "is_snapshot", "maxsize", "modified", "mount_options", "name",
        "nfs_protocol", "optimize", "owner_group", "owner_user", "preferred_tier", "read_ahead_kb", "read_only", "remote_target",
        "service", "snapshot_profile"],
    },
  },
  webhook_url_actions: {
    // pyvergeos/resources/webhooks.py
    pyVergeOS: {
      body: ["params"],
    },
  },
  webhook_urls: {
    // pyvergeos/resources/webhooks.py
    pyVergeOS: {
      fields: ["$key", "allow_insecure", "authorization_type", "headers", "name", "retries", "timeout", "type", "url"],
      filter: ["authorization_type", "name"],
      body: ["allow_insecure", "authorization_type", "authorization_value", "headers", "name", "retries", "timeout", "url"],
    },
    // webhook.go
    govergeos: {
      fields: ["$key", "allow_insecure", "authorization_type", "headers", "name", "retries", "timeout", "type", "url"],
    },
  },
  webhooks: {
    // pyvergeos/resources/webhooks.py
    pyVergeOS: {
      fields: ["$key", "created", "last_attempt", "message", "status", "status_info", "webhook_url"],
      filter: ["status", "webhook_url"],
    },
    // webhook.go
    govergeos: {
      fields: ["$key", "created", "last_attempt", "message", "status", "status_info", "webhook_url"],
    },
  },
};
