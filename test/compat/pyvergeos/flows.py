"""The maker's Python client (pyVergeOS) runs its own flows against a running emulator.

In CI: test/compat/pyvergeos.test.ts runs it with pyvergeos from PyPI (the version scripts/env.sh pins, in the
virtualenv its ensure_pyvergeos makes). By hand:

    REQUESTS_CA_BUNDLE=<the emulator CA file> "$VPLATFORM_PYVERGEOS_PYTHON" \
        test/compat/pyvergeos/flows.py <host:port> <admin password>

Each check is one call or a short flow of the client; the script prints one line per check and the count,
and exits 1 when one fails.
"""
import sys
import time

from pyvergeos import VergeClient

host, password = sys.argv[1], sys.argv[2]
client = VergeClient(host, username="admin", password=password, retry_total=0)
results = []


def check(name, flow):
    try:
        detail = flow()
        results.append((name, True, "" if detail is None else str(detail)[:100]))
    except Exception as error:  # a failed check is reported, the others still run
        results.append((name, False, f"{type(error).__name__}: {str(error)[:200]}"))


def wait(predicate, seconds=15):
    deadline = time.time() + seconds
    while time.time() < deadline:
        if predicate():
            return True
        time.sleep(0.2)
    raise AssertionError("timed out")


def expect(condition, message):
    if not condition:
        raise AssertionError(message)


state = {}

# System and inventory
check("system statistics (dashboard counts)", lambda: expect(client.system.statistics().vms_total >= 0, "no count"))
check("system statistics nodes_total is 2", lambda: expect(client.system.statistics().nodes_total == 2, "nodes"))
check("system inventory lists VMs' and networks' power", lambda: expect(len(client.system.inventory().networks) >= 1, "0 networks"))
check("clusters list", lambda: len(client.clusters.list()))
check("nodes list (machine stats)", lambda: expect(len(client.nodes.list()) == 2, "two nodes"))
check("storage tiers list", lambda: len(client.storage_tiers.list()))
check("files list", lambda: len(client.files.list()))
check("resource groups list", lambda: len(client.resource_groups.list()))
check("billing list", lambda: len(client.billing.list()))
check("catalog repositories list", lambda: len(client.catalog_repositories.list()) if hasattr(client, "catalog_repositories") else "n/a")

# Users, API keys, groups
check("users list", lambda: expect(any(u.name == "admin" for u in client.users.list()), "admin listed"))
check("user create", lambda: state.__setitem__("user", client.users.create("py-user", "Secr3t-pass!", email="py@example.test")))
check("user get by name", lambda: expect(client.users.get(name="py-user").get("email") == "py@example.test", "email"))
check("api key create", lambda: state.__setitem__("key", client.api_keys.create(user=state["user"].key, name="py-key")))
check("api keys list", lambda: expect(any(k.get("name") == "py-key" for k in client.api_keys.list()), "listed"))
check("group create", lambda: state.__setitem__("group", client.groups.create("py-group", description="from pyVergeOS")))
check("groups list", lambda: expect(any(g.name == "py-group" for g in client.groups.list()), "listed"))
check("group add user", lambda: client.groups.members(state["group"].key).add_user(state["user"].key))
check("group members list", lambda: expect(len(client.groups.members(state["group"].key).list()) == 1, "one member"))

# Networks
check("networks list (inventory)", lambda: expect(len(client.networks.list()) >= 1, "External"))
check("network create", lambda: state.__setitem__("net", client.networks.create("py-net", network_address="10.70.0.0/24")))
check("network power on (apply)", lambda: client.networks.get(state["net"].key).power_on())
check("network running", lambda: wait(lambda: any(n.name == "py-net" for n in client.networks.list_running())))
check("network apply rules", lambda: client.networks.get(state["net"].key).apply_rules())

# VMs and hardware
check("vm create", lambda: state.__setitem__("vm", client.vms.create("py-vm", ram=2048, cpu_cores=2)))
check("vms list", lambda: expect(any(v.name == "py-vm" for v in client.vms.list()), "listed"))
check("drive create", lambda: client.vms.get(state["vm"].key).drives.create(size_gb=10, name="py-disk"))
check("drives list", lambda: expect(len(client.vms.get(state["vm"].key).drives.list()) == 1, "one drive"))
check("nic create", lambda: client.vms.get(state["vm"].key).nics.create(network=state["net"].key, name="py-nic"))
check("nics list", lambda: expect(len(client.vms.get(state["vm"].key).nics.list()) == 1, "one nic"))
check("tpm create", lambda: client.vms.get(state["vm"].key).devices.create_tpm())
check("devices list", lambda: expect(len(client.vms.get(state["vm"].key).devices.list()) == 1, "one device"))
check("vm power on", lambda: client.vms.get(state["vm"].key).power_on())
check("vm running", lambda: wait(lambda: any(v.name == "py-vm" for v in client.vms.list_running())))
check("vm power off", lambda: client.vms.get(state["vm"].key).power_off(force=True))
check("vm snapshots list", lambda: len(client.vms.get(state["vm"].key).snapshots.list()))

# Tags, tasks, webhooks
check("tag category create", lambda: state.__setitem__("cat", client.tag_categories.create("py-cat", taggable_vms=True)))
check("tag categories list", lambda: len(client.tag_categories.list()))
check("tag create", lambda: client.tags.create("py-tag", category_key=state["cat"].key))
check("tags list", lambda: expect(any(t.name == "py-tag" for t in client.tags.list()), "listed"))
check("webhook create", lambda: state.__setitem__("hook", client.webhooks.create("py-hook", "http://127.0.0.1:9/hook")))
check("webhooks list", lambda: len(client.webhooks.list()))
check("tasks list", lambda: len(client.tasks.list()))
check("cloud-init files list", lambda: len(client.cloudinit_files.list()))

# NAS (the emulator started with a volume named "data")
check("NAS services list", lambda: expect(len(client.nas_services.list()) == 1, "one service"))
check("NAS volumes list", lambda: expect(any(v.name == "data" for v in client.nas_volumes.list()), "data listed"))

# Deletes
check("vm delete", lambda: client.vms.delete(state["vm"].key))
check("group delete", lambda: client.groups.delete(state["group"].key))
check("user delete", lambda: client.users.delete(state["user"].key))
check("network power off and delete", lambda: (client.networks.get(state["net"].key).power_off(force=True),
                                               wait(lambda: not any(n.name == "py-net" for n in client.networks.list_running())),
                                               client.networks.delete(state["net"].key)))

for name, ok, detail in results:
    print(f"{'PASS' if ok else 'FAIL'}  {name}{'  — ' + detail if detail and not ok else ''}")
passed = sum(1 for _, ok, _ in results if ok)
print(f"pyVergeOS flows: {passed} of {len(results)} pass")
sys.exit(0 if passed == len(results) else 1)
