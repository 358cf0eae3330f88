"""Where a torch candidate's runner may write (torch_landlock), installed in a
forked child as the runner installs it, and the static rules' fallback for a
host that cannot confine writes (torch_rules, "unconfined")."""
import os
import subprocess
import tempfile
import unittest

import torch_landlock
import torch_rules
import forked
from forked import outcome


@unittest.skipUnless(torch_landlock.abi() > 0, "this kernel has no Landlock")
class OwnFolderOnly(unittest.TestCase):
    def test_writes_stay_in_the_candidates_folder(self):
        job = tempfile.mkdtemp()
        own, src = os.path.join(job, "build", "candidate"), os.path.join(job, "src")
        os.makedirs(own)
        os.makedirs(src)
        reference = os.path.join(src, "reference.py")
        with open(reference, "w") as f:
            f.write("REFERENCE = 1\n")

        def put(path, text, mode="w"):
            with open(path, mode) as f:
                f.write(text)

        def read(path):
            with open(path) as f:
                return f.read()

        def body():
            got = {"restrict": torch_landlock.restrict_writes([own, "/dev"])}
            cu = os.path.join(own, "kernel.cu")
            got["its .cu"] = outcome(lambda: put(cu, "__global__ void k() {}"))
            got["a build folder"] = outcome(lambda: os.makedirs(os.path.join(own, "build", "obj")))
            got["a temporary file"] = outcome(lambda: tempfile.NamedTemporaryFile(dir=own).close())
            got["/dev/null"] = outcome(lambda: put("/dev/null", "x"))
            got["read the reference"] = outcome(lambda: read(reference))
            got["rewrite the reference"] = outcome(lambda: put(reference, "REFERENCE = 2\n"))
            got["append to it"] = outcome(lambda: put(reference, "x", "a"))
            got["remove it"] = outcome(lambda: os.remove(reference))
            got["replace it by a rename"] = outcome(lambda: os.rename(cu, reference))
            got["a result.json"] = outcome(lambda: put(os.path.join(job, "result.json"), "{}"))
            got["through a link in its folder"] = outcome(
                lambda: (os.symlink(reference, os.path.join(own, "link")), open(os.path.join(own, "link"), "w")))
            got["a process it starts"] = str(subprocess.run(["sh", "-c", f"echo x > {reference}"], capture_output=True).returncode)
            return got

        got = forked.in_child(body)
        self.assertEqual(got.pop("restrict"), "")
        for what in ("its .cu", "a build folder", "a temporary file", "/dev/null", "read the reference"):
            self.assertEqual(got[what], "allowed", what)
        for what in ("rewrite the reference", "append to it", "remove it", "replace it by a rename", "a result.json",
                     "through a link in its folder"):
            self.assertEqual(got[what], "refused", what)
        self.assertNotEqual(got["a process it starts"], "0")
        with open(reference) as f:
            self.assertEqual(f.read(), "REFERENCE = 1\n")


class WriteHints(unittest.TestCase):
    def test_a_refused_write_outside_its_folder_says_where_it_may_write(self):
        import torch_runner

        saved = os.environ.get("KW_CANDIDATE_DIR")
        os.environ["KW_CANDIDATE_DIR"] = "/job/build/candidate"
        try:
            outside = PermissionError(13, "Permission denied", "/tmp/my_ext")
            hint = torch_runner.write_hint(outside, str(outside))
            self.assertIn("/job/build/candidate", hint)
            self.assertIn("/tmp/my_ext is outside it", hint)
            inside = PermissionError(13, "Permission denied", "/job/build/candidate/ext/lock")
            self.assertEqual(torch_runner.write_hint(inside, str(inside)), "")
            self.assertEqual(torch_runner.write_hint(ValueError("x"), "x"), "")
        finally:
            if saved is None:
                del os.environ["KW_CANDIDATE_DIR"]
            else:
                os.environ["KW_CANDIDATE_DIR"] = saved


class RulesWithoutConfinement(unittest.TestCase):
    SOURCE = ("import torch\nwith open('kernel.cu', 'w') as f:\n    f.write('x')\n"
              "class ModelNew(torch.nn.Module):\n    def forward(self, x):\n        return x\n")

    def test_open_is_allowed_where_writes_are_confined(self):
        self.assertEqual(torch_rules.check(self.SOURCE, []), [])

    def test_open_is_refused_where_they_are_not_saying_why(self):
        found = torch_rules.check(self.SOURCE, [], files_confined=False)
        self.assertEqual([(v["rule"], v["line"]) for v in found], [("files", 2)])
        self.assertIn("Landlock", found[0]["why"])
        self.assertIn("load_inline", found[0]["why"])


if __name__ == "__main__":
    unittest.main()
