#!/usr/bin/env python3
"""Runs a command and appends "WALL_SECONDS PEAK_RSS_KB EXIT_CODE CPU_SECONDS"
to a file.

    measure.py OUT -- COMMAND [ARG...]

Standard input, output and error are the command's. The peak RSS is the
largest resident set of the command's process tree (getrusage of the waited
children), its CPU time the user and system time of that tree (on every
core: a command on two threads can take twice its wall time). Exits with
the command's exit code.
"""
import resource
import subprocess
import sys
import time


def main(argv):
    if len(argv) < 4 or argv[2] != "--":
        print("usage: measure.py OUT -- COMMAND [ARG...]", file=sys.stderr)
        return 2
    start = time.monotonic()
    try:
        code = subprocess.call(argv[3:])
    except OSError as e:
        print(f"measure.py: cannot run {argv[3]}: {e.strerror}", file=sys.stderr)
        return 127
    wall = time.monotonic() - start
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = usage.ru_utime + usage.ru_stime
    with open(argv[1], "a") as f:
        f.write(f"{wall:.3f} {usage.ru_maxrss} {code} {cpu:.3f}\n")
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv))
