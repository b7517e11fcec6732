"""A class lab: three copies of one VM, each on its own /24 of the pool (python-class-01, -02, -03)."""
import pulumi
import pulumi_vplatform as vp

config = pulumi.Config()
GiB = 1024**3

course = vp.Lab("python-class", copies=3, pool="10.82.0.0/16", vms=[{
    "name": "web", "cpu_cores": 1, "ram": config.get_int("ram") or 1024, "power_state": "running",
    "drives": [{"name": "os", "media": "disk", "disksize": 10 * GiB}],
    "nics": [{"name": "eth0"}],
}])

pulumi.export("copies", course.copies)
