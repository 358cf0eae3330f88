# What the torch judge accepts from a runner's messages. A runner hosts the
# candidate's code in its own process, so every value it sends may have been
# written by the candidate: each is validated here before the judge uses it,
# and a value that is not what the protocol allows is the sender's
# runtime_error, never an exception inside the judge (infra_error). Plain
# Python (no torch): tests import it.
import math
import signal
from typing import List, Optional, Sequence

# A runner's own account of a call (torch_runner.Runner.self_timed): set-up,
# views and launches, synchronize, export, the device's first set, each
# other set, describing the outputs. Diagnostics, never believed; seconds.
SELF_TIMED_PARTS = 7
# Longer than any call may run (the judge kills a call long before): a larger
# number is not a duration.
MAX_REPORTED_SECONDS = 1.0e4


def reported_seconds(told: object) -> Optional[List[float]]:
    """The runner's self-timed parts as floats, zero-padded to
    SELF_TIMED_PARTS; [0.0] * SELF_TIMED_PARTS when it sent none; None when
    what it sent is not a list of durations (a string, a bool, NaN, a
    negative or huge number, an integer too large for a float)."""
    if told is None:
        return [0.0] * SELF_TIMED_PARTS
    if not isinstance(told, list) or not 6 <= len(told) <= SELF_TIMED_PARTS:
        return None
    out = []
    for x in told:
        if isinstance(x, bool) or not isinstance(x, (int, float)):
            return None
        if isinstance(x, int) and abs(x) > MAX_REPORTED_SECONDS:
            return None  # before float(): a huge integer raises OverflowError there
        value = float(x)
        if not math.isfinite(value) or not 0.0 <= value <= MAX_REPORTED_SECONDS:
            return None
        out.append(value)
    return out + [0.0] * (SELF_TIMED_PARTS - len(out))


def describe(told: Sequence[object]) -> str:
    """A short, bounded rendering of what a runner sent, for a message."""
    text = repr(told)
    return text if len(text) <= 120 else text[:117] + "..."


# Signals a process raises on itself when its own code fails (a crash, an
# abort, a forbidden system call): anything else that ended a runner the
# judge did not kill came from another process.
CRASH_SIGNALS = {signal.SIGSEGV, signal.SIGABRT, signal.SIGBUS, signal.SIGFPE, signal.SIGILL, signal.SIGSYS, signal.SIGTRAP}


def outside_signal(returncode: Optional[int], killed_by_judge: bool) -> Optional[str]:
    """The signal's name when a runner's process (subprocess returncode: a
    negative number is the signal) was ended by another process, not by the
    judge and not by a crash of its own; None otherwise."""
    if killed_by_judge or returncode is None or returncode >= 0:
        return None
    if -returncode in CRASH_SIGNALS:
        return None
    try:
        return signal.Signals(-returncode).name
    except ValueError:
        return f"signal {-returncode}"
