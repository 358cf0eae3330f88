"""Running a test's body in a forked child, for what a process cannot undo
(a seccomp filter, a Landlock ruleset): the body returns a dict of outcome
strings, which come back through a pipe. Not a test module itself."""
import os


def in_child(body):
    """body() in a forked child; its dict, with "crash" set if it raised."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        out = {}
        try:
            out = body()
        except BaseException as e:  # reported, never raised in the child
            out["crash"] = repr(e)
        os.write(w, repr(out).encode())
        os._exit(0)
    os.close(w)
    data = b""
    while chunk := os.read(r, 65536):
        data += chunk
    os.close(r)
    os.waitpid(pid, 0)
    return eval(data.decode())  # our own child's repr of a dict of strings


def outcome(f):
    """What calling f did: allowed, refused (a permission error) or the errno."""
    try:
        f()
        return "allowed"
    except PermissionError:
        return "refused"
    except OSError as e:
        return f"errno {e.errno}"
