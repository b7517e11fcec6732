"""Runs one Pulumi Python program for tools/pulumi-language-python (ours; see README.md).

    python -u run_program.py --monitor=ADDR --engine=ADDR --project=P --stack=S --pwd=DIR --parallel=N
        [--dry-run] [--organization=O] [--root-directory=DIR] [--tracing=URL] PROGRAM [ARGS...]

(the flags of the Node.js SDK's runner: both hosts pass them alike, tools/languagehost RunnerFlags).

PROGRAM is a file or a directory with __main__.py. Exit 32 means the error has already been reported to the
engine (a diagnostic); the host then fails the run without a message of its own.
"""
import argparse
import asyncio
import logging
import os
import runpy
import sys
import traceback
from concurrent.futures import ThreadPoolExecutor

REPORTED = 32

try:
    import pulumi
    import pulumi.runtime
except ImportError:
    print(traceback.format_exc(), file=sys.stderr)
    print("The pulumi package is not installed for %s: pip install -r requirements.txt "
          "(inside the project's virtualenv, when Pulumi.yaml names one)." % sys.executable, file=sys.stderr)
    sys.exit(1)

parser = argparse.ArgumentParser()
for name in ("monitor", "engine", "project", "stack", "pwd", "parallel", "organization", "root-directory", "tracing"):
    parser.add_argument("--" + name)
parser.add_argument("--dry-run", action="store_true")
parser.add_argument("program")
parser.add_argument("args", nargs="*")
args = parser.parse_args()

pulumi.runtime.set_all_config(pulumi.runtime.get_config_env(), pulumi.runtime.get_config_secret_keys_env())
parallel = int(args.parallel or 0)
pulumi.runtime.configure(pulumi.runtime.Settings(
    monitor=args.monitor, engine=args.engine, project=args.project, stack=args.stack, parallel=parallel,
    dry_run=args.dry_run, organization=args.organization, root_directory=args.root_directory))

sys.argv = [args.program] + args.args
if args.pwd:
    os.chdir(args.pwd)
# The program's own directory first on sys.path, as `python <program>` would have it.
sys.path.insert(0, args.program if os.path.isdir(args.program) else os.path.dirname(os.path.abspath(args.program)))

loop = asyncio.new_event_loop()
asyncio.set_event_loop(loop)
executor = ThreadPoolExecutor(max_workers=max(parallel, 1) * 4)
loop.set_default_executor(executor)
# Outputs left unresolved when a program fails make asyncio log noise that is not the user's error.
logging.getLogger("asyncio").setLevel(logging.CRITICAL)

code = 1
try:
    loop.run_until_complete(pulumi.runtime.run_in_stack(lambda: runpy.run_path(args.program, run_name="__main__")))
    code = 0
except pulumi.RunError as error:
    pulumi.log.error(str(error))
    code = REPORTED
except Exception:
    pulumi.log.error("Program failed with an unhandled exception:\n" + traceback.format_exc())
    code = REPORTED
finally:
    executor.shutdown(wait=True)
    loop.close()
    sys.stdout.flush()
    sys.stderr.flush()
sys.exit(code)
