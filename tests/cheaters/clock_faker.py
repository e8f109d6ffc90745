"""Stops its own clocks, then thinks for 1.5 s."""

import time

_sleep = time.sleep


class ClockFaker:
    def act(self, info, rng):
        for name in ("perf_counter", "monotonic", "time", "process_time"):
            setattr(time, name, lambda: 0.0)
        _sleep(1.5)
        return info.legal_actions()[0]
