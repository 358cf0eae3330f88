"""docs/architecture.md's "Where to make a change" table routes a newcomer to
files: every path it names must exist, or the table sends people nowhere."""
import os
import re
import unittest

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))


def rooms_table(text):
    """The table's rows, from its heading to the next heading."""
    start = text.index("## Where to make a change")
    end = text.index("\n## ", start + 1)
    return [line for line in text[start:end].splitlines() if line.startswith("| ") and not line.startswith("|---")]


def named_paths(rows):
    """Backticked names with a folder in them: `core/x.cpp`, `ui/tree/`."""
    paths = []
    for row in rows:
        for name in re.findall(r"`([^`]+)`", row):
            if "/" in name and " " not in name and "*" not in name:
                paths.append(name)
    return paths


class Rooms(unittest.TestCase):
    def test_every_path_in_the_table_exists(self):
        with open(os.path.join(ROOT, "docs", "architecture.md")) as f:
            rows = rooms_table(f.read())
        self.assertGreater(len(rows), 10)
        paths = named_paths(rows)
        self.assertGreater(len(paths), 30)
        missing = [p for p in paths if not os.path.exists(os.path.join(ROOT, p))]
        self.assertEqual(missing, [], "the table names files that are not in the repository")

    def test_a_wrong_path_is_found(self):
        rows = ["| a policy | `core/search/no_such_file.cpp` | `core/tree/` |"]
        self.assertEqual(named_paths(rows), ["core/search/no_such_file.cpp", "core/tree/"])
        self.assertFalse(os.path.exists(os.path.join(ROOT, "core/search/no_such_file.cpp")))


if __name__ == "__main__":
    unittest.main()
