"""The entry point of the ``llk`` command, outside the llkcore package.

Importing llkcore (numpy, the compiled kernels) takes about half a second before ``main`` can
catch anything, and an entry point inside the package is only reached after that import. Ctrl-C
in that time printed a traceback; from here it ends the command as Ctrl-C does later: one line,
exit code 130 (docs/architecture.md, "Layout").
"""
import signal
import sys


def main() -> int:
    interrupted = []

    def on_interrupt(signum, frame):
        interrupted.append(signum)
        raise KeyboardInterrupt

    # Told by a flag, not by the exception: numpy turns a Ctrl-C during its own import into an
    # ImportError ("could not import module datetime"), which llkcore then explains as a
    # broken install. (A Ctrl-C the shell has set to be ignored stays ignored.)
    ours = signal.getsignal(signal.SIGINT) is signal.default_int_handler
    if ours:
        signal.signal(signal.SIGINT, on_interrupt)
    try:
        from llkcore.cli import main as run_command
    except BaseException:
        if not interrupted:
            raise
        print("llk: interrupted", file=sys.stderr)
        return 130
    finally:
        if ours:
            signal.signal(signal.SIGINT, signal.default_int_handler)
    return run_command()


if __name__ == "__main__":
    sys.exit(main())
