"""The torch runner's seccomp filter (torch_seccomp), installed in a child
process as the runner installs it: what a candidate's process may no longer
do to the processes around it, and what an honest kernel's build and
threads still do under it. Also the judge's view of a runner's tree
(torch_judge_host.tree_of), which reaches a process in a group of its own."""
import os
import platform
import signal
import subprocess
import sys
import threading
import time
import unittest

import forked
import torch_judge_host as host
import torch_seccomp

HERE = os.path.dirname(os.path.abspath(torch_seccomp.__file__))


def in_child(body):
    """body() in a forked child that installs the filter first."""

    def installed():
        out = {"install": torch_seccomp.install()}
        if out["install"] == "":
            out.update(body())
        return out

    return forked.in_child(installed)


def outcome(f):
    got = forked.outcome(f)
    return "EPERM" if got == "refused" else got


@unittest.skipUnless(platform.system() == "Linux" and platform.machine() == "x86_64", "the filter is for x86-64 Linux")
class RunnerFilter(unittest.TestCase):
    def test_what_would_reach_other_processes_is_refused(self):
        judge = os.getpid()

        def body():
            return {
                "setsid": outcome(os.setsid),
                "signal the judge": outcome(lambda: os.kill(judge, signal.SIGCONT)),
                "signal its own group": outcome(lambda: os.killpg(0, signal.SIGCONT)),
                "signal every process": outcome(lambda: os.kill(-1, signal.SIGCONT)),
                "move to a CPU": outcome(lambda: os.sched_setaffinity(0, {0})),
                "lower its priority": outcome(lambda: os.nice(1)),
                "scheduler": outcome(lambda: os.sched_setscheduler(0, os.SCHED_BATCH, os.sched_param(0))),
                "child leaves the session": str(subprocess.run([sys.executable, "-c", "import os; os.setsid()"],
                                                               capture_output=True).returncode),
                "namespaces": str(subprocess.run(["unshare", "--user", "--pid", "--fork", "true"], capture_output=True).returncode),
            }

        got = in_child(body)
        self.assertEqual(got.pop("install"), "")
        self.assertNotIn("crash", got)
        for what in ("setsid", "signal the judge", "signal its own group", "signal every process", "move to a CPU",
                     "lower its priority", "scheduler"):
            self.assertEqual(got[what], "EPERM", what)
        self.assertNotEqual(got["child leaves the session"], "0")  # inherited by what it starts
        self.assertNotEqual(got["namespaces"], "0")

    def test_honest_work_still_runs(self):
        def body():
            seen = []
            signal.signal(signal.SIGUSR1, lambda *_: seen.append("usr1"))
            t = threading.Thread(target=lambda: seen.append("thread"))
            t.start()
            t.join()
            out = {
                "signal itself": outcome(lambda: os.kill(os.getpid(), signal.SIGUSR1)),
                "raise a signal": outcome(lambda: signal.raise_signal(signal.SIGUSR1)),
                "ask whether the judge lives": outcome(lambda: os.kill(os.getppid(), 0)),
                # a build: a process started and waited for, in a group of its own as ninja starts compilers
                "a compiler in a group of its own": str(subprocess.run(["sh", "-c", "echo ok"], capture_output=True,
                                                                       process_group=0).stdout.strip()),
                "a process": subprocess.run([sys.executable, "-c", "print(6 * 7)"], capture_output=True, text=True).stdout.strip(),
            }
            time.sleep(0.05)
            out["seen"] = ",".join(seen)
            return out

        got = in_child(body)
        self.assertEqual(got.pop("install"), "")
        self.assertNotIn("crash", got)
        self.assertEqual(got["signal itself"], "allowed")
        self.assertEqual(got["raise a signal"], "allowed")
        self.assertEqual(got["ask whether the judge lives"], "allowed")
        self.assertEqual(got["a compiler in a group of its own"], "b'ok'")
        self.assertEqual(got["a process"], "42")
        self.assertEqual(got["seen"], "thread,usr1,usr1")

    def test_threads_started_before_the_filter_are_under_it(self):
        r, w = os.pipe()
        pid = os.fork()
        if pid == 0:  # the thread must exist before install: started here by hand
            os.close(r)
            go, got = threading.Event(), {}

            def early():
                go.wait()
                got["early"] = outcome(os.setsid)

            t = threading.Thread(target=early)
            t.start()
            got["install"] = torch_seccomp.install()
            go.set()
            t.join()
            got["filters"] = torch_seccomp.filters_of(os.getpid())
            got["confirmed"] = torch_seccomp.confirmed(os.getpid(), os.getppid())
            os.write(w, repr(got).encode())
            os._exit(0)
        os.close(w)
        data = os.read(r, 65536)
        os.close(r)
        os.waitpid(pid, 0)
        got = eval(data.decode())
        self.assertEqual(got["install"], "")
        self.assertEqual(got["early"], "EPERM")
        self.assertGreater(got["filters"], torch_seccomp.filters_of(os.getpid()))
        self.assertTrue(got["confirmed"])
        self.assertFalse(torch_seccomp.confirmed(os.getpid(), os.getpid()))  # this process installed none of its own


class RunnerTree(unittest.TestCase):
    def test_a_process_in_a_group_of_its_own_is_in_the_tree(self):
        # A runner stand-in whose child moves to a group of its own: a signal
        # to the runner's group misses it, the tree does not.
        code = "import os, subprocess, sys, time\np = subprocess.Popen(['sleep', '30'], process_group=0)\nprint(p.pid, flush=True)\ntime.sleep(30)\n"
        runner = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True, start_new_session=True)
        try:
            child = int(runner.stdout.readline())
            runner.stdout.close()
            self.assertIn(child, host.tree_of(runner.pid))
            self.assertIn(child, host.children_now(runner.pid))
            self.assertEqual(host.group_of(runner.pid), runner.pid)
            self.assertEqual(host.group_of(child), child)
            self.assertEqual(host.signal_all(host.tree_of(runner.pid), signal.SIGKILL), [child])
        finally:
            os.killpg(runner.pid, signal.SIGKILL)
            runner.wait()
        self.assertEqual(host.tree_of(runner.pid), [])


if __name__ == "__main__":
    unittest.main()
