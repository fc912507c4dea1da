# Drives an agent whose CLI is interactive only (OpenHands 1.2.1) through a pseudo-terminal,
# as a person would: waits for its input prompt, types the prompt, answers each
# confirmation with "Always proceed", waits for the next input prompt, types /exit and
# confirms. Usage: python terminal_driver.py PROMPT (the agent is `openhands`, next to
# this Python). Everything the agent prints is copied to stdout. Stdlib only.
import fcntl
import os
import pty
import select
import struct
import sys
import termios
import time

READY = b"Type your message"
CONFIRM = b"Choose an option"
EXIT_QUESTION = b"Terminate session?"
DOWN = b"\x1b[B"
# The longest wait for any one screen, in seconds (the recorder's deadline is the outer one).
STEP = 120.0

prompt = sys.argv[1].encode()
agent = os.path.join(os.path.dirname(sys.executable), "openhands")
os.environ["TERM"] = "xterm-256color"
pid, fd = pty.fork()
if pid == 0:
    os.execv(agent, [agent])
fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 50, 200, 0, 0))
seen = bytearray()


def pump(timeout):
    """Reads what the agent printed within `timeout`; False once it has exited."""
    ready, _, _ = select.select([fd], [], [], timeout)
    if not ready:
        return True
    try:
        data = os.read(fd, 65536)
    except OSError:
        return False
    if not data:
        return False
    sys.stdout.buffer.write(data)
    sys.stdout.flush()
    # prompt_toolkit asks where the cursor is; a terminal answers.
    if b"\x1b[6n" in data:
        os.write(fd, b"\x1b[1;1R")
    seen.extend(data)
    return True


def wait_for(markers, start):
    """Waits until one of `markers` is printed after offset `start`; returns it."""
    deadline = time.monotonic() + STEP
    while time.monotonic() < deadline:
        for marker in markers:
            if seen.find(marker, start) >= 0:
                return marker
        if not pump(0.2):
            sys.exit("the agent exited before printing %r" % (markers,))
    sys.exit("the agent did not print %r in %ss" % (markers, STEP))


def type_line(text):
    os.write(fd, text)
    time.sleep(0.5)
    os.write(fd, b"\r")


wait_for([READY], 0)
start = len(seen)
type_line(prompt)
while True:
    found = wait_for([CONFIRM, READY], start)
    start = len(seen)
    if found == READY:
        break
    # "Always proceed (don't ask again)" is the third option.
    os.write(fd, DOWN)
    time.sleep(0.2)
    os.write(fd, DOWN)
    time.sleep(0.2)
    os.write(fd, b"\r")
type_line(b"/exit")
wait_for([EXIT_QUESTION], start)
time.sleep(0.5)
os.write(fd, b"\r")
while pump(1.0):
    pass
_, status = os.waitpid(pid, 0)
sys.exit(os.waitstatus_to_exitcode(status))
