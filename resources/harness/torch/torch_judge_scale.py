# Whether an output that passes element by element has a region left at
# zero. The element test |a - e| <= atol + rtol * |e| says nothing where the
# answers are below atol: there an all-zero output, or one that skips a
# region (the memory it never writes comes from torch.zeros), passes. The
# judge also measures the share of the expected output's energy (sum of
# squares) that the candidate answered with an exact zero: a skipped region
# carries its share (a tenth of a softmax: 10 %), an honest kernel next to
# none (it writes 0 only where the answer underflows or a ReLU-like edge
# rounds to it, far below 0.1 %), whatever the arithmetic's noise, since
# noise is not an exact zero. torch is passed in: tests use the CPU build.
import math
from typing import Optional

# The share of the expected energy answered with exact zeros from which an
# output that passed element by element fails.
ZERO_SHARE = 1e-3
CHUNK = 1 << 22  # elements measured at once (float64 temporaries of 32 MiB)


class WholeOutput:
    """Accumulates one output's slices (expected, actual), then judges it."""

    def __init__(self, torch, atol: float, full: bool = True):
        # full=False (the timed rounds' quick pass, which measures a failure
        # again in full): only what failure() decides by.
        self.torch, self.atol, self.full = torch, atol, full
        self.n = self.below = self.zeros = 0
        self.energy = self.error = self.zero_energy = 0.0

    def add(self, e, a):
        # In pieces: float64 temporaries of a whole slice of a large output
        # would crowd the device the judge shares with its runners.
        e, a = e.reshape(-1), a.reshape(-1)
        for s in range(0, e.numel(), CHUNK):
            self._add(e[s:s + CHUNK], a[s:s + CHUNK])

    def _add(self, e, a):
        torch = self.torch
        e64, a64 = e.double(), a.double()
        finite = torch.isfinite(e64) & torch.isfinite(a64)  # NaN and inf are the element test's to judge
        ef = e64[finite]
        self.energy += float((ef * ef).sum())
        if self.full:
            self.n += int(e64.numel())
            self.below += int((e64.abs() < self.atol).sum())
            d = (a64 - e64)[finite]
            self.error += float((d * d).sum())
        zeroed = finite & (a64 == 0) & (e64 != 0)
        self.zeros += int(zeroed.sum())
        ez = e64[zeroed]
        self.zero_energy += float((ez * ez).sum())

    def relative_error(self) -> float:
        """The output's relative L2 error (a diagnostic for result.json)."""
        return math.sqrt(self.error / self.energy) if self.energy > 0 else 0.0

    def zero_share(self) -> float:
        return self.zero_energy / self.energy if self.energy > 0 else 0.0

    def failure(self) -> Optional[str]:
        """None when no region of the output was left at zero, else what is
        wrong, for the message."""
        share = self.zero_share()
        if share <= ZERO_SHARE:
            return None
        return (f"{self.zeros} of {self.n} answers are exactly 0 where the reference's are not, {100 * share:.3g} % of the "
                f"output's energy ({self.below} of the answers are below atol {self.atol:g}, so the element test alone "
                "would pass them): a region left at zero or skipped")
