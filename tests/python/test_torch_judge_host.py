"""The torch judge's hold on what its runners start (torch_judge_host): a
process that left its runner's group with setsid, and outlived the runner,
comes back to the judge as its subreaper and is killed before the result."""
import os
import subprocess
import sys
import time
import unittest

import torch_judge_host as host

# A runner stand-in: starts a grandchild that calls setsid (leaving the
# group a kill of the runner reaches) and sleeps, then exits itself.
ESCAPE = """
import os, sys, time
if os.fork() == 0:
    os.setsid()
    with open(sys.argv[1], "w") as f:
        f.write(str(os.getpid()))
    time.sleep(60)
    os._exit(0)
time.sleep(0.2)
"""


def alive(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(")")[-1].split()[0] != "Z"
    except OSError:
        return False


class LeftoverProcesses(unittest.TestCase):
    def test_an_escaped_grandchild_is_killed_and_counted(self):
        if os.fork() == 0:  # a judge of its own, so the test runner's children are not touched
            code = 1
            try:
                self.assertTrue(host.become_subreaper())
                marker = os.path.join(os.environ.get("TMPDIR", "/tmp"), f"kw-escape-{os.getpid()}")
                runner = subprocess.Popen([sys.executable, "-c", ESCAPE, marker], start_new_session=True)
                runner.wait()
                for _ in range(200):
                    if os.path.exists(marker) and os.path.getsize(marker):
                        break
                    time.sleep(0.01)
                with open(marker) as f:
                    escaped = int(f.read())
                os.unlink(marker)
                self.assertTrue(alive(escaped), "the grandchild outlived its parent")
                self.assertIn(escaped, [pid for pid, _ in host.children_of(os.getpid())], "orphans come back to the judge")
                self.assertEqual(host.kill_descendants(), 1)
                self.assertFalse(alive(escaped))
                self.assertEqual(host.children_of(os.getpid()), [])
                code = 0
            finally:
                os._exit(code)
        _, status = os.wait()
        self.assertEqual(os.waitstatus_to_exitcode(status), 0)


if __name__ == "__main__":
    unittest.main()
